#!/bin/sh
# TAP checks of lab/vm itself: status and directory pass through, bad input
# and a hung guest give clear errors and non-zero exits, no QEMU is left.
set -eu
vm=lab/vm
n=0
check() { # check DESCRIPTION EXPECTED-STATUS CMD...
	desc=$1 want=$2
	shift 2
	n=$((n + 1))
	got=0
	"$@" >build/results/runner.out 2>&1 || got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (exit $got, want $want)"
		sed 's/^/# /' build/results/runner.out
	fi
}
check_output() { # check_output DESCRIPTION PATTERN CMD...
	desc=$1 pat=$2
	shift 2
	n=$((n + 1))
	if "$@" 2>&1 | grep -q -- "$pat"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (no '$pat' in output)"
	fi
}
mkdir -p build/results
echo "TAP version 13"
echo "1..9"
check "guest exit status 0 comes back" 0 $vm --kernel stock -- true
check "guest exit status 42 comes back" 42 $vm --kernel stock -- sh -c 'exit 42'
check_output "guest runs in the caller's directory" "^$PWD\$" $vm --kernel stock -- pwd
check_output "guest runs the requested kernel" "^6\.12\." $vm --kernel stock -- uname -r
check "unknown kernel is refused" 2 $vm --kernel no-such-kernel -- true
check "missing command is refused" 2 $vm --kernel stock
check "bad timeout is refused" 2 $vm --kernel stock --timeout soon -- true
mark=labtest.hang=$$
check "a hung guest times out with 124" 124 $vm --kernel stock --cmdline "$mark" --timeout 6 -- sleep 600
n=$((n + 1))
if pgrep -f "$mark" >/dev/null; then
	echo "not ok $n - no QEMU process is left behind"
else
	echo "ok $n - no QEMU process is left behind"
fi
