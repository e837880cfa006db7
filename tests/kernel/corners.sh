#!/bin/sh
# The series' corner-case kselftest, tools/testing/selftests/proc/
# proc-mem-corners (threads and /proc/PID/task/TID/mem, CLONE_VM and
# vfork, exec after open, io_uring, a runtime raise with a file open, a
# bare or non-boolean proc_mem.permissive, Yama): built by the selftests'
# Makefile of the patched tree (build/src after `make kernels`) into
# build/kselftest/ (build/kselftest-6.1/ with --linux 6.1), then run in
# one guest per line of the list below, at the levels where its rows
# differ.  Each run must pass (TAP: one line per boot).
#   CORNERS=PATH  run that binary instead of building one (by hand, before
#                 the patch is in the series).
# make check runs it for 6.12 (9 boots, 15-45 s each under TCG) and, from
# tests/kernel/linux-6.1 and linux-7.2, for 6.1 (4 boots) and 7.2 (5: the
# four of 6.1 on patched-7.2, and Debian's own 7.2 at always, the level
# where stock's rows are the table's; at its default, ptrace, stock fails
# the reaped thread's row, which the series' first patch fixes).
set -eu
ver=6.12 out=build/kselftest
case "${1-}" in
--linux) case "${2-}" in 6.1 | 7.2) ;; *) echo "usage: $0 [--linux 6.1|7.2]" >&2; exit 2 ;; esac
	ver=$2 out=build/kselftest-$2 ;;
esac
. tests/lib/tap.sh

t=${CORNERS-}
if [ -z "$t" ]; then
	t=$out/proc-mem-corners
	sel=build/src/linux-source-$ver/tools/testing/selftests
	if ! grep -qx 'TEST_GEN_PROGS += proc-mem-corners' "$sel/proc/Makefile" 2>/dev/null; then
		result 1 "$ver: the patched tree has proc-mem-corners (run make kernels)"
		exit 1
	fi
	mkdir -p "$out"
	rc=0
	env -u CFLAGS -u LDFLAGS -u CC -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		nice -n 19 make -B -C "$sel/proc" OUTPUT="$(pwd)/$out" "$(pwd)/$t" \
		>"$out/corners-build.log" 2>&1 || rc=$?
	sed 's/^/# /' "$out/corners-build.log"
	if [ "$rc" -eq 0 ] && ! grep -qi warning "$out/corners-build.log"; then
		result 0 "$ver: proc-mem-corners builds without warnings with the selftests' Makefile"
	else
		result 1 "$ver: proc-mem-corners builds without warnings with the selftests' Makefile"
		exit 1
	fi
fi

boot() { # boot KERNEL CMDLINE GUEST-COMMAND...
	k=$1 c=$2
	shift 2
	echo "# --- $k: ${c:-no parameters}: $*"
	rc=0
	nice -n 19 lab/vm --kernel "$k" --cmdline "$c" --timeout 900 -- "$@" >/tmp/corners.$$ 2>&1 || rc=$?
	sed 's/^/# /' /tmp/corners.$$
	if [ "$rc" -eq 125 ]; then
		# TCG under load: the guest may die before reporting (e.g. "IO-APIC + timer doesn't work").
		echo "# the guest stopped without a status: boot again"
		rc=0
		nice -n 19 lab/vm --kernel "$k" --cmdline "$c" --timeout 900 -- "$@" >/tmp/corners.$$ 2>&1 || rc=$?
		sed 's/^/# /' /tmp/corners.$$
	fi
	rm -f /tmp/corners.$$
	if [ "$rc" -eq 0 ]; then
		result 0 "$k: ${label:-${c:-no parameters}}: proc-mem-corners passes"
	else
		result 1 "$k: ${label:-${c:-no parameters}}: proc-mem-corners passes (exit $rc)"
	fi
}

p=proc_mem
case $ver in
6.1 | 7.2) k=patched-$ver ;;
*) k=patched ;;
esac
# A thread's file once the thread is reaped; the O_RDWR open counted
# against both operations in permissive mode; a bare proc_mem.permissive
# keeps the policy enforced.
boot "$k" "$p.restrict_write=self $p.restrict_foll_force=ptrace" "$t"
boot "$k" "$p.permissive=1 $p.restrict_open_read=self $p.restrict_open_write=self $p.restrict_write=ptrace $p.restrict_foll_force=never" "$t"
boot "$k" "$p.restrict_open_read=never $p.permissive" "$t"
# Raises every level to self: the rest of that boot runs at self.
boot "$k" "" env PROC_MEM_CORNERS_RAISE=1 "$t"
if [ $ver = 6.12 ]; then
	boot "$k" "$p.restrict_open_read=self $p.restrict_open_write=ptrace" "$t"
	boot "$k" "$p.permissive=maybe $p.restrict_write=never $p.restrict_foll_force=never" "$t"
	boot "$k" "$p.force_override=self $p.restrict_write=ptrace $p.restrict_open_write=never" "$t"
	# Debian's own kernel (stock, force at always) has io_uring and Yama.
	boot debian-6.12 "" "$t"
	label="kernel.yama.ptrace_scope=3" boot debian-6.12 "" sh -c "echo 3 >/proc/sys/kernel/yama/ptrace_scope && $t"
fi
if [ $ver = 7.2 ]; then
	boot debian-7.2 "$p.force_override=always" "$t"
fi
exit $st
