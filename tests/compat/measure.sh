#!/bin/sh
# Measure the matrix: boot one guest per configuration (configs.tsv) and run
# guest.sh in it; each guest's lines go to build/compat/results/ID.tsv.
#   tests/compat/measure.sh [--all | ID...]
# default: every configuration with run=yes (make check); --all: run=yes
# and run=matrix (make matrix).
# Run from the repo root, after the binaries are built (make matrix does both).
set -eu
conf=tests/compat/configs.tsv res=build/compat/results
case ${1-} in
--all | "")
	runs=yes
	[ $# -eq 0 ] || runs="yes matrix"
	rm -rf $res
	# shellcheck disable=SC2046 # one word per configuration id
	set -- $(awk -F '\t' -v runs=" $runs " '!/^#/ && index(runs, " " $5 " ") { print $1 }' $conf)
	;;
esac
mkdir -p $res
for id in "$@"; do
	line=$(awk -F '\t' -v id="$id" '$1 == id' $conf)
	[ -n "$line" ] || { echo "measure.sh: no configuration '$id' in $conf" >&2; exit 2; }
	kernel=$(echo "$line" | cut -f 2) op=$(echo "$line" | cut -f 3) level=$(echo "$line" | cut -f 4)
	cg=$(echo "$line" | cut -s -f 6) extra=$(echo "$line" | cut -s -f 7)
	[ "$cg" != - ] || cg=
	flag=--$(echo "$op" | tr _ -)=$level
	case $kernel:$op in
	*+enforcer:*) cmdline= ;;
	*:-) cmdline= ;;
	*:force) cmdline=proc_mem.force_override=$level ;;
	*) cmdline=proc_mem.restrict_$op=$level ;;
	esac
	# the seventh field: more of the kernel's command line
	cmdline=${cmdline:+$cmdline${extra:+ }}$extra
	# The enforcer's policy, applied in the guest before the programs run.
	setup=:
	case $kernel in *+enforcer)
		setup="build/procmem/procmem enforce $flag"
		[ -z "$cg" ] || setup="$setup && mkdir -p /sys/fs/cgroup &&
			{ mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup; } &&
			mkdir /sys/fs/cgroup/supervisor &&
			build/procmem/procmem enforce --cgroup /supervisor ${flag%=*}=$cg &&
			export COMPAT_SUPERVISOR_CGROUP=/sys/fs/cgroup/supervisor"
		kernel=${kernel%+enforcer} ;;
	esac
	echo "# compat: $id: lab/vm --kernel $kernel --cmdline '$cmdline' -- $setup" >&2
	# A guest that died before its first cell (exit 125) boots once more:
	# under TCG, Debian's 6.12 oopsed once on an int3 in __schedule()
	# (text patching), 53 s into an enforcer configuration.
	for _ in 1 2; do
		rc=0
		lab/vm --kernel "$kernel" --cmdline "$cmdline" --timeout 400 -- \
			sh -c "$setup >/dev/null && exec sh tests/compat/guest.sh build/compat" \
			>"$res/$id.log" 2>&1 || rc=$?
		[ $rc -eq 125 ] && ! grep -q '^CELL' "$res/$id.log" || break
		echo "# compat: $id: the guest died before its first cell, booting again" >&2
	done
	grep -E '^(CELL|INFO)	' "$res/$id.log" >"$res/$id.tsv" || true
	[ $rc -eq 0 ] || printf 'INFO\tvm\tguest failed with status %s\n' $rc >>"$res/$id.tsv"
done
