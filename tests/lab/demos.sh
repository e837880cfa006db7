#!/bin/sh
# TAP: every step of make demo (the Makefile's DEMOS, passed in the
# environment) is an executable file of the tree.  A step that was never
# committed stopped make demo once, unseen by make check.
set -eu
. tests/lib/tap.sh
echo "TAP version 13"
for d in ${DEMOS:?run by make check}; do
	check "make demo step $d is a committed executable" \
		sh -c '[ -f "$1" ] && [ -x "$1" ] && git ls-files --error-unmatch "$1" >/dev/null 2>&1' demo "$d"
done
plan
exit $st
