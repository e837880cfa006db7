#!/bin/sh
# In a guest booted with proc_mem.force_override=LEVEL: gdb -batch sets a
# breakpoint, hits it and changes a const global.  Under always and ptrace
# that works (gdb is the tracer); under never gdb cannot insert the
# breakpoint and does not fall back to PTRACE_POKEDATA.  Prints one TAP line.
set -eu
. tests/lib/tap.sh
level=$1
out=$(gdb -nx -batch -ex 'break stop_here' -ex run -ex 'set var *(int *)&answer = 35' \
	-ex continue build/tests/gdb_target 2>&1) || true
case $level in
always | self | ptrace)
	want="hit the breakpoint, changed the const, result 36"
	echo "$out" | grep -q "Breakpoint 1, stop_here" &&
		echo "$out" | grep -q "^result 36$" && ok=1 || ok=0 ;;
never)
	want="could not insert the breakpoint"
	echo "$out" | grep -q "Cannot insert breakpoint" &&
		! echo "$out" | grep -q "Breakpoint 1, stop_here" && ok=1 || ok=0 ;;
esac
result $((1 - ok)) "gdb under force=$level: $want"
[ "$ok" = 1 ] || echo "$out" | sed 's/^/# /'
exit $st
