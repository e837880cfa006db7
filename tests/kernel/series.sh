#!/bin/sh
# The patch series, one per kernel version (kernel/patches/6.12, 6.1,
# 7.2; 7.x from Debian's linux-source-7.x that lab/archive fetches):
#   - its first patches, listed in upstream.series, are the upstream
#     submission: upstream.series is the start of series, so the
#     submission applies alone to a fresh extract (the apply checks below,
#     up to its last patch), and it adds no boot parameter and no sysctl
#     (its added lines name none of module_param*, __setup, early_param,
#     core_param, ctl_table, register_sysctl*);
#   - each patch of series applies with patch -p1 to a fresh extract of
#     Debian's linux-source-VERSION after the ones before it, and is clean
#     under checkpatch --strict of that version;
#   - it bisects: in that tree, configured once as lab/build configures
#     (tinyconfig and kernel/config/guest.config), after each patch
#     `make W=1 C=1` (sparse) of the directories of the files it touches
#     (fs/proc/ for a header; none for documentation or Kconfig) builds,
#     with no warning in those files but the ones they had before the
#     series (stock's own, sparse's "context imbalance" in fs/proc/base.c
#     for one: a W=1 C=1 build of every directory the series touches,
#     before it, is the baseline, compared without line numbers); a patch of
#     tools/testing/selftests/DIR builds the programs it touches with the
#     selftests' own Makefile, no warning at all.
#   - after the last patch, fs/proc/mem_policy.o built with
#     CONFIG_PROC_MEM_SYSCTL=n has every policy byte in
#     .data..ro_after_init, and built with =y still the force level,
#     the permissive flag as booted, which gates the FOLL_FORCE retry of
#     permissive mode, and the flags that send mem_open() and mem_rw()
#     down stock's path: no byte writable after init turns force back on
#     or skips the policy;
#     ccache as lab/build sets it (base directory: the temporary one).
#     Sparse must really run: a kernel whose scripts/checker-valid.sh
#     refuses the sparse installed (7.x wants __typeof_unqual__, which
#     Debian 12's 0.6.4 lacks) skips C=1 with one line in the log, which
#     fails the version here.  The sparse is lab/sparse's (unstable's,
#     built once into build/sparse) for every version; SPARSE=PATH names
#     another (CHECK=).
# Ignored by checkpatch, each for a reason checked or stated here:
# - UNKNOWN_COMMIT_ID: the Debian source has no git history, so checkpatch
#   cannot resolve any commit id, upstream ones included;
# - FILE_PATH_CHANGES ("does MAINTAINERS need updating?"), given for every
#   new file: instead, each file the series creates must have a MAINTAINERS
#   entry that sends it to linux-fsdevel (get_maintainer.pl, at the end);
# - in include/trace/events/ only, OPEN_ENDED_LINE and PARENTHESIS_ALIGNMENT:
#   the TRACE_EVENT() layout that every header there uses.
set -eu
. tests/lib/tap.sh
top=$(pwd)
fresh=$(mktemp -d /var/tmp/series.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
export CCACHE_BASEDIR="$fresh" CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
jobs=$(($(nproc) + 1))
SPARSE=${SPARSE:-$(lab/sparse)}
names() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }
kmake() { make -s -C "$src" O="$obj" -j"$jobs" CC="ccache gcc" HOSTCC="ccache gcc" KCFLAGS=-Wno-error \
	CHECK="${SPARSE:-sparse}" "$@"; }
# skipped LOG: the kernel's Makefile turned C=1 off (no usable sparse).
skipped() { grep -q 'C=1 specified, but .* is not available or not up to date' "$1"; }

# kdirs PATCH...: the directories of the kernel files the PATCHes touch
# that have a Makefile (fs/proc/ for headers only), one a line.
kdirs() {
	# shellcheck disable=SC2013 # one file name per line, without spaces
	for f in $(sed -n 's|^+++ b/||p' "$@" | sort -u); do
		case $f in
		tools/* | Documentation/* | */Kconfig* | Kconfig* | MAINTAINERS) ;;
		include/*) echo fs/proc/ ;;
		*) [ ! -f "$src/${f%/*}/Makefile" ] || echo "${f%/*}/" ;;
		esac
	done | sort -u
}
# warnings LOG: its compiler and sparse diagnostics as FILE: warning: TEXT,
# with the file relative to the source tree and no line numbers.
warnings() {
	sed -nE 's#^(.*/linux-source-[0-9.]+/|\.\./)?([^ :]+):[0-9]+(:[0-9]+)?: (warning|error): #\2: \4: #p' "$1" | sort -u
}

# bisect PATCH: the build of what PATCH touches, in the tree it was just
# applied to; a warning in one of its files that the baseline has not fails.
bisect() {
	files=$(sed -n 's|^+++ b/||p' "$1" | sort -u)
	dirs=$(kdirs "$1") progs='' sel=''
	for f in $files; do
		case $f in
		tools/testing/selftests/*)
			sel=${f%/*}
			case $f in *.c) p=${f##*/} progs="$progs $fresh/ksft/${p%.c}" ;; esac ;;
		esac
	done
	if [ -n "$sel" ]; then
		rm -rf "$fresh/ksft"
		mkdir -p "$fresh/ksft"
		# shellcheck disable=SC2086 # one argument per program
		env -u CFLAGS -u LDFLAGS -u CC -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
			make -C "$src/$sel" OUTPUT="$fresh/ksft" $progs >"$fresh/ksft.log" 2>&1 ||
			{ tail -n 20 "$fresh/ksft.log"; return 1; }
		if grep -i warning "$fresh/ksft.log"; then return 1; fi
	fi
	# Documentation, MAINTAINERS, Kconfig or selftests alone: no kernel build.
	[ -n "$dirs" ] || return 0
	# shellcheck disable=SC2086 # one argument per directory
	if ! kmake olddefconfig >"$fresh/build.log" 2>&1 ||
		! kmake W=1 C=1 $dirs >>"$fresh/build.log" 2>&1 || skipped "$fresh/build.log"; then
		tail -n 20 "$fresh/build.log"
		return 1
	fi
	warnings "$fresh/build.log" | grep -vxF -f "$fresh/baseline" >"$fresh/new" || true
	for f in $files; do
		if grep -F "$f: " "$fresh/new" | grep "^$f: "; then
			return 1
		fi
	done
	return 0
}

# SERIES_VERSIONS: a subset (development only).
for ver in ${SERIES_VERSIONS:-6.12 6.1 7.2}; do
	dir=kernel/patches/$ver
	t0=$(date +%s)
	tarball=/usr/src/linux-source-$ver.tar.xz
	# Debian 12 does not carry 7.x: the lab's own view of the archive does.
	case $ver in 7.*) tarball=$("$top/lab/archive" source "$ver") ;; esac
	tar -C "$fresh" -xJf "$tarball"
	src=$fresh/linux-source-$ver obj=$fresh/obj-$ver

	# The upstream submission: the start of the series, no new interface.
	up=0 prefix=1
	if [ -f "$dir/upstream.series" ]; then
		up=$(names "$dir/upstream.series" | wc -l)
		[ "$up" -gt 0 ] && [ "$(names "$dir/series" | head -n "$up")" = \
			"$(names "$dir/upstream.series")" ] || prefix=0
	else
		prefix=0
	fi
	result $((!prefix)) "$ver: upstream.series lists the first patches of series (the upstream submission)"
	names "$dir/upstream.series" 2>/dev/null | while read -r p; do
		grep '^+' "$dir/$p" | grep -v '^+++ '
	done >"$fresh/added"
	check "$ver: the upstream submission adds no boot parameter" \
		sh -c "[ $up -gt 0 ] && ! grep -E 'module_param|__setup\(|early_param|core_param' '$fresh/added'"
	check "$ver: the upstream submission adds no sysctl" \
		sh -c "[ $up -gt 0 ] && ! grep -E 'ctl_table|register_sysctl' '$fresh/added'"

	# One configured tree for the bisection, as lab/build configures.
	mkdir -p "$obj"
	kmake tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
		"$top/kernel/config/guest.config" >/dev/null)
	cfg=0
	kmake olddefconfig >/dev/null && kmake prepare >"$fresh/prepare.log" 2>&1 || cfg=1
	# The baseline: stock's warnings where the series builds.
	# shellcheck disable=SC2046 # one argument per directory
	[ $cfg -ne 0 ] || kmake W=1 C=1 $(kdirs $(names "$dir/series" | sed "s|^|$dir/|")) \
		>>"$fresh/prepare.log" 2>&1 || cfg=1
	warnings "$fresh/prepare.log" >"$fresh/baseline"
	result $cfg "$ver: a fresh extract configured as lab/build does builds W=1 C=1 where the series builds"
	[ $cfg -eq 0 ] || tail -n 30 "$fresh/prepare.log" | sed 's/^/# /'
	if skipped "$fresh/prepare.log"; then
		result 1 "$ver: sparse runs under C=1 (${SPARSE:-sparse} is refused by this kernel's checker-valid.sh: set SPARSE)"
		cfg=1
	else
		result 0 "$ver: sparse runs under C=1"
	fi

	i=0 upok=$prefix
	for p in $(names "$dir/series"); do
		i=$((i + 1))
		rc=0
		patch -d "$src" -p1 -s -F0 --dry-run <"$dir/$p" >/dev/null &&
			patch -d "$src" -p1 -s -F0 <"$dir/$p" || rc=1
		result $rc "$ver/$p applies to a fresh extract"
		[ $rc -eq 0 ] || upok=0
		if [ $i -eq "$up" ]; then
			result $((!upok)) "$ver: the upstream submission ($up patches) applies alone to a fresh extract"
		fi
		if [ $rc -eq 0 ] && [ $cfg -eq 0 ]; then
			out=$(bisect "$dir/$p" 2>&1) || rc=1
			result $rc "$ver/$p builds with W=1 C=1, no warning in its files"
			[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
		fi
		ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
		grep -q '^+++ b/include/trace/events/' "$dir/$p" &&
			ignore=$ignore,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT
		rc=0
		o=$(cd "$src" && perl scripts/checkpatch.pl --strict --ignore "$ignore" \
			-q "$top/$dir/$p" 2>&1) && [ -z "$o" ] || rc=1
		result $rc "$ver/$p is checkpatch --strict clean"
		[ $rc -eq 0 ] || printf '%s\n' "$o" | sed 's/^/# /'
	done
	if [ "$up" -gt 0 ] && [ "$prefix" -eq 0 ]; then
		result 1 "$ver: the upstream submission ($up patches) applies alone to a fresh extract (not the start of series: unchecked)"
	fi
	# No byte that stays writable after init turns force back on.  With
	# CONFIG_PROC_MEM_SYSCTL=n (the default) every byte that decides the
	# policy is __ro_after_init; with =y the permissive flag and the
	# runtime levels are writable, and the FOLL_FORCE retry of permissive
	# mode also asks the flag's copy as booted, which stays __ro_after_init
	# beside the force level (v3 had no such copy: its retry asked the
	# writable flag alone, and this fails on it).
	if [ $cfg -eq 0 ]; then
		ro='[.]data[.][.]ro_after_init'
		for opt in disable enable; do
			rc=0
			"$src/scripts/config" --file "$obj/.config" --$opt PROC_MEM_SYSCTL &&
				kmake olddefconfig >/dev/null 2>&1 &&
				kmake fs/proc/mem_policy.o >"$fresh/syms.log" 2>&1 &&
				objdump -t "$obj/fs/proc/mem_policy.o" >"$fresh/syms" || rc=1
			if [ $opt = disable ]; then
				[ $rc -eq 0 ] && [ "$(grep -cE "$ro.* (proc_mem_force_level|proc_mem_permissive_boot|proc_mem_permissive|proc_mem_levels|proc_mem_stock_open|proc_mem_stock_access)\$" "$fresh/syms")" -eq 6 ] || rc=1
				result $rc "$ver: CONFIG_PROC_MEM_SYSCTL=n: the levels, both permissive flags and the stock-path flags are __ro_after_init"
			else
				[ $rc -eq 0 ] && [ "$(grep -cE "$ro.* (proc_mem_force_level|proc_mem_permissive_boot|proc_mem_stock_open|proc_mem_stock_access)\$" "$fresh/syms")" -eq 4 ] &&
					grep -E ' proc_mem_permissive$' "$fresh/syms" | grep -qv ro_after_init || rc=1
				result $rc "$ver: CONFIG_PROC_MEM_SYSCTL=y: force, the permissive flag as booted and the stock-path flags stay __ro_after_init, the flag itself is writable"
			fi
			[ $rc -eq 0 ] || grep -E ' proc_mem_' "$fresh/syms" | sed 's/^/# /'
		done
	fi
	# shellcheck disable=SC2013 # one file name per line, without spaces
	for f in $(sed -n 's/^ create mode [0-7]* //p' "$dir"/0*.patch | sort -u); do
		check "$ver: MAINTAINERS sends $f to linux-fsdevel" sh -c \
			"cd '$src' && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f '$f' 2>/dev/null | grep -q linux-fsdevel"
	done
	rm -rf "$src" "$obj"
	echo "# $ver: $(($(date +%s) - t0)) s"
done
exit $st
