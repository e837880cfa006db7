#!/bin/sh
# TAP: procmem's JSON documents against the ones the tool printed before
# it moved to json-c (tests/procmem/json/, recorded from commit 96b791a^,
# the last with the hand-written emitter).  Each runs in a PID namespace
# of its own, so no other process is in use.  advise's documents depend
# only on the records, profiles and programs given here and on the
# matrix: they must be equal as JSON and in key order, and exit as
# recorded (json/exits), apart from what changed on purpose since, listed
# once in normalise() below:
#   - advise's own exit codes 4 and 5 became 11 and 12 (one meaning each);
#   - status's "lacks" entries now name the remedy.
# advise reads a fixed matrix (json/compat-matrix.json, through
# PROCMEM_MATRIX: the one these documents agree with, before the 7.x
# rows and columns): a row added to the matrix is data, not the tool.
# What the machine decides (kernel release, the matrix's path, which
# programs are installed) is set aside on both sides; status and scan,
# whose values are the machine's, must keep their keys and their order.
#
#   tests/procmem/json.sh                 compare build/procmem/procmem
#   tests/procmem/json.sh --record BIN    write tests/procmem/json/ from BIN
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
pm=build/procmem/procmem exp=tests/procmem/json d=build/results/procmem-json
record=
case ${1:-} in
--record) [ $# -eq 2 ] || { echo "usage: $0 [--record OLD-PROCMEM]" >&2; exit 2; }; record=$2 ;;
'') ;;
*) echo "usage: $0 [--record OLD-PROCMEM]" >&2; exit 2 ;;
esac
[ -x $pm ] || { echo "not ok 1 - $pm is not built (make $pm)"; exit 1; }
mkdir -p $d
[ -z "$record" ] || rm -f $exp/exits

# The records: tracepoint lines (v2's format) and procmem watch --json lines.
tp() { echo "  $1-$2 [001] ..... 12.345678: proc_mem_deny: op=$3 level=never permissive=1 target_pid=$4 target_comm=victim pid=$2 uid=0 comm=$1 tracer=$5"; }
wj() { echo "{\"time\": \"2026-12-04T10:00:00.000000Z\", \"op\": \"$3\", \"level\": \"never\", \"verdict\": \"would-deny\", \"permissive\": 1, \"pid\": $2, \"tid\": $2, \"uid\": 0, \"comm\": \"$1\", \"cgroup\": 1, \"scope\": 0, \"target_pid\": $4, \"target_tid\": $4, \"target_comm\": \"victim\", \"tracer\": $5}"; }
{ tp gdbserver 10 open_read 11 1; tp gdbserver 10 write 11 1; wj gdbserver 10 force 11 true; } >$d/gdbserver.records
{ tp foo 20 open_read 21 0; wj foo 20 write 21 false; echo '{"dropped": {"denied": 2, "would-deny": 3, "allowed": 0}, "limited": {"denied": 1, "would-deny": 0}, "before_start": false}'; } >$d/foo.records
{ tp 'my tool' 30 force 30 0; echo 'garbage proc_mem_deny: nothing'; echo '{"op": "write", "comm": "q\"uo\\te\u00e9/x", "pid": 5, "target_pid": 6, "tracer": 0}'; echo '{bad json'; } >$d/self.records
i=0; while [ $i -lt 80 ]; do i=$((i + 1)); tp "c$i" "$i" write 9999 0; done >$d/many.records

normalise() { # FILE: the document with what the machine decides set aside
	python3 - "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
if doc.get("command") == "advise":
    doc.pop("kernel", None)
    doc.pop("matrix", None)
    doc["exit"] = {4: 11, 5: 12}.get(doc["exit"], doc["exit"])
    for s in doc.get("seen", []):
        s["installed"] = bool(s.get("installed"))
        for k in ("running_pid", "listener_pid", "holder_pid"):
            s[k] = 0
else:
    doc = list(doc)
print(json.dumps(doc, indent=1))
PY
}

# CMD... in a PID namespace of its own, with its own /proc: the programs
# other tests run meanwhile (a sleep, a debugger) are not "in use" here.
alone() { PROCMEM_MATRIX=$exp/compat-matrix.json unshare --pid --fork --mount-proc "$@"; }

doc() { # NAME ARGS...: one document, equal to the recorded one
	name=$1; shift
	rc=0
	if [ -n "$record" ]; then
		alone "$record" "$@" >$exp/$name.json 2>/dev/null || rc=$?
		echo "$name $rc" >>$exp/exits
		return
	fi
	alone "$pm" "$@" >$d/$name.json 2>$d/$name.err || rc=$?
	want=$(awk -v n="$name" '$1 == n { print $2 }' $exp/exits)
	case $want in 4) want=11 ;; 5) want=12 ;; esac
	if normalise $exp/$name.json >$d/$name.want && normalise $d/$name.json >$d/$name.got &&
		cmp -s $d/$name.want $d/$name.got && [ "$rc" = "$want" ]; then
		result 0 "procmem $*: the document recorded before json-c, exit $want"
	else
		result 1 "procmem $*: the document recorded before json-c, exit $want (exit $rc)"
		diff -u $d/$name.want $d/$name.got | head -n 20 | sed 's/^/# /'
	fi
}
doc status status --json
doc scan scan --json
doc advise-none advise --json
doc advise-gdbserver advise --json --records $d/gdbserver.records
doc advise-foo advise --json --records $d/foo.records
doc advise-self advise --json --records $d/self.records
doc advise-many advise --json --records $d/many.records --records $d/foo.records
doc advise-server advise --json --profile server
doc advise-desktop advise --json --profile desktop --installed
doc advise-program advise --json --program pm-json-absent=criu --records $d/foo.records
doc advise-appliance advise --json --profile appliance --program foo=criu --records $d/foo.records
[ -n "$record" ] && exit 0
echo "1..$n"
exit $st
