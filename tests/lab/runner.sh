#!/bin/sh
# TAP checks of lab/vm itself: status and directory pass through, bad input
# and a hung guest give clear errors and non-zero exits, no QEMU is left.
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
echo "1..9"
status_is "guest exit status 0 comes back" 0 $vm --kernel stock -- true
status_is "guest exit status 42 comes back" 42 $vm --kernel stock -- sh -c 'exit 42'
output_has "guest runs in the caller's directory" "^$PWD\$" $vm --kernel stock -- pwd
output_has "guest runs the requested kernel" "^6\.12\." $vm --kernel stock -- uname -r
status_is "unknown kernel is refused" 2 $vm --kernel no-such-kernel -- true
status_is "missing command is refused" 2 $vm --kernel stock
status_is "bad timeout is refused" 2 $vm --kernel stock --timeout soon -- true
mark=labtest.hang=$$
status_is "a hung guest times out with 124" 124 $vm --kernel stock --cmdline "$mark" --timeout 6 -- sleep 600
# (pgrep here: in a child, the child's own command line would match)
if pgrep -f "$mark" >/dev/null; then not_ok "no QEMU process is left behind"; else ok "no QEMU process is left behind"; fi
exit $st
