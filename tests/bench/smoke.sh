#!/bin/sh
# TAP: procmem-bench runs every case in one guest (a few iterations, no
# -icount) and its table renders; the real figures come from make bench.
set -eu
out=build/results/bench-smoke.txt
mkdir -p build/results
echo "TAP version 13"
n=$(tests/bench/procmem-bench list | wc -l)
echo "1..$((n + 2))"
if lab/vm --timeout 60 -- tests/bench/procmem-bench run -k patched -s 1 -r 1 >"$out" 2>&1 &&
	grep -qx "done" "$out"; then
	echo "ok 1 - procmem-bench ran in a patched guest"
else
	echo "not ok 1 - procmem-bench ran in a patched guest"
	sed 's/^/# /' "$out"
fi
i=1
for c in $(tests/bench/procmem-bench list | cut -f1); do
	i=$((i + 1))
	if grep -q "^case $c " "$out"; then
		echo "ok $i - case $c measured"
	elif grep -q "^skip $c " "$out"; then
		echo "ok $i - case $c refused by the policy # SKIP $(grep "^skip $c " "$out")"
	else
		echo "not ok $i - case $c measured"
	fi
done
i=$((i + 1))
if tests/bench/procmem-bench table "$out:$out:smoke" | grep -q '| pread 1 B (peek) | 1.000 |'; then
	echo "ok $i - the table of ratios renders"
else
	echo "not ok $i - the table of ratios renders"
fi
