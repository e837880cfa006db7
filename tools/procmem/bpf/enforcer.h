/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF LSM enforcer (procmem.bpf.c) and procmem (enforce.c)
 * share: the policy map's value, the counters' indexes and the event
 * the ring buffer carries.  Plain fixed-size types only: this header is
 * compiled for the BPF target and for the host.
 */
#ifndef PROCMEM_ENFORCER_H
#define PROCMEM_ENFORCER_H

/* Operations, in procmem's enum op order; force has no LSM hook. */
#define PM_OPEN_READ	0
#define PM_OPEN_WRITE	1
#define PM_WRITE	2
#define PM_NOPS		3

/* Levels, in procmem's enum level order. */
#define PM_ALWAYS	0
#define PM_SELF		1
#define PM_PTRACE	2
#define PM_NEVER	3

/*
 * The policy map (hash, key: __u64 cgroup id, 0 for the whole machine)
 * holds one of these per key.  A hash map update replaces the element as
 * a whole (RCU), so a reader sees the old policy or the new one, never a
 * mix: a level change is one atomic update.
 */
struct pm_policy {
	unsigned char level[PM_NOPS];
	unsigned char permissive;
	unsigned char pad[4];
};

#define PM_POLICY_MAX	1024	/* machine + per-cgroup overrides */
#define PM_FILES_MAX	(1 << 20) /* mem files open by their target or tracer */
#define PM_CGROUP_DEPTH	32	/* cgroup levels searched for an override */
#define PM_THREADS_MAX	4096	/* exited-leader rule: threads walked */

/* Counters (array map of __u64, atomically added). */
#define PM_C_DENIED		0	/* + op */
#define PM_C_WOULD_DENY		3	/* + op */
#define PM_C_ALLOWED		6	/* + op: checked and allowed */
#define PM_C_EVENTS_DROPPED	9	/* ring buffer full */
#define PM_C_FILES_FULL		10	/* opener not recorded: map full */
#define PM_C_NR			11

/* Verdicts. */
#define PM_V_ALLOWED	0
#define PM_V_DENIED	1
#define PM_V_WOULD_DENY	2

/* One open or write of a mem file (ring buffer record). */
struct pm_event {
	unsigned long long ts_ns;	/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	unsigned long long cgroup_id;	/* accessor's cgroup */
	unsigned long long scope;	/* cgroup id of the policy, 0: machine */
	unsigned int pid, tid, uid;	/* accessor (uid in the init userns) */
	unsigned int target_pid, target_tid;	/* the task the file names */
	unsigned char op, level, verdict, tracer, permissive, pad[3];
	char comm[16], target_comm[16];
};

#define PM_RINGBUF_SIZE	(256 * 1024)

#endif
