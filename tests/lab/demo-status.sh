#!/bin/sh
# make demo: procmem status's table in lab guests under a few policies.
set -eu
cd "$(dirname "$0")/../.."
for spec in "stock proc_mem.force_override=ptrace" \
	"stock proc_mem.force_override=never" \
	"patched proc_mem.force_override=self proc_mem.restrict_open_write=ptrace" \
	"patched proc_mem.restrict_write=never proc_mem.restrict_open_read=self"; do
	kernel=${spec%% *} cmdline=${spec#* }
	echo "=== procmem status: $kernel kernel, $cmdline"
	lab/vm --kernel "$kernel" --cmdline "$cmdline" -- build/procmem/procmem status |
		sed -n -e '/^operation/,/^$/p' -e '/^result/p'
done
