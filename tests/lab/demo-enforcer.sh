#!/bin/sh
# make demo: the BPF LSM enforcer on Debian's own 6.12 kernel (no kernel
# of ours).  One guest: `procmem enforce --write=ptrace`; `procmem watch`
# in the background; gdb attaches to a running process and stops it at
# a breakpoint (gdb writes as the process's tracer: allowed); the
# matrix's same-uid injection (tests/compat/attack.c: a process of the
# same uid that does not trace the victim writes code over the victim's
# text through /proc/PID/mem) is refused; watch's attributed denial;
# `procmem status` with the policy it measured.
#
#   tests/lab/demo-enforcer.sh            boot the guest, run the rest
#   tests/lab/demo-enforcer.sh --guest    (inside the guest)
set -eu
cd "$(dirname "$0")/../.."
if [ "${1:-}" != --guest ]; then
	echo "=== procmem enforce on Debian's 6.12 kernel (BPF LSM, no kernel patch)"
	exec lab/vm --kernel debian-6.12 --timeout 300 -- "$0" --guest
fi

pm=$(pwd)/build/procmem/procmem bin=$(pwd)/build/compat
say() { printf '\n$ %s\n' "$*"; }
tmp=$(mktemp -d /tmp/demo.XXXXXX)
chmod 755 "$tmp"
cp "$bin/victim" "$tmp/victim" # the attack runs as nobody

say procmem enforce --write=ptrace
"$pm" enforce --write=ptrace

say "procmem watch &"
"$pm" watch >"$tmp/watch.log" 2>&1 &
watch=$!

say "gdb -p PID   # attach to a running process, break in tick(), print"
"$tmp/victim" 60 >/dev/null 2>&1 &
target=$!
sleep 1
timeout 60 gdb -q -nx -batch -ex 'set debuginfod enabled off' -p "$target" \
	-ex 'break tick' -ex continue \
	-ex 'printf "stopped in tick() after %lu ticks\n", (unsigned long)ticks' \
	-ex kill 2>&1 </dev/null | grep -E '^(Breakpoint 1,|stopped|Cannot|Warning)' || true

say "attack inject VICTIM   # same uid, not its tracer, writes over its code"
timeout 30 "$bin/attack" inject "$tmp/victim" 2>&1 </dev/null | tail -n 2 || true

sleep 1
kill "$watch" 2>/dev/null || true
wait "$watch" 2>/dev/null || true
say "procmem watch   # what it printed"
echo "# (a denial of gdb writing its own /proc/self/mem is gdb probing whether"
echo "#  mem is writable; at write=ptrace it then writes through ptrace)"
cat "$tmp/watch.log"

say procmem status
"$pm" status || true
rm -rf "$tmp"
