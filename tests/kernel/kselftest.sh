#!/bin/sh
# The series' own kselftest, tools/testing/selftests/proc/proc-mem-policy:
# built by the selftests' Makefile of the patched kernel tree (build/src
# after `make kernels`) into build/kselftest/, then run in guests:
#   stock    (and at ptrace Debian's own 6.12 and 6.1 binary kernels)
#            at proc_mem.force_override=always, ptrace, never, the levels
#            given in PROC_MEM_POLICY_LEVELS (stock has no sysctls); at
#            ptrace the exited leader's cases, and only they, must fail:
#            that is the bug the series' first patch fixes;
#   patched  booted permissive at force=self, then walking every level up
#            (PROC_MEM_POLICY_WALK=1), the table at each step;
#   patched and debug (in tests/reliability/guest: no kernel report)
#            booted at open_read=self write=self force=ptrace, which the
#            sysctls must report; booted again at force=ptrace alone, the
#            first patch's test (proc-mem-exited-task since v3,
#            proc-mem-exited-leader before: whichever the tree has) must
#            pass (it opens a child's mem file before tracing it).
# With --linux 6.1: the same from the 6.1 tree (build/kselftest-6.1/) on
# stock-6.1 and patched-6.1 (no debug kernel, no Debian binaries).
# With --linux 7.2: from the 7.2 tree (build/kselftest-7.2/) on
# patched-7.2, and on Debian's own 7.2 binary (debian-7.2) as the stock
# kernel: there is no stock build of ours.  7.2's Kconfig default for
# force is ptrace (since 7.1), so Debian's binary runs the stock table at
# its default, no parameter (the exited leader's cases, and only they,
# fail), and at always; patched-7.2 runs the first patch's test at its
# default too, which must therefore be ptrace.
# With --stock-ptrace DIR (in a stock guest): the run at force=ptrace.
set -eu
ver=6.12 out=build/kselftest
case "${1-}" in
--linux) case "${2-}" in 6.1 | 7.2) ;; *) echo "usage: $0 [--linux 6.1|7.2]" >&2; exit 2 ;; esac
	ver=$2 out=build/kselftest-$2 ;;
--stock-ptrace) out=$2 ;;
esac
t=$out/proc-mem-policy
# The first patch's test: proc-mem-exited-task (v3, the upstream
# submission's), or proc-mem-exited-leader (the 6.1 series until it
# follows).
leader=$out/proc-mem-exited-task
[ -e "$leader" ] || [ -e "build/src/linux-source-$ver/tools/testing/selftests/proc/${leader##*/}.c" ] ||
	leader=$out/proc-mem-exited-leader
. tests/lib/tap.sh

if [ "${1-}" = --stock-ptrace ]; then
	# The whole table, prefixed: 6.1's harness has no -v/-V to set the
	# exited leader's cases apart, so they are told apart here.
	export PROC_MEM_POLICY_LEVELS=force=ptrace
	rc=0
	$t >/tmp/policy 2>&1 || rc=$?
	sed 's/^/# /' /tmp/policy
	check "stock, force=ptrace: every case of the table passes but the exited leader's" \
		sh -c "grep -q '^ok ' /tmp/policy && ! grep '^not ok' /tmp/policy | grep -qv ' mem\.leader\.'"
	check "stock, force=ptrace: the tracer of a process whose leader exited gets EIO (the series fixes it)" \
		sh -c "[ $rc -ne 0 ] && grep -q '^not ok .* mem.leader.wr_text' /tmp/policy &&
			grep -q \"leader wr_text: want '+', got 'I'\" /tmp/policy"
	rc=0
	$leader >/tmp/exited-leader 2>&1 || rc=$?
	sed 's/^/# /' /tmp/exited-leader
	check "stock, force=ptrace: ${leader##*/} fails (the series' first patch fixes it)" \
		[ "$rc" -ne 0 ]
	exit $st
fi

src=build/src/linux-source-$ver applied=build/applied
[ $ver = 6.12 ] || applied=$applied-$ver
sel=$src/tools/testing/selftests
if [ ! -d $applied ] || [ ! -f "$src/Makefile" ]; then
	echo "not ok 1 - the $ver tree is patched (no $applied: run make kernels)"
	exit 1
fi
for prog in "${leader##*/}" proc-mem-policy; do
	check "the series lists $prog in selftests/proc/Makefile" \
		grep -qx "TEST_GEN_PROGS += $prog" "$sel/proc/Makefile"
	check "the series lists $prog in selftests/proc/.gitignore" \
		grep -qx "/$prog" "$sel/proc/.gitignore"
done
# The selftests' own flags, not the lab's (-std=c11 -Werror).
mkdir -p "$out"
rc=0
env -u CFLAGS -u LDFLAGS -u CC -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
	make -B -C "$sel/proc" OUTPUT="$(pwd)/$out" "$(pwd)/$t" "$(pwd)/$leader" \
	>"$out/build.log" 2>&1 || rc=$?
sed 's/^/# /' "$out/build.log"
check "$ver: proc-mem-policy and ${leader##*/} build without warnings with the selftests' Makefile" \
	sh -c "[ $rc -eq 0 ] && ! grep -q -i warning $out/build.log"
[ "$rc" -eq 0 ] || exit 1

boot() { # boot KERNEL CMDLINE GUEST-COMMAND...
	k=$1 c=$2
	shift 2
	echo "# --- $k kernel: ${c:-no parameters}: $*"
	rc=0
	lab/vm --kernel "$k" --cmdline "$c" --timeout 1500 -- "$@" || rc=$?
	if [ "$rc" -eq 3 ] && [ "$k" = debug ]; then
		echo "# boot again"
		rc=0
		lab/vm --kernel "$k" --cmdline "$c" --timeout 1500 -- "$@" || rc=$?
	fi
	[ "$rc" -eq 0 ] || st=1
}
# ptrace: the parameter that boots a kernel at force=ptrace ("" where that
# is the Kconfig default, so that the default is what is tested).
ptrace=proc_mem.force_override=ptrace stock_levels="always never"
case $ver in
6.1) stock=stock-6.1 patched=patched-6.1 others='' checked=patched-6.1 ;;
7.2) stock=debian-7.2 patched=patched-7.2 others='' checked=patched-7.2 ptrace='' stock_levels=always ;;
*) stock=stock patched=patched others="debian-6.12 debian-6.1" checked="patched debug" ;;
esac
for level in $stock_levels; do
	boot "$stock" "proc_mem.force_override=$level" env PROC_MEM_POLICY_LEVELS=force=$level "$t"
done
boot "$stock" "$ptrace" tests/kernel/kselftest.sh --stock-ptrace "$out"
# Debian's own binaries (lab/debian) are stock kernels too: the same run.
for k in $others; do
	boot "$k" proc_mem.force_override=ptrace tests/kernel/kselftest.sh --stock-ptrace "$out"
done
boot "$patched" "proc_mem.permissive=1 proc_mem.restrict_foll_force=self" \
	env PROC_MEM_POLICY_LEVELS=force=self,permissive=1 PROC_MEM_POLICY_WALK=1 "$t"
levels="proc_mem.restrict_open_read=self proc_mem.restrict_write=self proc_mem.force_override=ptrace"
# The first patch's test measures force by opening a child's mem file
# before it traces the child: it boots at force=ptrace alone, where the
# open levels let it.
for k in $checked; do
	boot "$k" "$levels" tests/reliability/guest env PROC_MEM_POLICY_LEVELS=open_read=self,write=self,force=ptrace "$t"
	boot "$k" "$ptrace" tests/reliability/guest "$leader"
done
exit $st
