#!/bin/sh
# TAP: make demo's enforcer step (tools/procmem/demo-enforce.sh) shows
# what it says it shows, on Debian's own 6.12 kernel: the enforcer says
# enforcing, gdb attaches and stops at its breakpoint, the same-uid
# injection is blocked, watch attributes that denial to the attacker and
# its victim, and status measures write=ptrace from the enforcer.
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
tools/procmem/demo-enforce.sh >"$out" 2>&1 || rc=$?
n=0 st=0
expect() { # DESCRIPTION EXTENDED-REGEX
	n=$((n + 1))
	if grep -Eq "$2" "$out"; then echo "ok $n - demo-enforce: $1"
	else echo "not ok $n - demo-enforce: $1"; st=1; fi
}
n=$((n + 1))
if [ "$rc" -eq 0 ]; then echo "ok $n - demo-enforce exits 0"
else echo "not ok $n - demo-enforce exits 0 (got $rc)"; st=1; fi
expect "the enforcer says enforcing write=ptrace" '^procmem: enforcing .*write=ptrace'
expect "gdb attached and stopped at its breakpoint" '^Breakpoint 1, tick \(\)'
expect "the same-uid injection is blocked" '^=> blocked: write: Permission denied'
expect "watch attributes the denial to the attacker and its victim" \
	'write +ptrace +denied +pid [0-9]+ uid 65534 comm attack .* comm victim tracer 0'
expect "status measures write=ptrace, set by the enforcer" '^write +ptrace +bpf +ptrace '
[ "$st" -eq 0 ] || sed 's/^/# /' "$out"
echo "1..$n"
exit $st
