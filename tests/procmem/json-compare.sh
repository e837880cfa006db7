#!/bin/sh
# tests/procmem/json-compare.sh OLD NEW: the JSON documents of two procmem
# binaries on the same inputs (status, scan with a holder this script
# starts, advise on records of both formats, profiles, --program), equal
# as JSON and in top-level key order.  Not a make check driver: it needs
# an old binary (git worktree add at the old commit, make build/procmem/procmem).
# Used to show that moving to json-c changed no document; exit 1 if one did.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD-PROCMEM NEW-PROCMEM" >&2; exit 2; }
old=$1 new=$2 d=build/results/json-compare; mkdir -p $d; fail=0
tp() { echo "  $1-$2 [001] ..... 12.345678: proc_mem_deny: op=$3 level=never permissive=1 target_pid=$4 target_comm=victim pid=$2 uid=0 comm=$1 tracer=$5"; }
wj() { echo "{\"time\": \"2026-12-04T10:00:00.000000Z\", \"op\": \"$3\", \"level\": \"never\", \"verdict\": \"would-deny\", \"permissive\": 1, \"pid\": $2, \"tid\": $2, \"uid\": 0, \"comm\": \"$1\", \"cgroup\": 1, \"scope\": 0, \"target_pid\": $4, \"target_tid\": $4, \"target_comm\": \"victim\", \"tracer\": $5}"; }
{ tp gdbserver 10 open_read 11 1; tp gdbserver 10 write 11 1; wj gdbserver 10 force 11 true; } >$d/gdbserver.records
{ tp foo 20 open_read 21 0; wj foo 20 write 21 false; echo '{"dropped": {"denied": 2, "would-deny": 3, "allowed": 0}, "limited": {"denied": 1, "would-deny": 0}, "before_start": false}'; } >$d/foo.records
{ tp 'my tool' 30 force 30 0; echo 'garbage proc_mem_deny: nothing'; echo '{"op": "write", "comm": "q\"uo\\te\u00e9/x", "pid": 5, "target_pid": 6, "tracer": 0}'; echo '{bad json'; } >$d/self.records
i=0; while [ $i -lt 80 ]; do i=$((i + 1)); tp "c$i" "$i" write 9999 0; done >$d/many.records
sleep 300 & target=$!
sh -c 'exec 3</proc/$1/mem 4<>/proc/$1/mem; exec sleep 300' holder "$target" & holder=$!
sleep 0.5
n=0
run() { # NAME ARGS...
	name=$1; shift
	"$old" "$@" >$d/$name.old 2>$d/$name.old.err; echo "exit $?" >>$d/$name.old.err
	"$new" "$@" >$d/$name.new 2>$d/$name.new.err; echo "exit $?" >>$d/$name.new.err
	python3 - "$d/$name.old" "$d/$name.new" "$name" "$holder" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
def strip(d):
    # the probes' "how" names pids of the probes' own children
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in ("how",)}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d
if a.get("command") == "scan":
    # other processes on this shared machine come and go: our holder only
    for d in (a, b):
        d["holders"] = [h for h in d["holders"] if h["pid"] == int(sys.argv[4])]
        d.pop("scanned"); d.pop("exited_during_scan")
if a.get("command") == "advise":
    # advise's own exit codes moved from 4, 5 to 11, 12 (one meaning each)
    a["exit"] = {4: 11, 5: 12}.get(a["exit"], a["exit"])
same = strip(a) == strip(b)
order = list(a) == list(b)
print(("same" if same else "DIFFERENT"), "key order", "same" if order else "differs", "-", sys.argv[3])
sys.exit(0 if same and order else 1)
if not same:
    print(json.dumps(strip(a), sort_keys=True)[:3000]); print(json.dumps(strip(b), sort_keys=True)[:3000])
PY
	[ $? -eq 0 ] || fail=1
	cmp -s $d/$name.old.err $d/$name.new.err || { echo "  stderr/exit differ:"; cat $d/$name.old.err $d/$name.new.err | sed 's/^/    /'; }
}
run scan scan --json
run status status --json
run advise-none advise --json
run advise-gdbserver advise --json --records $d/gdbserver.records
run advise-foo advise --json --records $d/foo.records
run advise-self advise --json --records $d/self.records
run advise-many advise --json --records $d/many.records --records $d/foo.records
run advise-server advise --json --profile server
run advise-desktop advise --json --profile desktop --installed
run advise-program advise --json --program sleep=criu --records $d/foo.records
run advise-appliance advise --json --profile appliance --program foo=criu --records $d/foo.records
kill $holder $target
exit $fail
