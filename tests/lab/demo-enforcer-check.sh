#!/bin/sh
# TAP: make demo's enforcer step (tests/lab/demo-enforcer.sh) shows
# what it says it shows, on Debian's own 6.12 kernel: the enforcer says
# enforcing, gdb attaches and stops at its breakpoint, the same-uid
# injection is blocked, watch attributes that denial to the attacker and
# its victim, and status measures write=ptrace from the enforcer.
set -eu
. tests/lib/tap.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
tests/lab/demo-enforcer.sh >"$out" 2>&1 || rc=$?
result "$rc" "demo-enforce exits 0"
check "the enforcer says enforcing write=ptrace" grep -Eq '^procmem: enforcing .*write=ptrace' "$out"
check "gdb attached and stopped at its breakpoint" grep -Eq '^Breakpoint 1, tick \(\)' "$out"
check "the same-uid injection is blocked" grep -Eq '^=> blocked: write: Permission denied' "$out"
check "watch attributes the denial to the attacker and its victim" grep -Eq \
	'write +ptrace +denied +pid [0-9]+ uid 65534 comm attack .* comm victim tracer 0' "$out"
check "status measures write=ptrace, set by the enforcer" grep -Eq '^write +ptrace +bpf +ptrace ' "$out"
[ "$st" -eq 0 ] || sed 's/^/# /' "$out"
echo "1..$n"
exit $st
