// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of any BPF LSM enforcer's cost (tests/enforcer/bench): empty
 * programs on the three hooks procmem's enforcer uses.  Whatever a
 * program on these hooks does, each call pays at least this: the BPF
 * trampoline that attaching puts on BPF LSM's empty hook function, and
 * entering and leaving the program (RCU, migration, recursion check).
 */
#include "vmlinux.h"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("lsm/file_open")
int BPF_PROG(floor_file_open, struct file *file, int ret)
{
	return ret;
}

SEC("lsm/file_permission")
int BPF_PROG(floor_file_permission, struct file *file, int mask, int ret)
{
	return ret;
}

SEC("lsm/file_free_security")
int BPF_PROG(floor_file_free, struct file *file)
{
	return 0;
}
