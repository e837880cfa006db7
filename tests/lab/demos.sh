#!/bin/sh
# TAP: every step of make demo (the Makefile's DEMOS, passed in the
# environment) is an executable file of the tree.  A step that was never
# committed stopped make demo once, unseen by make check.  The same of
# make check's drivers (CHECKS): each is a test directory's run
# (tests/DIR/run, or tests/DIR/run:PART), and every part of a run with
# parts (tests/lib/parts.sh) is a driver of make check, none forgotten.
set -eu
. tests/lib/tap.sh
echo "TAP version 13"
committed() { [ -f "$1" ] && [ -x "$1" ] && git ls-files --error-unmatch "$1" >/dev/null 2>&1; }
is_run() { case $1 in tests/*/run) committed "$1" ;; *) return 1 ;; esac; }
for d in ${DEMOS:?run by make check}; do
	check "make demo step $d is a committed executable" committed "$d"
done
for c in ${CHECKS:?run by make check}; do
	r=${c%%:*}
	check "make check driver $c is a test directory's run, a committed executable" \
		is_run "$r"
	case $c in *:*) check "$r has the part ${c#*:}" sh -c '"$1" --list | grep -qx "$2"' - "$r" "${c#*:}" ;; esac
done
for r in tests/*/run; do
	grep -q '^\. tests/lib/parts\.sh' "$r" || continue
	for p in $("$r" --list); do
		case " $CHECKS " in
		*" $r:$p "*) ok "part $p of $r is a driver of make check" ;;
		*) not_ok "part $p of $r is a driver of make check" ;;
		esac
	done
done
plan
exit $st
