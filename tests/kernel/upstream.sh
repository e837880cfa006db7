#!/bin/sh
# The upstream submission alone (kernel/patches/6.12/upstream/series), as a
# maintainer would take it:
#   - each patch applies with patch -p1 to a fresh extract of Debian's
#     linux-source-6.12 with nothing after it, and is checkpatch --strict
#     clean (ignoring what tests/kernel/series.sh ignores, for its reasons);
#   - it adds no boot parameter and no sysctl;
#   - its two selftests build with the selftests' Makefile, no warnings;
#   - the upstream kernel (lab/build upstream) at each
#     proc_mem.force_override level (always, ptrace, self, never; and an
#     unknown value, which keeps the Kconfig default "always") passes both
#     selftests and the conformance table's force rows with gdb
#     (tests/conformance/force-level);
#   - the stock kernel (lab/build stock) at ptrace fails
#     proc-mem-exited-task (the bug patch 1 fixes) and proc-mem-force-self
#     at "self" (a value stock does not know).
# Not in make check's CHECKS yet: the upstream flavour shares build/src
# with stock, patched and debug, and the kselftest driver expects the full
# series applied there (see the report of branch v3-upstream).
set -eu
dir=kernel/patches/6.12/upstream
out=build/kselftest-upstream
fresh=$(mktemp -d /var/tmp/upstream.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
n=0 st=0
check() { # check DESCRIPTION COMMAND...: one TAP line for COMMAND's success
	d=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $d"; else echo "not ok $n - $d"; st=1; fi
}

tar -C "$fresh" -xJf /usr/src/linux-source-6.12.tar.xz
src=$fresh/linux-source-6.12
# shellcheck disable=SC2013 # one patch name per line, without spaces
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series"); do
	check "upstream/$p applies to a fresh extract" \
		sh -c "patch -d '$src' -p1 -s -F0 <'$dir/$p'"
	o=$(cd "$src" && perl scripts/checkpatch.pl --strict -q \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$OLDPWD/$dir/$p" 2>&1) || true
	check "upstream/$p is checkpatch --strict clean" [ -z "$o" ]
	[ -z "$o" ] || echo "$o" | sed 's/^/# /'
done
# The lines the series adds, for the interface checks.
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series" | while read -r p; do
	grep '^+' "$dir/$p" | grep -v '^+++ '
done >"$fresh/added"
check "upstream adds no boot parameter" \
	sh -c "! grep -E 'early_param|__setup\(|module_param|core_param' '$fresh/added'"
check "upstream adds no sysctl" \
	sh -c "! grep -E 'ctl_table|register_sysctl|proc_handler' '$fresh/added'"

mkdir -p "$out"
rc=0
env -u CFLAGS -u LDFLAGS -u CC -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
	make -B -C "$src/tools/testing/selftests/proc" OUTPUT="$(pwd)/$out" \
	"$(pwd)/$out/proc-mem-exited-task" "$(pwd)/$out/proc-mem-force-self" \
	>"$out/build.log" 2>&1 || rc=$?
sed 's/^/# /' "$out/build.log"
check "the upstream selftests build without warnings" \
	sh -c "[ $rc -eq 0 ] && ! grep -q -i warning $out/build.log"
[ "$rc" -eq 0 ] || exit 1

boot() { # boot DESCRIPTION KERNEL CMDLINE GUEST-COMMAND...
	d=$1 k=$2 c=$3
	shift 3
	echo "# --- $k kernel: $c: $*"
	check "$d" lab/vm --kernel "$k" --cmdline "$c" --timeout 300 -- "$@"
}
for level in always ptrace self never; do
	boot "upstream, force_override=$level: selftests, force rows, gdb" upstream \
		"proc_mem.force_override=$level" sh -c "
		st=0
		$out/proc-mem-exited-task || st=1
		$out/proc-mem-force-self || st=1
		tests/conformance/force-level $level || st=1
		exit \$st"
done
# An unknown value keeps the Kconfig default (always), as stock's parser.
boot "upstream, force_override=bogus: the Kconfig default, always" upstream \
	proc_mem.force_override=bogus sh -c "
	st=0
	$out/proc-mem-force-self 2>&1 | grep -q 'proc_mem.force_override=always\$' || st=1
	tests/conformance/force-level always || st=1
	exit \$st"
# Stock: the bug patch 1 fixes, and no "self".
boot "stock, force_override=ptrace: proc-mem-exited-task fails (patch 1 fixes it), proc-mem-force-self passes" \
	stock proc_mem.force_override=ptrace sh -c "
	$out/proc-mem-force-self || exit 1
	$out/proc-mem-exited-task >/tmp/exited 2>&1 && { cat /tmp/exited; exit 1; }
	grep -q '^not ok .* exited.leader\$' /tmp/exited &&
	grep -q '^not ok .* exited.thread_reaped\$' /tmp/exited &&
	grep -q '^ok .* exited.leader_thread_detached\$' /tmp/exited"
boot "stock, force_override=self: proc-mem-force-self fails (stock keeps always)" \
	stock proc_mem.force_override=self sh -c "! $out/proc-mem-force-self >/dev/null 2>&1"
exit $st
