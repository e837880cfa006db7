#!/bin/sh
# TAP checks of lab/vm itself: status and directory pass through, bad input
# and a hung guest give clear errors and non-zero exits, no QEMU is left.
# Each lab kernel of make check boots once, runs the kernel asked for and
# has every CPU of lab/vm's -smp online (2; before CONFIG_ACPI our
# kernels saw only the boot CPU, and every race test ran on one); a guest
# with fewer fails with 123 and runs nothing (Debian's kernels: debian.sh).
set -eu
vm=lab/vm
. tests/lib/tap.sh
output_has() { # output_has DESCRIPTION PATTERN CMD...: CMD prints PATTERN
	_d=$1 _p=$2
	shift 2
	if "$@" 2>&1 | grep -q -- "$_p"; then ok "$_d"; else not_ok "$_d (no '$_p' in output)"; fi
}
mkdir -p build/results
echo "TAP version 13"
echo "1..$((8 + 2 * 8 + 4))"
status_is "guest exit status 0 comes back" 0 $vm --kernel stock -- true
status_is "guest exit status 42 comes back" 42 $vm --kernel stock -- sh -c 'exit 42'
output_has "guest runs in the caller's directory" "^$PWD\$" $vm --kernel stock -- pwd
out=build/results/lab-runner.out
for k in stock upstream patched debug stock-6.1 patched-6.1 upstream-7.2 patched-7.2; do
	case $k in *-6.1) v=6.1 ;; *-7.2) v=7.2 ;; *) v=6.12 ;; esac
	rc=0
	$vm --kernel $k -- sh -c 'uname -r; nproc' >$out 2>&1 || rc=$?
	sed 's/^/# /' $out
	ok=0
	[ $rc = 0 ] && sed -n 1p $out | grep -q "^$v\." && ok=1
	result $((1 - ok)) "$k: the guest runs a $v kernel"
	is "$k: the guest has the 2 CPUs lab/vm gives it" "$(sed -n 2p $out)" 2
done
# The check fires: the second CPU kept offline; and one CPU when asked.
rc=0
$vm --kernel stock --cmdline maxcpus=1 -- echo command ran >$out 2>&1 || rc=$?
sed 's/^/# /' $out
is "a guest with fewer CPUs online than -smp fails with 123 (maxcpus=1)" $rc 123
ok=0
[ "$(wc -l <$out)" = 1 ] && grep -q '^lab/vm: the guest came up with 1 CPU(s) online (0) of the 2 asked for' $out && ok=1
result $((1 - ok)) "... in one line saying so, without running the command"
is "--smp 1 gives the guest one CPU" "$($vm --kernel stock --smp 1 -- nproc 2>&1)" 1
status_is "-smp in --qemu is refused (--smp is the one count)" 2 $vm --kernel stock --qemu '-smp 1' -- true
status_is "unknown kernel is refused" 2 $vm --kernel no-such-kernel -- true
status_is "missing command is refused" 2 $vm --kernel stock
status_is "bad timeout is refused" 2 $vm --kernel stock --timeout soon -- true
mark=labtest.hang=$$
status_is "a hung guest times out with 124" 124 $vm --kernel stock --cmdline "$mark" --timeout 6 -- sleep 600
# (pgrep here: in a child, the child's own command line would match)
if pgrep -f "$mark" >/dev/null; then not_ok "no QEMU process is left behind"; else ok "no QEMU process is left behind"; fi
exit $st
