/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF LSM enforcer (enforcer.bpf.c) and procmem (enforce.c)
 * share: the numbers of operations, levels and verdicts, the maps'
 * values, the counters' indexes and the event the ring buffers carry.
 * Plain fixed-size types only: this header is compiled for the BPF
 * target and for the host.
 */
#ifndef PROCMEM_ENFORCER_H
#define PROCMEM_ENFORCER_H

/* Operations, in procmem's enum op order; force has no LSM hook. */
#define PM_OPEN_READ	0
#define PM_OPEN_WRITE	1
#define PM_WRITE	2
#define PM_NOPS		3

/* Levels, in procmem's enum level order, loosest first: PM_NR_LEVELS of
 * them, bounding every level index here and in procmem. */
#define PM_ALWAYS	0
#define PM_SELF		1
#define PM_PTRACE	2
#define PM_NEVER	3
#define PM_NR_LEVELS	4

/* Verdicts. */
#define PM_V_ALLOWED	0
#define PM_V_DENIED	1
#define PM_V_WOULD_DENY	2
#define PM_NVERDICTS	3

/* The levels of one scope: the machine, or one cgroup override. */
struct pm_levels {
	unsigned char level[PM_NOPS];
	unsigned char permissive;
};

/*
 * Overrides name a cgroup-v2 path, component by component, and apply to
 * whatever cgroup is at that path (created later, or again): the
 * programs compare the names of the accessor's cgroup and its ancestors
 * with these, once per cgroup (the cgroup cache).  A component may be as
 * long as the VFS lets a cgroup's name be, NAME_MAX (255) bytes: a
 * container's scope (docker-<64 hex>.scope, 77 bytes;
 * cri-containerd-<64 hex>.scope, 85) or a pod's slice fits.  Deeper
 * paths are refused by procmem.  label is the workload procmem was
 * given for the path (a unit, a container), for people: the programs
 * never read it.  slot is the override's row of per-scope counters,
 * kept by procmem for as long as the override names the same path.
 */
#define PM_OVERRIDES_MAX	32
#define PM_DEPTH_MAX		16	/* components of an override's path */
#define PM_NAME_MAX		256	/* a component (NAME_MAX), with its NUL */
#define PM_LABEL_MAX		128	/* the workload's name, with its NUL */
#define PM_WALK_MAX		4096	/* cgroup levels walked up, at most */

struct pm_override {
	struct pm_levels lv;		/* in force: own where set, else the machine's */
	struct pm_levels own;		/* the levels the override names */
	unsigned char set;		/* bit op: own.level[op] is named */
	unsigned char depth;		/* components; 0: unused */
	unsigned char slot;		/* its counters: PM_C_SCOPE(slot, ...) */
	unsigned char pad[5];
	char label[PM_LABEL_MAX];	/* "unit:nginx.service", "podman:web"; "" */
	char comp[PM_DEPTH_MAX][PM_NAME_MAX];
};

/*
 * The whole policy: one element (key 0) of a hash map that is not
 * preallocated, so that an update replaces it as a whole and a program
 * reads the old policy or the new one, never a mix.  gen changes with
 * every update: it voids the cgroup cache.
 */
struct pm_policy {
	unsigned int gen;
	unsigned char noverrides;
	unsigned char pad[3];
	struct pm_levels machine;
	struct pm_levels strictest;	/* for cgroups deeper than PM_WALK_MAX */
	/* cand[L]: bit i set if ov[i] is no deeper than L (L = PM_DEPTH_MAX:
	 * any deeper cgroup); ov[] is sorted deepest first */
	unsigned int cand[PM_DEPTH_MAX + 1];
	struct pm_override ov[PM_OVERRIDES_MAX];
};

/* The cgroup cache: cgroup id -> the override that applies (-1: none). */
struct pm_cgroup_match {
	unsigned int gen;
	int idx;			/* PM_IDX_MACHINE, PM_IDX_STRICTEST or 0.. */
};
#define PM_IDX_MACHINE		(-1)
#define PM_IDX_STRICTEST	(-2)
#define PM_CGCACHE_MAX		16384

/* The opener record of a mem file (write=self is tied to the opener). */
struct pm_opener {
	unsigned long long mm;		/* the mm the file was opened on */
	unsigned long long cred;	/* the file's f_cred */
	unsigned int epoch;		/* pm_config.epoch at open */
	unsigned int pad;
};
#define PM_FILES_MAX	(1 << 20)

/*
 * The configuration (array map, one element), written by procmem.  (The
 * address of the kernel's proc_mem_operations, as the calibration program
 * saw it on procmem's own /proc/self/mem, is the programs' global
 * pm_mem_fops: no kallsyms, which kptr_restrict may hide.)  A probe is
 * procmem's access to its own mem file, named by its inode number
 * (probe_ino) and procmem's pid (probe_tgid), the accessor on the file's
 * mm: the inode number alone could be met again (proc inode numbers
 * come from a 32-bit counter), and no time or cgroup namespace changes
 * either (procmem refuses to probe from a pid namespace).  It is decided as any other
 * access, its verdicts stored in probe[], the scope and the policy
 * generation that decided it in probe_scope and probe_gen, never
 * enforced, counted or reported.  Opener records are taken while
 * PM_F_RECORD is set; one of another epoch is void.
 */
struct pm_config {
	unsigned long long probe_ino;
	unsigned int probe_gen;		/* the policy's gen that decided the probe */
	unsigned int flags;
	unsigned int epoch;
	unsigned char probe[PM_NOPS];	/* verdict + 1; 0: not seen */
	signed char probe_scope;	/* the scope that decided it, as pm_event.scope */
	/* calibration (pm_calibrate): the inode to look for, and its f_op */
	unsigned long long cal_ino;
	unsigned long long cal_fops;
	unsigned int cal_tid;
	unsigned int probe_tgid;	/* the probe's process, in the initial pid ns */
};
#define PM_F_RECORD		0x1	/* take opener records */
#define PM_F_WATCH_ALLOWED	0x2	/* a watcher wants allowed accesses */

/*
 * Counters (per-CPU array of __u64; procmem adds the CPUs up).  Then
 * the denials and would-denies of each scope: a row per override slot,
 * one for the machine, one for cgroups too deep to walk.
 */
#define PM_C_DECIDED(v, op)	((v) * PM_NOPS + (op))	/* 0..8 */
#define PM_C_DROPPED(v)		(9 + (v))	/* the ring buffer was full */
#define PM_C_LIMITED(v)		(12 + (v))	/* over the bucket's event rate */
#define PM_C_FILES_FULL		15	/* opener not recorded: map full */
#define PM_SLOT_MACHINE		PM_OVERRIDES_MAX
#define PM_SLOT_STRICTEST	(PM_OVERRIDES_MAX + 1)
#define PM_NSLOTS		(PM_OVERRIDES_MAX + 2)
/* v: PM_V_DENIED or PM_V_WOULD_DENY */
#define PM_C_SCOPE(slot, v, op)	(16 + ((slot) * 2 + (v) - PM_V_DENIED) * PM_NOPS + (op))
#define PM_C_NR			PM_C_SCOPE(PM_NSLOTS, PM_V_DENIED, 0)

/*
 * Events: denials and would-denies on one ring buffer, allowed accesses
 * (only while a watcher asks) on another, so allowed traffic never
 * pushes a denial out.  Denials are rate limited per bucket: a bucket
 * may put PM_RATE_BURST events on the denial ring at once, refilled at
 * PM_RATE_PER_S a second.  The bucket is the accessor's uid in the
 * initial user namespace, or, for a task in a user namespace, the uid
 * that owns the outermost user namespace above it: a user's subordinate
 * uids all fall in that user's bucket.  A task with CAP_SYS_ADMIN in
 * the initial user namespace is not limited.  The first denial against
 * each target process in PM_TARGET_INTERVAL_NS spends an allowance of
 * its own (the same burst and rate, per bucket): junk denials against a
 * target cannot spend an attacker's allowance ahead of its real attempt
 * on a victim, and rotating targets buys a bucket no more than twice its
 * rate.
 */
#define PM_RINGBUF_SIZE	(256 * 1024)
#define PM_RATE_BURST	64
#define PM_RATE_PER_S	16
#define PM_RATE_UIDS	4096
#define PM_TARGETS_MAX	16384
#define PM_TARGET_INTERVAL_NS	1000000000ULL

struct pm_rate {
	unsigned long long last_ns;	/* when tokens was last refilled */
	unsigned long long tokens;
	unsigned long long first;	/* for first denials against a target */
};

/* One open or write of a mem file (ring buffer record). */
struct pm_event {
	unsigned long long ts_ns;	/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	unsigned long long cgroup_id;	/* accessor's cgroup */
	unsigned int pid, tid, uid;	/* accessor (uid in the init userns) */
	unsigned int target_pid, target_tid;	/* the task the file names */
	short scope;			/* override index of policy gen, -1: the machine's */
	unsigned char op, level, verdict, tracer, permissive, pad;
	char comm[16], target_comm[16];
	unsigned int gen;		/* the policy's gen that decided */
	unsigned int pad2;
};

#endif
