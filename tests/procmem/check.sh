#!/bin/sh
# TAP checks of procmem.  procmem status must report, for every
# row of the table below, each operation's measured level and exit status,
# on the host (stock 6.18, no proc_mem parameters) or in a lab guest booted
# with the row's kernel and command line.  Then: scan finds a holder this
# script starts, usage errors, JSON, man page, cppcheck, make install.
set -eu
cd "$(dirname "$0")/../.."
pm=build/procmem/procmem
out=build/results/procmem
mkdir -p "$out"

# Expected levels and exit status of procmem status.  The rest of a line
# is boot parameters, and sysctl.NAME=VALUE: written to
# /proc/sys/kernel/proc_mem/NAME in the guest before procmem runs.
# MEASURED>LEVEL: in permissive mode, what the would-deny counts give.
# kernel exit open_read open_write write   force  parameters
table='
host     0   always    always     always  always
stock    0   always    always     always  always proc_mem.force_override=always
stock    0   always    always     always  ptrace proc_mem.force_override=ptrace
stock    0   always    always     always  never  proc_mem.force_override=never
stock    1   always    always     always  always proc_mem.restrict_write=never
stock    1   always    always     always  always proc_mem.force_override=self
patched  0   always    ptrace     always  always proc_mem.restrict_open_write=ptrace
patched  0   always    always     never   always proc_mem.restrict_write=never
patched  0   always    always     always  self   proc_mem.force_override=self
patched  0   always    always     ptrace  never  proc_mem.restrict_write=ptrace proc_mem.force_override=never
patched  0   self      never      unknown always proc_mem.restrict_open_read=self proc_mem.restrict_open_write=never
patched  1   always>self always   always>never always>ptrace proc_mem.permissive=1 proc_mem.restrict_write=never proc_mem.force_override=ptrace proc_mem.restrict_open_read=self
patched  1   always    always     always  always proc_mem.restrict_write=bogus
patched  0   always    always     ptrace  ptrace proc_mem.force_override=ptrace sysctl.write=ptrace
patched  0   always    always     never   always proc_mem.permissive=1 proc_mem.restrict_write=never sysctl.permissive=0
debian-7.2    0 always always     always  ptrace
debian-latest 0 always always     always  ptrace
'

. tests/lib/tap.sh

echo "TAP version 13"
[ -x $pm ] || { echo "not ok 1 - $pm is not built (make $pm)"; exit 1; }

row=0
probe='build/procmem/procmem status; echo "procmem-exit: $?"'
while read -r kernel want_rc l_or l_ow l_w l_f cmdline; do
	[ -n "$kernel" ] || continue
	row=$((row + 1))
	log=$out/status-$row.log
	boot= setup=
	for w in $cmdline; do
		case $w in
		sysctl.*=*)
			w=${w#sysctl.}
			setup="$setup echo ${w#*=} >/proc/sys/kernel/proc_mem/${w%%=*};" ;;
		*) boot="$boot $w" ;;
		esac
	done
	# Debian's kernels: is the enforcer status names as a remedy the one
	# that loads?  procmem enforce tries it after status has spoken.
	p=$probe
	case $kernel in debian-*)
		p="$p; build/procmem/procmem enforce --write=ptrace >/dev/null 2>&1; echo \"enforce-exit: \$?\"" ;;
	esac
	if [ "$kernel" = host ]; then
		sh -c "$setup$p" >"$log" 2>&1 </dev/null || true
	else
		lab/vm --kernel "$kernel" --cmdline "$boot" --timeout 120 \
			-- sh -c "$setup$p" >"$log" 2>&1 </dev/null || true
	fi
	# status wraps its lines at 100 columns (continuation lines indented
	# by 14): the greps below read them joined again
	sed -e ':a' -e '$!N' -e 's/\n \{14\}/ /' -e 'ta' -e 'P' -e 'D' "$log" >"$log.joined"
	case $kernel in debian-*)
		named=no loads=no
		grep -q '`procmem enforce [^`]*` provides' "$log.joined" && named=yes
		[ "$(sed -n 's/^enforce-exit: //p' "$log")" = 0 ] && loads=yes
		is "$kernel: status names procmem enforce as a remedy ($named) exactly where it loads ($loads)" \
			"$named" "$loads" "$log"
		# 7.1 made force=ptrace upstream's default: status says so and
		# names what the matrix measured breaking there.
		ok=0
		grep -q "^note: *at force=ptrace (this kernel's built-in default, upstream's since Linux 7.1), the compatibility matrix ([a-z0-9.-]*) has these break: .*gdb: breakpoint in a worker after main thread exited" "$log.joined" && ok=1
		result $((1 - ok)) "$kernel: status names the matrix's rows that break at its default force=ptrace"
		[ $ok = 1 ] || sed 's/^/# /' "$log" ;;
	esac
	for check in open_read:$l_or open_write:$l_ow write:$l_w force:$l_f exit:$want_rc; do
		what=${check%%:*} want=${check#*:}
		if [ "$what" = exit ]; then
			got=$(sed -n 's/^procmem-exit: //p' "$log")
		else
			got=$(awk -v op="$what" '$1 == op && NF == 7 { print $4 }' "$log")
			case $want in *'>'*)
				got="$got>$(sed -n "s/^if enforced:.* $what=\([a-z]*\).*/\1/p" "$log")"
			esac
		fi
		desc="$kernel ${cmdline:-(no parameters)}: $what is $want"
		if [ "$got" = "$want" ]; then
			ok "$desc"
		else
			not_ok "$desc (got '${got:-nothing}')"
			sed 's/^/# /' "$log"
		fi
	done
done <<EOF
$table
EOF

# watch without the enforcer reads the patched kernel's tracepoint: a
# shell renamed to a comm built to mislead the parser writes its own mem
# (write=never: denied), then dd does; on stock, neither source: exit 3.
# shellcheck disable=SC2016 # expanded in the guest
lab/vm --kernel patched --cmdline proc_mem.restrict_write=never --timeout 120 -- sh -c '
	build/procmem/procmem watch --json --count 2 >/tmp/w.json 2>/tmp/w.err &
	i=0
	while ! grep -q watching /tmp/w.err && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sh -c "printf \"x tracer=1 pid=\" >/proc/self/comm; echo x 1<>/proc/self/mem" 2>/dev/null
	dd if=/dev/zero of=/proc/self/mem bs=1 count=1 conv=notrunc 2>/dev/null
	wait $!; echo "watch-exit: $?"; cat /tmp/w.err /tmp/w.json' >"$out/watch.log" 2>&1 </dev/null || true
status_is "watch on the patched kernel: the tracepoint's denials as JSON, comms unforged" 0 \
	python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert "watch-exit: 0" in lines, "watch failed"
ev = [json.loads(l) for l in lines if l.startswith("{")]
assert [e["comm"] for e in ev] == ["x tracer=1 pid=", "dd"], ev
for e in ev:
    assert (e["op"], e["level"], e["verdict"], e["tracer"]) == ("write", "never", "denied", False), e
    assert e["pid"] == e["target_pid"] and e["uid"] == 0 and e["tid"] is None and e["cgroup"] is None, e
' "$out/watch.log"
[ $got -eq 0 ] || sed 's/^/# /' "$out/watch.log"
lab/vm --kernel stock --timeout 120 -- sh -c 'build/procmem/procmem watch; echo "watch-exit: $?"' \
	>"$out/watch-stock.log" 2>&1 </dev/null || true
status_is "watch with neither enforcer nor tracepoint exits 3 and says so" 0 \
	sh -c "grep -q '^watch-exit: 3' $out/watch-stock.log &&
		grep -q 'no proc_mem tracepoint' $out/watch-stock.log"

# scan: a holder we start, with /proc/<target>/mem open for r and rw.
sleep 300 &
target=$!
# shellcheck disable=SC2016 # $1 is the inner shell's
sh -c 'exec 3</proc/$1/mem 4<>/proc/$1/mem; exec sleep 300' holder "$target" &
holder=$!
trap 'kill "$holder" "$target" 2>/dev/null || true' EXIT
trap 'exit 130' HUP INT PIPE TERM
i=0
while [ "$(cat /proc/$holder/comm)" != sleep ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
$pm scan >"$out/scan.log" 2>&1 || true
for mode in r rw; do
	if awk -v h="$holder" -v t="$target" -v m="$mode" \
		'$1 == h && $2 == "sleep" && $4 == m && $5 == t { f = 1 } END { exit !f }' \
		"$out/scan.log"; then
		ok "scan finds holder $holder of /proc/$target/mem, mode $mode"
	else
		not_ok "scan finds holder $holder of /proc/$target/mem, mode $mode"
		sed 's/^/# /' "$out/scan.log"
	fi
done
status_is "scan --json is valid JSON naming the holder" 0 \
	sh -c "$pm scan --json | python3 -m json.tool | grep -q '\"pid\": $holder,'"
kill "$holder"
wait "$holder" 2>/dev/null || true
$pm scan >"$out/scan.log" 2>&1 || true
if awk -v h="$holder" '$1 == h { f = 1 } END { exit f }' "$out/scan.log"; then
	ok "scan no longer lists the holder once it is gone"
else
	not_ok "scan no longer lists the holder once it is gone"
fi
if [ "$(id -u)" = 0 ]; then
	status_is "scan as nobody exits 1 and says what it could not inspect" 0 \
		sh -c "setpriv --reuid=65534 --regid=65534 --clear-groups $pm scan |
			grep -q '^not inspected: [1-9]'; [ \$? = 0 ] &&
			{ setpriv --reuid=65534 --regid=65534 --clear-groups $pm scan; [ \$? = 1 ]; }"
else
	ok "scan as nobody exits 1 # SKIP not root"
fi

# The command line's conventions, one row each: the exit status, where a
# pattern (grep -E) must be found (out: stdout; err: stderr, which must be
# that one line), and procmem's arguments (words; '' for none).  Both
# option forms, --opt=VAL and --opt VAL, must reach the same check; --
# ends the options.
cli="
0|out|^usage: procmem COMMAND|--help
0|out|^procmem $(cat tools/procmem/VERSION)\$|--version
0|out|^usage: procmem status|status --help
0|out|^usage: procmem scan|scan -h
0|out|^usage: procmem enforce|enforce --help
0|out|^usage: procmem watch|watch -h
0|out|^usage: procmem advise|advise --help
0|out|^usage: procmem metrics|metrics -h
2|err|no command given|''
2|err|unknown command 'frob'|frob
2|err|unknown option '--json' before|--json status
2|err|^procmem: status: unknown option '--bogus' \\(procmem status --help\\)\$|status --bogus
2|err|^procmem: scan: unknown option '-x'|scan -x
2|err|^procmem: enforce: unknown option '--bogus'|enforce --bogus
2|err|^procmem: watch: unknown option '--bogus'|watch --bogus
2|err|^procmem: advise: unknown option '--bogus'|advise --bogus
2|err|unknown option '--bogus'|metrics --bogus
0|out|^procmem_kernel_info\\{|metrics --no-status --timeout=20
0|out|^procmem_status\\{verdict=\"ok\"\\} 1\$|metrics --timeout 20
2|err|status: --timeout needs a value|status --timeout
2|err|--timeout takes 1 to 3600 seconds, not 'soon'|status --timeout=soon
2|err|--timeout takes 1 to 3600 seconds, not 'soon'|status --timeout soon
2|err|--timeout takes 1 to 3600 seconds, not '0'|status -t 0
0|out|^result: +ok|status --timeout=20
0|out|^result: +ok|status --timeout 20
2|err|--count takes a positive number, not '0'|watch --count=0
2|err|--count takes a positive number, not '0'|watch --count 0
2|err|bad level 'bogus' for --write|enforce --write=bogus
2|err|bad level 'bogus' for --write|enforce --write bogus
2|err|a scope needs levels, or --off|enforce --cgroup=a/b
2|err|a scope needs levels, or --off|enforce --cgroup a/b
2|err|a scope needs levels, or --off|enforce --unit=nginx.service
2|err|one scope at a time: --cgroup, --unit, --container or --pod|enforce --container web --pod x --write=never
2|err|--check goes with --config|enforce --check --write=never
2|err|--observe takes 1 to 86400 seconds, not '0'|advise --observe=0
2|err|--observe takes 1 to 86400 seconds, not 'soon'|advise --observe soon
3|err|^procmem: advise: /nonexistent/m.json: No such file|advise --matrix=/nonexistent/m.json
3|err|^procmem: advise: /nonexistent/m.json: No such file|advise --matrix /nonexistent/m.json
2|err|unknown profile 'laptop'|advise --profile=laptop
2|err|unexpected argument 'x'|scan -- x
2|err|unexpected argument '--json'|scan -- --json
0|out|\"command\": \"scan\"|scan --json --
"
while IFS='|' read -r want where pat args; do
	[ -n "$want" ] || continue
	[ "$args" = "''" ] && args=
	got=0
	# shellcheck disable=SC2086 # args are words
	$pm $args >"$out/cli.out" 2>"$out/cli.err" </dev/null || got=$?
	if [ "$where" = err ]; then f=$out/cli.err; else f=$out/cli.out; fi
	lines=$(wc -l <"$out/cli.err")
	if [ "$got" = "$want" ] && grep -qE -- "$pat" "$f" &&
		{ [ "$where" = out ] || [ "$lines" = 1 ]; }; then
		ok "procmem ${args:-(no arguments)}: exit $want, $where /$pat/"
	else
		not_ok "procmem ${args:-(no arguments)}: exit $want, $where /$pat/ (exit $got, $lines lines on stderr)"
		sed 's/^/# out: /' "$out/cli.out" | head -5
		sed 's/^/# err: /' "$out/cli.err" | head -5
	fi
done <<EOF
$cli
EOF

# Man page, JSON, lint, install.
status_is "status --json is valid JSON" 0 sh -c "$pm status --json | python3 -m json.tool"
status_is "status exits 3 when it may not ptrace its child (under strace -f)" 3 \
	strace -f -o /dev/null $pm status
status_is "man page formats without warnings" 0 \
	sh -c '! groff -man -ww -z tools/procmem/procmem.1 2>&1 | grep .'
status_is "man -l renders the man page without warnings" 0 \
	sh -c '! LC_ALL=C MANWIDTH=80 man --warnings -l tools/procmem/procmem.1 2>&1 >/dev/null | grep .'
man_opts='--json --verbose --timeout --open-read --open-write --write --permissive
	--cgroup --unit --container --pod --off --config --check --count --all --observe --records --profile --installed
	--program --matrix --textfile --no-status --help --version'
LC_ALL=C MANWIDTH=200 man -l tools/procmem/procmem.1 2>/dev/null |
	sed -n '/^OPTIONS/,/^EXIT STATUS/p' >"$out/man-options.txt"
missing=
for o in $man_opts; do
	grep -qE -- "^ +(-[a-zA-Z], )?$o([ =,]|\$)|, $o([ =,]|\$)" "$out/man-options.txt" ||
		missing="$missing $o"
done
if [ -z "$missing" ]; then ok "the man page's OPTIONS documents every option"; else
	not_ok "the man page's OPTIONS documents every option (missing:$missing)"
fi
# The BPF program (tools/procmem/bpf) is C for clang's BPF target, built
# with -Wall -Wextra -Werror; cppcheck does not know its SEC() macros.
status_is "cppcheck finds nothing" 0 cppcheck --enable=warning,style,performance,portability \
	--error-exitcode=1 -q -D_GNU_SOURCE --std=c11 -i tools/procmem/bpf tools/procmem
dest=$(mktemp -d)
status_is "make install PREFIX=... installs binary and man page" 0 \
	sh -c "make -s install PREFIX=$dest >/dev/null && test -x $dest/bin/procmem &&
		test -f $dest/share/man/man1/procmem.1"
status_is "make install installs the enforcer's systemd unit and a config file" 0 \
	sh -c "test -f $dest/etc/procmem/enforce.conf &&
		grep -qx 'ExecStart=$dest/bin/procmem enforce --config $dest/etc/procmem/enforce.conf' \
			$dest/lib/systemd/system/procmem-enforce.service"
if command -v systemd-analyze >/dev/null; then
	status_is "systemd-analyze verify accepts the installed unit" 0 \
		systemd-analyze verify --man=no $dest/lib/systemd/system/procmem-enforce.service
else
	ok "systemd-analyze verify accepts the installed unit # SKIP no systemd-analyze"
fi
rm -rf "$dest"
plan
exit $st
