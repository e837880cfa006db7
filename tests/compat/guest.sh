#!/bin/sh
# Guest side of the compatibility matrix: run every program and attack once
# under the booted kernel's policy and print one line per cell,
#   CELL <TAB> subject <TAB> value <TAB> detail
# with value works | fallback | breaks | blocked | allowed | n/a.
# Every value comes from the program's visible effect.  Usage: guest.sh BINDIR
# gdb and lldb run in one lane, everything else in a second lane beside it
# (the guest has two CPUs); the attacks run one after another, those that
# set Yama's ptrace_scope once both lanes are done.
set -eu
bin=$(cd "$1" && pwd) here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d /tmp/compat.XXXXXX)
cd "$out"
# The attacks run as nobody, who may not reach the build tree: give them a copy.
chmod 755 "$out"
cp "$bin/victim" "$out/victim"
# the policy in force, as the patched kernel reports it
p=/proc/sys/kernel/proc_mem policy=none
[ ! -d $p ] || policy=$(for o in open_read open_write write force; do printf '%s=%s ' $o "$(cat $p/$o)"; done)
# or as the BPF LSM enforcer holds it
[ ! -d /sys/fs/bpf/procmem ] ||
	policy=$("$here/../../build/procmem/procmem" enforce | sed -n 's/^\(machine\|cgroup\): */\1 /p' | tr '\n' ';')
printf 'INFO\tpolicy\t%s\nINFO\tkernel\t%s\n' "$policy" "$(uname -rv)"
cell() { printf 'CELL\t%s\t%s\t%s\n' "$1" "$2" "$(printf '%s' "$3" | tr '\t\n' '  ' | cut -c1-200)"; }
# cell from a log whose last "=> value: detail" line gives the verdict
verdict() { # SUBJECT LOG
	v=$(sed -n 's/^=> \([a-z/]*\): .*/\1/p' "$2" | tail -n 1)
	d=$(sed -n 's/^=> [a-z/]*: //p' "$2" | tail -n 1)
	[ -n "$v" ] || { v=error d=$(tail -n 3 "$2"); }
	cell "$1" "$v" "$d"
}
# the first error message in LOG, for the detail column
why() {
	for pat in 'Cannot access memory' 'Cannot insert' 'unable to' '[Ee]rror|denied|failed|refused|Warning'; do
		tr '\r' '\n' <"$1" | grep -o -m 1 -E "($pat).*" && return
	done
	echo "${2:-no error message}"
}
run() { timeout "$@" </dev/null 2>&1 || true; }
gdbx() { run 60 gdb -q -nx -batch -ex 'set debuginfod enabled off' "$@"; }

debuggers() {
# gdb: one session for the breakpoint in PIE text, const data and a watchpoint
gdbx -ex 'break compute' -ex run -ex 'printf "BP x=%d\n", x' \
	-ex 'set var *(int *)&answer = 99' -ex 'watch counter' -ex continue \
	-ex delete -ex continue "$bin/gdbtarget" >gdb.log
if grep -q '^BP x=21$' gdb.log; then cell gdb-break works "stopped in compute(x=21)"
else cell gdb-break breaks "$(why gdb.log)"; fi
if grep -q 'answer=99' gdb.log; then cell gdb-const works "program printed answer=99"
else cell gdb-const breaks "$(why gdb.log "program did not print answer=99")"; fi
if grep -q 'New value = 1' gdb.log; then cell gdb-watch works "watchpoint fired: 0 -> 1"
else cell gdb-watch breaks "$(why gdb.log)"; fi

# gdb: breakpoint set in a worker thread after the main thread has exited
gdbx -ex 'handle SIGUSR1 stop print nopass' -ex run -ex 'break work' -ex continue \
	-ex 'printf "BP n=%d\n", n' -ex continue "$bin/threads" >gdbt.log
if grep -q 'leader exited' gdbt.log && grep -q '^BP n=7$' gdbt.log &&
	grep -q 'work=14' gdbt.log; then cell gdb-thread works "worker stopped in work(n=7), leader gone"
else cell gdb-thread breaks "$(why gdbt.log)"; fi

# gdb -p: attached to a running process while its main thread lives; then
# the main thread exits (pthread_exit) and gdb sets a breakpoint in the
# worker.  The debuggee's leader waits for the file gdb creates once
# attached and reports its tracer before it exits.  The last "kill" ends a
# debuggee that a failed breakpoint left stopped: detaching from it (gdb
# 13 with the leader gone) fails an assertion and dumps core.
: >gdba.out
"$bin/threads" attach "$out/gdba.go" >gdba.out 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^ready' gdba.out && break; sleep 0.1; done
gdbx -ex 'handle SIGUSR1 stop print nopass' -ex "shell touch $out/gdba.go" -ex continue \
	-ex 'break work' -ex continue -ex 'printf "BP n=%d\n", n' -ex continue -ex kill \
	-p $pid "$bin/threads" >gdba.log
touch "$out/gdba.go"
for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
if ! grep -q '^leader: exiting, tracer=[1-9]' gdba.out; then
	cell gdb-attach-thread breaks "leader exited untraced: $(why gdba.log "$(tail -n 1 gdba.out)")"
elif grep -q 'leader exited' gdba.out && grep -q '^BP n=7$' gdba.log &&
	grep -q 'work=14' gdba.out; then cell gdb-attach-thread works "attached, leader exited, worker stopped in work(n=7)"
else cell gdb-attach-thread breaks "$(why gdba.log)"; fi

# lldb (through lldb-server): the same three
run 90 lldb -b -o 'b compute' -o run -o 'p x' -o 'expr *(int *)&answer = 99' \
	-o 'watchpoint set variable counter' -o continue "$bin/gdbtarget" >lldb.log
if grep -q '(int) [$]0 = 21' lldb.log && grep -q 'answer=99' lldb.log &&
	grep -q 'new value: 1' lldb.log; then cell lldb works "breakpoint, const write, watchpoint"
else cell lldb breaks "$(why lldb.log)"; fi

}

others() {
# gdbserver over a pipe, driven by gdb: breakpoint, const data, watchpoint
gdbx -ex "target remote | exec gdbserver - $bin/gdbtarget" -ex 'break compute' \
	-ex continue -ex 'printf "BP x=%d\n", x' -ex 'set var *(int *)&answer = 99' \
	-ex 'watch counter' -ex continue -ex delete -ex continue "$bin/gdbtarget" >gdbserver.log
if grep -q '^BP x=21$' gdbserver.log && grep -q 'answer=99' gdbserver.log &&
	grep -q 'New value = 1' gdbserver.log; then cell gdbserver works "breakpoint, const write, watchpoint"
else cell gdbserver breaks "$(why gdbserver.log)"; fi

# strace -f: decodes a string argument in a forked child
run 30 strace -f -qq -e trace=openat -o strace.log sh -c 'cat /tmp/compat-strace-probe; :' >/dev/null
if grep -q '^[0-9]* *openat(AT_FDCWD, "/tmp/compat-strace-probe"' strace.log; then
	cell strace works "decoded the child's openat path"
else cell strace breaks "$(why strace.log)"; fi

# ltrace: library call with its string argument
run 60 ltrace -e printf "$bin/gdbtarget" >ltrace.log
if grep -q 'printf("target: compute=%d' ltrace.log && grep -q 'counter=2' ltrace.log; then
	cell ltrace works "traced printf(\"target: ...\")"
else cell ltrace breaks "$(why ltrace.log)"; fi

# scanmem: finds a value in another process and changes it
"$bin/scantarget" >scan.log &
for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q value= scan.log && break; sleep 0.5; done
run 60 scanmem -p $! -e -c '324478056;set 777;exit' >scanmem.log
wait $! || true
if grep -q 'value=777' scan.log; then cell scanmem works "target saw its value become 777"
else cell scanmem breaks "$(why scanmem.log)"; fi

# criu: dump a counting process, restore it, see it count on from where it
# was.  Only when that fails does `criu check` (a minute of probes under
# TCG) tell a kernel CRIU cannot run on (n/a) from a policy that breaks it.
ip link set lo up >criu-check.log 2>&1 || true
mkdir img
# shellcheck disable=SC2016 # the inner shell expands it
setsid sh -c 'i=0; while :; do i=$((i + 1)); echo $i; sleep 0.1; done' </dev/null >count.log 2>&1 &
pid=$!
sleep 1
run 120 criu dump -t $pid -D img --shell-job >criu.log
last=$(tail -n 1 count.log)
sleep 1
dead=$(tail -n 1 count.log)
run 120 criu restore -D img --shell-job -d >>criu.log
sleep 1
now=$(tail -n 1 count.log)
kill $pid 2>/dev/null || true
if [ "$last" = "$dead" ] && [ "${now:-0}" -gt $((last + 1)) ]; then
	cell criu works "restored process counted on from $last to $now"
elif run 60 criu check >>criu-check.log && ! grep -q 'Looks good' criu-check.log; then
	# the probe that made criu give up is logged just before "... failed when initializing"
	cell criu n/a "cannot run here: $(grep -B 1 -m 1 'failed when initializing' criu-check.log | head -n 1)"
elif [ "$last" != "$dead" ]; then cell criu breaks "dump: $(why criu.log)"
else cell criu breaks "restore: $(why criu.log "counter stayed at $now")"; fi

# the JIT and the seccomp supervisor
run 30 "$bin/jit" >jit.log
verdict jit jit.log
# COMPAT_SUPERVISOR_CGROUP (measure.sh): the supervisor in that cgroup
# shellcheck disable=SC2016 # expanded by the inner shell
run 30 sh -c '[ -z "$0" ] || echo $$ >"$0/cgroup.procs"; exec "$@"' \
	"${COMPAT_SUPERVISOR_CGROUP:-}" "$bin/supervisor" >supervisor.log
verdict supervisor supervisor.log
# wineserver's pattern: the tracer of one non-leader thread, the leader
# alive, patches the target's text through /proc/PID/mem
run 30 "$bin/wineserver" >wineserver.log
verdict wineserver wineserver.log

# the attacks
run 30 sh "$here/ddexec.sh" "$bin/payload.bin" >ddexec.log
verdict attack-ddexec ddexec.log
run 30 "$bin/attack" inject "$out/victim" >inject.log
verdict attack-inject inject.log
run 30 "$bin/attack" handoff "$out/victim" >handoff.log
verdict attack-handoff handoff.log
run 30 "$bin/attack" forkedtracer >forkedtracer.log
verdict attack-forkedtracer forkedtracer.log
}

# Injection without /proc/PID/mem, by a same-uid process that is neither
# the victim's tracer nor its ancestor: process_vm_writev() into writable
# memory (a code pointer in .data, one on the stack, pointed at the
# victim's win()) and ptrace (PTRACE_SEIZE, POKETEXT of the payload over
# its text, detach), each at Yama's ptrace_scope 0 and 1, set before each
# attack and restored after it.  On a kernel without Yama (the lab's own
# builds) the scope-0 rows run as they are, with the same access check
# (the verdict says "no Yama"), and the scope-1 rows are n/a.  After both
# lanes: scope 1 would stop gdb -p in the other lane.
yama_attacks() {
y=/proc/sys/kernel/yama/ptrace_scope
was=$(cat $y 2>/dev/null || echo none)
t0=$(date +%s%N)
for a in pvwritev ptrace; do
	for s in 0 1; do
		if [ "$was" = none ] && [ $s = 0 ]; then
			run 30 "$bin/attack" $a "$out/victim" >$a-yama$s.log
		elif [ "$was" = none ]; then
			echo "=> n/a: no Yama in this kernel (no kernel.yama.ptrace_scope)" >$a-yama$s.log
		elif echo $s 2>/dev/null >$y && [ "$(cat $y)" = $s ]; then
			run 30 "$bin/attack" $a "$out/victim" >$a-yama$s.log
		else
			echo "=> error: cannot set kernel.yama.ptrace_scope=$s (it is $(cat $y))" >$a-yama$s.log
		fi
		[ "$was" = none ] || echo "$was" 2>/dev/null >$y || true
		verdict attack-$a-yama$s $a-yama$s.log
	done
done
printf 'INFO\tyama\tptrace_scope at boot: %s; its four attacks took %s ms\n' "$was" \
	$((($(date +%s%N) - t0) / 1000000))
}

debuggers >lane1.out 2>&1 &
lane1=$!
others >lane2.out 2>&1 || echo "INFO	lane2	failed: $?"
wait $lane1 || echo "INFO	lane1	failed: $?"
yama_attacks >lane3.out 2>&1 || echo "INFO	lane3	failed: $?"
cat lane1.out lane2.out lane3.out
