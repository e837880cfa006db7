#!/bin/sh
# TAP: every step of make demo (the Makefile's DEMOS, passed in the
# environment) is an executable file of the tree.  A step that was never
# committed stopped make demo once, unseen by make check.
set -eu
n=0 st=0
echo "TAP version 13"
for d in ${DEMOS:?run by make check}; do
	n=$((n + 1))
	if [ -f "$d" ] && [ -x "$d" ] && git ls-files --error-unmatch "$d" >/dev/null 2>&1; then
		echo "ok $n - make demo step $d is a committed executable"
	else
		echo "not ok $n - make demo step $d is a committed executable"
		st=1
	fi
done
echo "1..$n"
exit $st
