#!/bin/sh
# TAP checks of procmem advise.
#
# In the lab, on the patched kernel (permissive mode, every operation at
# never) and on Debian's 6.12 with the BPF LSM enforcer (permissive, at
# never): each scenario below runs its programs while procmem advise
# --observe watches, and the advice must be the row's levels, which are
# what docs/compat-matrix.json says is safe for that mix:
#   gdbserver (driven by gdb): gdbserver breaks at never for open_read,
#     open_write, write and force, works at ptrace;
#   the seccomp supervisor (with a process holding a listener): breaks at
#     any restriction of open_read, open_write, write; force does not
#     touch it;
#   the JIT: works everywhere (through its memfd fallback);
#   nothing: every operation at never;
#   gdb on a program whose main thread exits (on Debian's 7.2, at its
#     default force=ptrace, upstream's since 7.1, where it breaks): force
#     back at always, the rest at never (gdb falls back to ptrace when
#     its mem file is refused), and the note naming the alternative the
#     matrix measured there, force=always with the enforcer's
#     write=ptrace; after the advice is applied gdb works.
# Then the guest boots again per distinct advice, applies its lines
# (kernel command line, sysctl.d lines or enforce.conf line), reruns the
# programs, which must all work, and the matrix's attacks, which must be
# blocked exactly where advise says the matrix blocks them.
# On the host: command line, records files, exit codes, profiles, JSON.
# The two kernels' guests run side by side; TAP lines are numbered at the
# end.  PROCMEM_ADVISE_KERNELS: a subset of the table's kernels (or none).
set -eu
cd "$(dirname "$0")/../.."
pm=build/procmem/procmem
out=build/results/procmem-advise
mkdir -p "$out"
TAP_NUMBER=0
. tests/lib/tap.sh
if [ -z "${PROCMEM_ADVISE_INNER:-}" ]; then
	rc=0
	{ PROCMEM_ADVISE_INNER=1 sh "$0" || not_ok "tests/procmem/advise.sh exited $?"; } |
		awk '/^(not )?ok - / { n++; sub(/ok - /, "ok " n " - ") } { print } END { print "1.." n }'
	exit 0
fi

# kernel       scenario    open_read open_write write  force
table='
patched      nothing     never     never      never  never
patched      gdbserver   ptrace    ptrace     ptrace ptrace
patched      supervisor  always    always     always never
patched      jit         never     never      never  never
debian-6.12  nothing     never     never      never  never
debian-6.12  gdbserver   ptrace    ptrace     ptrace ptrace
debian-6.12  supervisor  always    always     always never
debian-6.12  jit         never     never      never  never
debian-7.2   gdbthread   never     never      never  always
'

# jq-less JSON access: json FILE EXPR (a Python expression on d)
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
split() { # FILE DIR: the guest's "@@@ NAME" sections into DIR/NAME
	awk -v dir="$2" '/^@@@ / { f = dir "/" $2; printf "" > f; next } f { print >> f }' "$1"
}

echo "TAP version 13"
for b in $pm build/procmem/listener build/compat/supervisor build/compat/jit \
	build/compat/attack build/compat/victim build/compat/payload.bin build/compat/gdbtarget \
	build/compat/threads; do
	[ -e "$b" ] || { not_ok "$b is not built (make $b)"; exit 0; }
done

# ---- host: command line, records files, exit codes, profiles ----
status_is "unknown option is a usage error" 2 $pm advise --frob
status_is "usage errors are one line naming the option" 0 \
	sh -c "[ \"\$($pm advise --frob 2>&1 >/dev/null)\" = \"procmem: advise: unknown option '--frob' (procmem advise --help)\" ]"
status_is "--observe 0 is a usage error" 2 $pm advise --observe 0
status_is "--observe soon is a usage error" 2 $pm advise --observe soon
status_is "an unknown profile is a usage error" 2 $pm advise --profile laptop
status_is "--program without = is a usage error" 2 $pm advise --program julia
status_is "--program naming no matrix subject is a usage error" 2 $pm advise --program foo=nosuch
status_is "a missing matrix: exit 3" 3 $pm advise --matrix /nonexistent/compat-matrix.json
printf '{"configs": [' >"$out/bad.json"
status_is "a matrix that is not JSON: exit 3" 3 $pm advise --matrix "$out/bad.json"
is "... with one line saying where" \
	"$($pm advise --matrix "$out/bad.json" 2>&1 >/dev/null | sed "s|$out/||")" \
	"procmem: advise: bad.json: not JSON: unexpected end at byte 13"
echo '{"configs": []}' >"$out/bad.json"
status_is "JSON that is not the matrix: exit 3" 3 $pm advise --matrix $out/bad.json
status_is "missing records file: exit 3" 3 $pm advise --records /nonexistent/records

# Records of both formats: the tracepoint's and procmem watch --json's.
tp() { # COMM PID OP TARGET TRACER
	echo "  $1-$2 [001] ..... 12.345678: proc_mem_deny: op=$3 level=never permissive=1 target_pid=$4 target_comm=victim pid=$2 uid=0 comm=$1 tracer=$5"
}
wj() { # COMM PID OP TARGET TRACER
	echo "{\"time\": \"2026-12-04T10:00:00.000000Z\", \"op\": \"$3\", \"level\": \"never\", \"verdict\": \"would-deny\", \"permissive\": 1, \"pid\": $2, \"tid\": $2, \"uid\": 0, \"comm\": \"$1\", \"cgroup\": 1, \"scope\": 0, \"target_pid\": $4, \"target_tid\": $4, \"target_comm\": \"victim\", \"tracer\": $5}"
}
{ tp gdbserver 10 open_read 11 1; tp gdbserver 10 write 11 1; wj gdbserver 10 force 11 true; } >"$out/gdbserver.records"
{ tp foo 20 open_read 21 0; wj foo 20 write 21 false; } >"$out/foo.records"
{ tp 'my tool' 30 force 30 0; echo 'garbage proc_mem_deny: nothing'; } >"$out/self.records"
$pm advise --json --records "$out/gdbserver.records" >"$out/host-gdbserver.json" || true
is "records of both formats: gdbserver's three counted" \
	"$(json "$out/host-gdbserver.json" 'd["observed"]["records"]')" 3
is "gdbserver as the tracer: the advice is ptrace for every operation (host $(uname -r))" \
	"$(json "$out/host-gdbserver.json" '" ".join(v["advice"] for v in d["operations"].values())')" \
	"ptrace ptrace ptrace ptrace"
$pm advise --json --records "$out/foo.records" >"$out/host-foo.json" || true
is "a program not in the matrix writing another process: open_read, open_write (implied by the write), write stay always" \
	"$(json "$out/host-foo.json" '" ".join(v["advice"] for v in d["operations"].values())')" \
	"always always always never"
is "... and the reason names it" \
	"$(json "$out/host-foo.json" 'd["operations"]["write"]["levels"]["self"]["breaks"][0]["who"]')" foo
$pm advise --json --records "$out/self.records" >"$out/host-self.json" || true
is "a comm with a space is read whole, an unparsable line counted" \
	"$(json "$out/host-self.json" '[s["name"] for s in d["seen"] if s["in_use"]], d["observed"]["unparsed"]')" \
	"(['my tool'], 1)"
# More commands than advise keeps apart: the rest share one entry, no
# record is lost.
i=0
while [ $i -lt 80 ]; do
	i=$((i + 1))
	tp "c$i" "$i" write 9999 0
done >"$out/many.records"
$pm advise --json --records "$out/many.records" >"$out/host-many.json" || true
is "80 commands: every record counted, the advice keeps write at always" \
	"$(json "$out/host-many.json" 'd["observed"]["records"], d["operations"]["write"]["advice"]')" "(80, 'always')"
# A holder of another process's mem file, not its tracer (as procmem
# scan finds it): open_read, open_write and write must stay always.
sleep 300 &
target=$!
# shellcheck disable=SC2016 # $1 is the inner shell's
sh -c 'exec 4<>/proc/$1/mem; exec sleep 300' holder "$target" &
holder=$!
trap 'kill "$holder" "$target" 2>/dev/null || true' EXIT
i=0
while [ "$(cat /proc/$holder/comm)" != sleep ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
$pm advise --json >"$out/host-holder.json" || true
kill "$holder" "$target"
is "a process holding another's mem file rw is seen, and open_read, open_write, write stay always" \
	"$(json "$out/host-holder.json" '[s["holder_pid"] for s in d["seen"] if s["name"] == "sleep"], " ".join(v["advice"] for o, v in d["operations"].items() if o != "force")')" \
	"([$holder], 'always always always')" "$out/host-holder.json"
status_is "advise --json is valid JSON" 0 sh -c "$pm advise --json | python3 -m json.tool"
# Exit codes: the host runs every operation at always (stock kernel, no
# enforcer): records needing always give 0; needing nothing, 1.
{ tp foo 20 open_read 21 0; tp foo 20 write 21 0; tp foo 20 force 21 0; } >"$out/always.records"
if [ "$(cat /proc/sys/kernel/proc_mem/force 2>/dev/null || echo always)" = always ] &&
	! grep -q proc_mem.force_override= /proc/cmdline && [ ! -d /sys/fs/bpf/procmem ]; then
	status_is "exit 0: the machine runs at the advice" 0 $pm advise --records "$out/always.records"
else
	ok "exit 0: the machine runs at the advice # SKIP the host restricts /proc/PID/mem"
fi
status_is "exit 1: it could tighten" 1 $pm advise
status_is "exit 12: the profile would break something seen here (appliance, gdbserver)" 12 \
	$pm advise --profile appliance --records "$out/gdbserver.records"
$pm advise --json --profile server >"$out/host-server.json" || true
is "--profile server: write=ptrace, force=ptrace, the rest always" \
	"$(json "$out/host-server.json" '" ".join(v["profile"] for v in d["operations"].values())')" \
	"always always ptrace ptrace"
$pm advise --json --profile desktop >"$out/host-desktop.json" || true
if [ -d /proc/sys/kernel/proc_mem ]; then want=self; else want=always; fi
is "--profile desktop: force=self, or on a kernel without self the nearest looser level" \
	"$(json "$out/host-desktop.json" 'd["operations"]["force"]["profile"]')" $want
status_is "--installed counts installed programs: gdb keeps force off never" 0 \
	sh -c "$pm advise --installed --json | python3 -c 'import json, sys; d = json.load(sys.stdin); sys.exit(d[\"operations\"][\"force\"][\"advice\"] == \"never\" or not any(s[\"installed\"] for s in d[\"seen\"] if s[\"name\"] == \"gdb\"))'"

# ---- the lab: one kernel (its TAP lines on stdout) ----
lab() {
	kernel=$1
	dir=$out/$kernel
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ "$kernel" != patched ] && [ ! -f "build/debian/$kernel/VERSION" ]; then
		# lab/debian would fetch it; make check does (tests/enforcer).
		if ! lab/debian "$kernel" >/dev/null 2>"$dir/fetch.log"; then
			ok "$kernel scenarios # SKIP Debian's kernel not available: $(tail -n 1 "$dir/fetch.log")"
			return
		fi
	fi
	scen=$(echo "$table" | awk -v k="$kernel" '$1 == k { printf "%s ", $2 }')
	# The permissive period: the patched kernel's boot parameters; on
	# Debian's, the guest script loads the enforcer permissive at never.
	case $kernel in
	patched) boot='proc_mem.permissive=1 proc_mem.force_override=never proc_mem.restrict_open_read=never proc_mem.restrict_open_write=never proc_mem.restrict_write=never' ;;
	*) boot= ;;
	esac
	rc=0
	# shellcheck disable=SC2086 # $scen is a list
	lab/vm --kernel "$kernel" --cmdline "$boot" --timeout 300 -- \
		sh tests/procmem/advise-guest.sh observe $scen >"$dir/observe.log" 2>&1 </dev/null || rc=$?
	is "$kernel: the permissive period's guest ran" "exit $rc" "exit 0" "$dir/observe.log"
	split "$dir/observe.log" "$dir"
	echo "$table" | awk -v k="$kernel" '$1 == k' >"$dir/rows"
	while read -r _ s l_or l_ow l_w l_f; do
		if [ ! -s "$dir/$s.json" ]; then
			not_ok "$kernel $s: advise gave no output"
			continue
		fi
		if [ "$s" = gdbthread ]; then
			is "$kernel $s: at the kernel's default, force=ptrace, gdb broke during the permissive period" \
				"$(sed -n 's/^RUN gdbthread \([a-z]*\).*/\1/p' "$dir/$s.run")" breaks "$dir/$s.run"
			ok=0
			grep -q "force=ptrace breaks a program in use here; measured instead on $kernel: proc_mem.force_override=always with \`procmem enforce --write=ptrace\` (matrix: $kernel-always-enforcer-write-ptrace)" \
				"$dir/$s.json" && ok=1
			result $((1 - ok)) "$kernel $s: advise names the alternative the matrix measured, force=always with the enforcer's write=ptrace"
		else
			is "$kernel $s: the programs ran during the permissive period" \
				"$(grep -c '^RUN [a-z]* \(works\|fallback\)' "$dir/$s.run" || true)" \
				"$(grep -c '^RUN' "$dir/$s.run" || true)" "$dir/$s.run"
		fi
		is "$kernel $s: advice open_read=$l_or open_write=$l_ow write=$l_w force=$l_f" \
			"$(json "$dir/$s.json" '" ".join(o + "=" + v["advice"] for o, v in d["operations"].items())')" \
			"open_read=$l_or open_write=$l_ow write=$l_w force=$l_f" "$dir/$s.json"
	done <"$dir/rows"
	# One boot per kernel command line of the advice; in it, each distinct
	# advice, loosest first (sysctls only tighten).  Lines: the command
	# line, then the groups (scenarios with one advice, comma-joined).
	cp "$out/gdbserver.records" "$dir/gdbserver.records"
	cp "$out/foo.records" "$dir/nothing.records"
	# shellcheck disable=SC2086 # $scen is a list
	python3 - "$dir" $scen >"$dir/boots" <<'EOF'
import json, os, sys
rank = {"always": 0, "self": 1, "ptrace": 2, "never": 3}
boots = {}
for s in sys.argv[2:]:
    f = os.path.join(sys.argv[1], s + ".json")
    if not os.path.exists(f) or not os.path.getsize(f):
        continue
    d = json.load(open(f))
    a = d["apply"]
    g = boots.setdefault(a["cmdline"] or "", {}).setdefault(json.dumps(a), [])
    g.append((sum(rank[v["advice"]] for v in d["operations"].values()), s))
for cmdline, groups in sorted(boots.items()):
    order = sorted(groups.values(), key=lambda g: g[0][0])
    print(cmdline + "\t" + " ".join(",".join(s for _, s in g) for g in order))
EOF
	while IFS="$(printf '\t')" read -r cmdline groups; do
		bdir=$dir/apply-$(echo "${cmdline:-none}" | tr -c 'a-z0-9_\n' -)
		mkdir -p "$bdir"
		rc=0
		# shellcheck disable=SC2086 # $groups is a list
		lab/vm --kernel "$kernel" --cmdline "$cmdline" --timeout 300 -- \
			sh tests/procmem/advise-guest.sh apply "$dir" $groups >"$bdir/apply.log" 2>&1 </dev/null || rc=$?
		is "$kernel ${cmdline:-(no parameters)}: the guest applying the advice ran" \
			"exit $rc" "exit 0" "$bdir/apply.log"
		split "$bdir/apply.log" "$bdir"
		g=0
		for group in $groups; do
			g=$((g + 1))
			first=${group%%,*}
			is "$kernel $group: the advice is in force after applying its lines" \
				"$(cat "$bdir/policy-$g" 2>/dev/null)" \
				"$(json "$dir/$first.json" '" ".join(o + "=" + v["advice"] for o, v in d["operations"].items())')" \
				"$bdir/apply.log"
			for s in $(echo "$group" | tr , ' '); do
				is "$kernel $s: every program works again under the advice" \
					"$(grep -c '^RUN [a-z]* \(works\|fallback\)' "$bdir/$s.rerun" 2>/dev/null || true)" \
					"$(grep -c '^RUN' "$dir/$s.run" || true)" "$bdir/apply.log"
				case $s in
				gdbserver) is "$kernel: exit 0 when the machine runs at the advice (gdbserver's records, policy applied)" \
					"$(cat "$bdir/$s.exit" 2>/dev/null)" 0 "$bdir/apply.log" ;;
				nothing) is "$kernel: exit 11 when the policy in force breaks something seen (a process writing another's memory, policy at never)" \
					"$(cat "$bdir/$s.exit" 2>/dev/null)" 11 "$bdir/apply.log" ;;
				esac
			done
			for a in attack-ddexec attack-inject attack-handoff attack-forkedtracer; do
				want=$(json "$dir/$first.json" "d['attacks']['$a']['result']")
				is "$kernel $group: $a $want, as advise says the matrix has it" \
					"$(sed -n "s/^ATTACK $a //p" "$bdir/attacks-$g" 2>/dev/null)" "$want" "$bdir/attacks-$g"
			done
		done
	done <"$dir/boots"
}

kernels=${PROCMEM_ADVISE_KERNELS-patched debian-6.12 debian-7.2}
for k in $kernels; do
	{ lab "$k" || echo "not ok - $k: the lab part stopped (exit $?)"; } >"$out/$k.tap" 2>&1 &
done
wait
for k in $kernels; do
	cat "$out/$k.tap"
done

# ---- man page, lint, install ----
status_is "the man page documents advise" 0 \
	sh -c "groff -man -Tutf8 -ww tools/procmem/procmem.1 2>&1 | grep -q 'procmem advise'"
status_is "cppcheck finds nothing in advise.c, matrix.c, records.c" 0 cppcheck --enable=warning,style,performance,portability \
	--error-exitcode=1 -q -D_GNU_SOURCE --std=c11 tools/procmem/advise.c tools/procmem/matrix.c tools/procmem/records.c tests/procmem/listener.c
dest=$(mktemp -d)
status_is "make install installs the matrix as data, and the installed advise finds it" 0 \
	sh -c "make -s install PREFIX=$dest >/dev/null && cmp docs/compat-matrix.json $dest/share/procmem/compat-matrix.json &&
		$dest/bin/procmem advise --json | grep -q '\"matrix\": \"$dest/share/procmem/compat-matrix.json\"'"
rm -rf "$dest"
