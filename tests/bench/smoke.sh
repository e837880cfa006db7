#!/bin/sh
# TAP: procmem-bench runs every case in one guest (a few iterations, no
# -icount) and its table renders; the real figures come from make bench.
set -eu
out=build/results/bench-smoke.txt
mkdir -p build/results
. tests/lib/tap.sh
echo "TAP version 13"
rc=0
lab/vm --timeout 60 -- tests/bench/procmem-bench run -k patched -s 1 -r 1 >"$out" 2>&1 || rc=$?
grep -qx "done" "$out" || rc=1
result $rc "procmem-bench ran in a patched guest"
[ $rc -eq 0 ] || sed 's/^/# /' "$out"
for c in $(tests/bench/procmem-bench list | cut -f1); do
	if grep -q "^skip $c " "$out"; then
		ok "case $c refused by the policy # SKIP $(grep "^skip $c " "$out")"
	else
		check "case $c measured" grep -q "^case $c " "$out"
	fi
done
check "the table of ratios renders" sh -c \
	'tests/bench/procmem-bench table "$1:$1:smoke" | grep -q "| pread 1 B (peek) | 1.000 |"' smoke "$out"
plan
exit $st
