#!/bin/sh
# The upstream submission (kernel/patches/VERSION/upstream.series, the first
# patches of the series) on running kernels; that it applies alone, is
# checkpatch clean, adds no boot parameter or sysctl and builds patch by
# patch is tests/kernel/series.sh's.  Here:
#   - its two selftests, built with the selftests' Makefile from Debian's
#     tools/ with only the submission's selftest hunks applied, no warnings,
#     and built again -m32 (gcc-multilib), no warnings: an address at or
#     above 2 GiB, where a 32-bit process's pages are, needs a 64-bit off_t
#     (without _FILE_OFFSET_BITS=64 every case fails with EINVAL there);
#   - the upstream kernel (lab/build upstream) at proc_mem.force_override=
#     ptrace, self and never, and at an unknown value (which keeps the
#     Kconfig default, always, as stock's parser does), passes both
#     selftests and the conformance table's force rows with gdb
#     (tests/conformance/force-level);
#   - the -m32 build of proc-mem-force-self passes on Debian's own kernel
#     of the version (stock, at its default): 32-bit glibc's threads need
#     CONFIG_COMPAT_32BIT_TIME (its futex calls), which Debian's kernels
#     have and the lab's tinyconfig ones do not but debug; on 6.12, the
#     -m32 build of proc-mem-exited-task passes every case on the debug
#     kernel (the whole series) at ptrace;
#   - the stock kernel fails each selftest where the submission changes
#     something: proc-mem-exited-task at ptrace (the bug patch 1 fixes:
#     the exited leader, the reaped thread, the tracer of a non-leader
#     thread and the tracer of a CLONE_VM or vfork() child fail, a
#     detached tracer and one of another mm get EIO as they must),
#     proc-mem-force-self at "self" (a value stock does not know).
# The full series' kernels and selftest are tests/kernel/kselftest.sh's.
#
# With --linux 7.2: the submission as sent upstream now, against 7.2
# (kernel/patches/7.2/upstream.series), on upstream-7.2 at always, self,
# never and an unknown value, which keeps the Kconfig default: ptrace
# since 7.1, so that boot is the ptrace one and checks the default too.
# On both versions, the v4 fixes of its selftests: they skip where the
# level cannot be measured even if the command line names one (Debian's
# own kernel of the version under Yama's ptrace_scope 3), and take the
# last of two force_override= words, as the kernel does.
# Where stock 7.2 (Debian's binary, debian-7.2) fails proc-mem-exited-task
# at its default is tests/kernel/kselftest.sh --linux 7.2's.
set -eu
. tests/lib/tap.sh
ver=6.12
case "${1-}" in
'') ;;
--linux) [ "${2-}" = 7.2 ] || { echo "usage: $0 [--linux 7.2]" >&2; exit 2; }
	ver=7.2 ;;
*) echo "usage: $0 [--linux 7.2]" >&2; exit 2 ;;
esac
dir=kernel/patches/$ver
out=$(pwd)/build/kselftest-upstream
[ $ver = 6.12 ] || out=$out-$ver
fresh=$(mktemp -d /var/tmp/upstream.XXXXXX)
trap 'rm -rf "$fresh"' EXIT

# tools/ of a fresh extract (what the selftests' Makefile reads), and the
# submission's hunks there.
v=linux-source-$ver
tarball=/usr/src/$v.tar.xz
case $ver in 7.*) tarball=$(lab/archive source "$ver") ;; esac
tar -C "$fresh" -xJf "$tarball" $v/tools/testing/selftests $v/tools/include \
	$v/tools/arch $v/scripts/subarch.include
src=$fresh/$v
rc=0
# shellcheck disable=SC2013 # one patch name per line, without spaces
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/upstream.series"); do
	awk '/^diff --git / { keep = $3 ~ /^a\/tools\/testing\/selftests\// }
		/^-- ?$/ { keep = 0 } keep' "$dir/$p" | patch -d "$src" -p1 -s -F0 || rc=1
done
result $rc "the submission's selftest hunks apply to tools/ of a fresh extract"
rm -rf "$out"
# selftests DIR [CC]: build both selftests into DIR with the selftests'
# Makefile (and compiler CC), no warning allowed; stop the test if not.
selftests() {
	mkdir -p "$1"
	rc=0
	env -u CFLAGS -u LDFLAGS -u CC -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		make -B -C "$src/tools/testing/selftests/proc" OUTPUT="$1" CC="${2:-cc}" \
		"$1/proc-mem-exited-task" "$1/proc-mem-force-self" >"$1/build.log" 2>&1 || rc=$?
	sed 's/^/# /' "$1/build.log"
	! grep -q -i warning "$1/build.log" || rc=1
}
selftests "$out"
result $rc "the upstream selftests build without warnings"
[ "$rc" -eq 0 ] || exit 1
selftests "$out/m32" "gcc -m32"
[ "$(od -An -tx1 -j4 -N1 "$out/m32/proc-mem-force-self" 2>/dev/null)" = ' 01' ] || rc=1
result $rc "the upstream selftests build -m32 (32-bit ELF) without warnings"
[ "$rc" -eq 0 ] || exit 1
t=${out#"$(pwd)/"}

boot() { # boot DESCRIPTION KERNEL CMDLINE GUEST-COMMAND...
	d=$1 k=$2 c=$3
	shift 3
	echo "# --- $k kernel: $c: $*"
	check "$d" lab/vm --kernel "$k" --cmdline "$c" --timeout 300 -- "$@"
}
# Every level but the Kconfig default (ptrace on 7.2, since 7.1; always
# on 6.12), which an unknown value must keep, as stock's parser does.
if [ $ver = 7.2 ]; then
	k=upstream-7.2 default=ptrace levels="always self never"
else
	k=upstream default=always levels="ptrace self never"
fi
for level in $levels; do
	boot "$k, force_override=$level: selftests, force rows, gdb" $k \
		"proc_mem.force_override=$level" sh -c "
		st=0
		$t/proc-mem-exited-task || st=1
		$t/proc-mem-force-self || st=1
		tests/conformance/force-level $level || st=1
		exit \$st"
done
boot "$k, force_override=bogus: the Kconfig default, $default" $k \
	proc_mem.force_override=bogus sh -c "
	st=0
	$t/proc-mem-exited-task || st=1
	$t/proc-mem-force-self 2>&1 | grep -q 'proc_mem.force_override=$default\$' || st=1
	tests/conformance/force-level $default || st=1
	exit \$st"
# Where the level cannot be measured, the selftests skip, even when the
# command line names one (v3 asserted the named level first and failed):
# Debian's own kernel of this version (it has Yama) at ptrace_scope 3.
uk=$k
# 32-bit: every address of a 32-bit process's mappings lies above 2 GiB,
# where the selftests need their 64-bit off_t (without it all of
# proc-mem-force-self's cases fail with EINVAL: measured on Debian 12's
# 6.1).  On Debian's kernel of the version at its default (stock; its
# threads need COMPAT_32BIT_TIME, see above), the whole test, 12 cases.
boot "debian-$ver at its default: proc-mem-force-self built -m32 passes" \
	debian-$ver "" sh -c "
	$t/m32/proc-mem-force-self >/tmp/m32 2>&1; st=\$?
	grep -E '^(not )?ok' /tmp/m32 | sed 's/^/# /'
	[ \$st -eq 0 ] && [ \$(grep -c '^ok ' /tmp/m32) -eq 12 ]"
boot "debian-$ver, Yama ptrace_scope=3, force_override=ptrace named: the selftests skip, none fails" \
	debian-$ver proc_mem.force_override=ptrace sh -c "
	sysctl -qw kernel.yama.ptrace_scope=3 || exit 1
	$t/proc-mem-exited-task >/tmp/e 2>&1; $t/proc-mem-force-self >/tmp/f 2>&1
	cat /tmp/e /tmp/f | grep -E '^(not )?ok' | sed 's/^/# /'
	! grep -q '^not ok' /tmp/e /tmp/f && grep -q '^ok .*# SKIP' /tmp/e && grep -q '^ok .*# SKIP' /tmp/f"
# The kernel applies the last proc_mem.force_override= (a boot loader's
# default, then an override); so must the selftests.
boot "$uk, force_override=always then =ptrace: the selftests take the last word" $uk \
	"proc_mem.force_override=always proc_mem.force_override=ptrace" sh -c "
	st=0
	$t/proc-mem-exited-task || st=1
	$t/proc-mem-force-self 2>&1 | grep -q 'proc_mem.force_override=ptrace\$' || st=1
	tests/conformance/force-level ptrace || st=1
	exit \$st"
# 7.2's stock is Debian's own binary: tests/kernel/kselftest.sh --linux
# 7.2 holds it to the exited-task failure.
[ $ver != 7.2 ] || exit $st
# The -m32 build of proc-mem-exited-task on a kernel with patch 1 whose
# 32-bit threads work: the debug kernel (the whole 6.12 series, with
# COMPAT_32BIT_TIME, kernel/config/debug.config) at ptrace, every case,
# the exited leader's included.
boot "debug, force_override=ptrace: proc-mem-exited-task built -m32 passes, every case" \
	debug proc_mem.force_override=ptrace sh -c "
	$t/m32/proc-mem-exited-task >/tmp/m32e 2>&1; st=\$?
	grep -E '^(not )?ok' /tmp/m32e | sed 's/^/# /'
	[ \$st -eq 0 ] && [ \$(grep -c '^ok ' /tmp/m32e) -eq 7 ] && ! grep -q SKIP /tmp/m32e"

# Stock: the bug patch 1 fixes, and no "self".
# Its failed cases leave no process behind (PR_SET_PDEATHSIG).
boot "stock, force_override=ptrace: proc-mem-exited-task fails (patch 1 fixes it) and leaves no child, proc-mem-force-self passes" \
	stock proc_mem.force_override=ptrace sh -c "
	$t/proc-mem-force-self || exit 1
	$t/proc-mem-exited-task >/tmp/exited 2>&1 && { cat /tmp/exited; exit 1; }
	grep -q '^not ok .* exited.leader\$' /tmp/exited &&
	grep -q '^not ok .* exited.thread_reaped\$' /tmp/exited &&
	grep -q '^not ok .* exited.thread_traced_leader_lives\$' /tmp/exited &&
	grep -q '^not ok .* exited.clone_vm_traced\$' /tmp/exited &&
	grep -q '^not ok .* exited.vfork_child_traced\$' /tmp/exited &&
	grep -q '^ok .* exited.other_mm_traced\$' /tmp/exited &&
	grep -q '^ok .* exited.leader_thread_detached\$' /tmp/exited &&
	sleep 1 && [ \$(ps -eo comm | grep -c '^proc-mem-exite') -eq 0 ]"
boot "stock, force_override=self: proc-mem-force-self fails (stock keeps always)" \
	stock proc_mem.force_override=self sh -c "! $t/proc-mem-force-self >/dev/null 2>&1"
exit $st
