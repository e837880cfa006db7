#!/bin/sh
# Guest side of tests/procmem/advise.sh, run as root in a lab guest from
# the top of the tree.
#
#   advise-guest.sh observe SCENARIO...
#       for each scenario: procmem advise --observe runs while the
#       scenario's programs run: SCENARIO.json (its output), SCENARIO.run
#       (the programs' results).  The kernel (or the enforcer, loaded here
#       permissive at never) is in a permissive period.
#   advise-guest.sh apply DIR GROUP...
#       GROUP: scenarios with the same advice, joined by commas; the
#       groups share the kernel command line (given at boot) and come
#       loosest first, since sysctls only tighten.  For group N, the lines
#       of DIR/SCENARIO.json are applied (sysctl.d lines with sysctl -p,
#       the enforce.conf line with procmem enforce --config), then: the
#       policy in force (policy-N), each scenario's programs again
#       (SCENARIO.rerun), the matrix's attacks (attacks-N), and procmem
#       advise --records DIR/SCENARIO.records where that file exists
#       (SCENARIO.exit: its exit status).
# Each file is printed after a line "@@@ NAME" (the root is read-only
# here).  Result lines: "RUN program works|fallback|breaks detail",
# "ATTACK id value".
set -eu
pm=build/procmem/procmem bin=build/compat
mode=$1
shift
tmp=$(mktemp -d /tmp/advise.XXXXXX) out=$(mktemp -d /tmp/advise-out.XXXXXX)
chmod 755 "$tmp"

verdict() { # NAME LOG: the "=> value: detail" line of a compat program
	v=$(sed -n 's/^=> \([a-z]*\): .*/\1/p' "$2" | tail -n 1)
	echo "RUN $1 ${v:-breaks} $(tail -n 1 "$2")"
}

# scenario NAME: run its programs, print RUN lines
scenario() {
	case $1 in
	nothing) sleep 1 ;;
	gdbserver)
		timeout 120 gdb -q -nx -batch -ex 'set debuginfod enabled off' \
			-ex "target remote | exec gdbserver - $bin/gdbtarget" -ex 'break compute' \
			-ex continue -ex 'printf "BP x=%d\n", x' -ex 'set var *(int *)&answer = 99' \
			-ex 'watch counter' -ex continue -ex delete -ex continue \
			"$bin/gdbtarget" >"$tmp/gdbserver.log" 2>&1 </dev/null || true
		if grep -q '^BP x=21$' "$tmp/gdbserver.log" && grep -q 'answer=99' "$tmp/gdbserver.log" &&
			grep -q 'New value = 1' "$tmp/gdbserver.log"; then
			echo "RUN gdbserver works breakpoint, const write, watchpoint"
		else
			echo "RUN gdbserver breaks $(grep -m 1 -E 'Cannot|denied|rror' "$tmp/gdbserver.log" || echo '?')"
		fi ;;
	gdbthread)
		# the matrix's gdb-thread row: a breakpoint in a worker after the
		# main thread exited (breaks at 7.1's default, force=ptrace)
		timeout 120 gdb -q -nx -batch -ex 'set debuginfod enabled off' \
			-ex 'handle SIGUSR1 stop print nopass' -ex run -ex 'break work' -ex continue \
			-ex 'printf "BP n=%d\n", n' -ex continue "$bin/threads" >"$tmp/gdbt.log" 2>&1 </dev/null || true
		if grep -q 'leader exited' "$tmp/gdbt.log" && grep -q '^BP n=7$' "$tmp/gdbt.log" &&
			grep -q 'work=14' "$tmp/gdbt.log"; then
			echo "RUN gdbthread works worker stopped in work(n=7), leader gone"
		else
			echo "RUN gdbthread breaks $(grep -m 1 -E 'Cannot|denied|rror' "$tmp/gdbt.log" || echo '?')"
		fi ;;
	supervisor)
		timeout 30 "$bin/supervisor" >"$tmp/supervisor.log" 2>&1 </dev/null || true
		verdict supervisor "$tmp/supervisor.log" ;;
	jit)
		timeout 30 "$bin/jit" >"$tmp/jit.log" 2>&1 </dev/null || true
		verdict jit "$tmp/jit.log" ;;
	*) echo "advise-guest.sh: unknown scenario $1" >&2; exit 2 ;;
	esac
}

# The seccomp supervisor scenario has a listener holder running throughout.
holder_start() {
	holder=
	[ "$1" = supervisor ] || return 0
	build/procmem/listener >"$tmp/listener.log" 2>&1 &
	holder=$!
	i=0
	until grep -q listening "$tmp/listener.log"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "advise-guest.sh: listener did not start" >&2; exit 1; }
		sleep 0.1
	done
}
holder_stop() { [ -z "$holder" ] || { kill "$holder"; wait "$holder" 2>/dev/null || true; }; }

case $mode in
observe)
	if [ ! -d /proc/sys/kernel/proc_mem ]; then
		$pm enforce --permissive --open-read=never --open-write=never --write=never >/dev/null
	fi
	for s in "$@"; do
		holder_start "$s"
		$pm advise --json --observe 300 --program jit=jit >"$out/$s.json" 2>"$tmp/advise.err" &
		adv=$!
		i=0
		until grep -q observing "$tmp/advise.err"; do
			i=$((i + 1))
			if [ $i -ge 300 ] || ! kill -0 "$adv" 2>/dev/null; then
				cat "$tmp/advise.err" >&2
				exit 1
			fi
			sleep 0.1
		done
		scenario "$s" >"$out/$s.run"
		kill -INT "$adv"
		wait "$adv" || echo "advise exit $?" >>"$out/$s.run"
		holder_stop
	done ;;
apply)
	dir=$1
	shift
	g=0
	for group in "$@"; do
		g=$((g + 1))
		group=$(echo "$group" | tr , ' ')
		/usr/bin/python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["apply"]
open(sys.argv[2], "w").write("".join(l + "\n" for l in a["sysctl_d"]))
open(sys.argv[3], "w").write((a["enforce_conf"] or "") + "\n")' \
			"$dir/${group%% *}.json" "$tmp/sysctl.conf" "$tmp/enforce.conf"
		[ ! -s "$tmp/sysctl.conf" ] || sysctl -q -p "$tmp/sysctl.conf"
		if grep -q . "$tmp/enforce.conf"; then $pm enforce --config "$tmp/enforce.conf" >/dev/null; fi
		p=/proc/sys/kernel/proc_mem
		if [ -d $p ]; then
			echo "open_read=$(cat $p/open_read) open_write=$(cat $p/open_write) write=$(cat $p/write) force=$(cat $p/force)"
		else
			e=$($pm enforce | sed -n 's/^machine: *\(open_read=[a-z]* open_write=[a-z]* write=[a-z]*\).*/\1/p')
			f=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^proc_mem.force_override=//p' | tail -n 1)
			# no parameter: the kernel's own default (ptrace from 7.1)
			c=/boot/config-$(uname -r)
			[ -n "$f" ] || ! grep -q '^CONFIG_PROC_MEM_FORCE_PTRACE=y' "$c" 2>/dev/null || f=ptrace
			[ -n "$f" ] || ! grep -q '^CONFIG_PROC_MEM_NO_FORCE=y' "$c" 2>/dev/null || f=never
			echo "${e:-open_read=always open_write=always write=always} force=${f:-always}"
		fi >"$out/policy-$g"
		for s in $group; do
			holder_start "$s"
			scenario "$s" >"$out/$s.rerun"
			holder_stop
			if [ -f "$dir/$s.records" ]; then
				rc=0
				$pm advise --records "$dir/$s.records" >"$tmp/advise.out" 2>&1 || rc=$?
				echo "$rc" >"$out/$s.exit"
			fi
		done
		cp "$bin/victim" "$tmp/victim"
		{
			for a in inject handoff; do
				timeout 30 "$bin/attack" $a "$tmp/victim" >"$tmp/$a.log" 2>&1 || true
				echo "ATTACK attack-$a $(sed -n 's/^=> \([a-z]*\):.*/\1/p' "$tmp/$a.log" | tail -n 1)"
			done
			timeout 30 "$bin/attack" forkedtracer >"$tmp/ft.log" 2>&1 || true
			echo "ATTACK attack-forkedtracer $(sed -n 's/^=> \([a-z]*\):.*/\1/p' "$tmp/ft.log" | tail -n 1)"
			timeout 30 sh tests/compat/ddexec.sh "$bin/payload.bin" >"$tmp/dd.log" 2>&1 || true
			echo "ATTACK attack-ddexec $(sed -n 's/^=> \([a-z]*\):.*/\1/p' "$tmp/dd.log" | tail -n 1)"
		} >"$out/attacks-$g"
	done ;;
*) echo "advise-guest.sh: unknown mode $mode" >&2; exit 2 ;;
esac
for f in "$out"/*; do
	echo "@@@ ${f##*/}"
	cat "$f"
done
rm -rf "$tmp" "$out"
