// SPDX-License-Identifier: GPL-2.0
/*
 * procmem's enforcer: the /proc/PID/mem policy of docs/interface.md for
 * open_read, open_write and write, on a kernel without the series,
 * through BPF LSM.
 *
 *   lsm/file_open          open_read, then open_write: one denial per
 *                          refused open; the opener record (write=self)
 *   lsm/file_permission    write (MAY_WRITE); attached only while some
 *                          scope restricts write or a watcher asks
 *   lsm/file_free_security forgets the opener record; attached only
 *                          while opener records are taken
 *   lsm/file_open          pm_calibrate: attached by procmem for a moment
 *                          to learn which f_op a mem file has
 *
 * Nothing here needs a kernel address: a mem file is recognised by the
 * f_op the calibration program saw on procmem's own /proc/self/mem, so
 * kptr_restrict=2 (kallsyms all zeros) changes nothing.  Kernel
 * structures are read through BTF-typed pointers, which the verifier
 * checks and lockdown=confidentiality allows.  A few pointers must be
 * computed (container_of: the proc inode of an inode, the task of a pid
 * link, a tracee on current's ptraced list, a kernfs name): PM_CAST does
 * it with the bpf_rdonly_cast() kfunc (6.2 and later) in the object
 * built with -DPM_RDONLY_CAST, and with bpf_probe_read_kernel() in the
 * other, for 6.1, which lockdown=confidentiality forbids (procmem
 * refuses that pair with one line).
 *
 * force (FOLL_FORCE) has no LSM hook: the stock kernel's
 * proc_mem.force_override covers it.
 */
#include "vmlinux.h"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "enforcer.h"

#define EACCES		13
#define MAY_WRITE	0x2
#define FMODE_READ	0x1
#define FMODE_WRITE	0x2
#define PROC_SUPER_MAGIC 0x9fa0
#define CAP_SYS_ADMIN	21
#define PM_USERNS_MAX	33	/* user namespace levels: 0 to 32 */
#define PM_TRACEES_MAX	4096	/* the tracer test: tracees of current walked */

char LICENSE[] SEC("license") = "GPL";

#ifdef PM_RDONLY_CAST
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
/* @p as a pointer to @type that the verifier checks each load through. */
#define PM_CAST(p, type) \
	((type *)bpf_rdonly_cast((const void *)(p), bpf_core_type_id_kernel(type)))
/* Field @f of @p, where @p came from PM_CAST. */
#define RD(p, f)	((p)->f)
#else
#define PM_CAST(p, type) ((type *)(p))
#define RD(p, f)	BPF_CORE_READ(p, f)
#endif

#define container_of_cast(ptr, type, member) \
	PM_CAST((void *)(ptr) - bpf_core_field_offset(type, member), type)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pm_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pm_policy);
} policy SEC(".maps");

/*
 * The name of the cgroup the walk is at, NUL-padded: a map value, not
 * the stack, both for its size (PM_NAME_MAX) and so that the verifier,
 * which tracks every stack slot, sees the same state whatever name was
 * read (its walk of the loops converges).  Not pinned: the programs
 * hold it.
 */
struct pm_name {
	__u64 w[PM_NAME_MAX / 8];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pm_name);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PM_CGCACHE_MAX);
	__type(key, __u64);		/* cgroup id */
	__type(value, struct pm_cgroup_match);
} cgcache SEC(".maps");

/*
 * Mem files opened by a task on the target's mm or by its tracer, with
 * the record of that opening; created on demand.  A file without a
 * valid record counts as opened by another: refused at self, never
 * wrongly allowed.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, PM_FILES_MAX);
	__type(key, __u64);		/* struct file pointer */
	__type(value, struct pm_opener);
} files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PM_C_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PM_RATE_UIDS);
	__type(key, __u32);		/* the bucket: rate_bucket() */
	__type(value, struct pm_rate);
} rate SEC(".maps");

/* Target process (tgid) -> when a denial against it was last reported. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PM_TARGETS_MAX);
	__type(key, __u32);
	__type(value, __u64);
} targets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PM_RINGBUF_SIZE);
} denials SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PM_RINGBUF_SIZE);
} accesses SEC(".maps");

static __always_inline struct pm_config *get_config(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&config, &zero);
}

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	/* atomic: a program can be preempted, and another run on this CPU */
	if (c)
		__sync_fetch_and_add(c, 1);
}

/*
 * The f_op of mem files, written by procmem after the calibration (0
 * until then: no file has a NULL f_op here).  A global of its own, read
 * without a map lookup: file_permission tests it for every read and
 * write on the machine.
 */
__u64 pm_mem_fops = 0;

static __always_inline int is_mem_file(struct file *file)
{
	return (__u64)file->f_op == pm_mem_fops;
}

/* ---- the accessor's scope: the machine's levels or an override's ---- */

/* One step of the walk up the accessor's cgroup and its ancestors. */
struct cg_walk {
	const struct pm_policy *pol;
	struct kernfs_node *kn;
	int level;			/* of kn */
	__u32 cand;			/* overrides still matching */
	__u64 *name;			/* kn's name, NUL-padded (scratch) */
	int named;			/* name read: 1, too long: -1 */
};

#ifdef PM_RDONLY_CAST
/* Zeroes the bytes of @w from its first NUL on; 1 if it had one. */
static __always_inline int nul_pad(__u64 *w)
{
	for (int b = 0; b < 8; b++) {
		/* byte b of the word in memory order */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		int shift = 8 * b;
		__u64 keep = b ? ~0ULL >> (64 - 8 * b) : 0;
#else
		int shift = 56 - 8 * b;
		__u64 keep = b ? ~0ULL << (64 - 8 * b) : 0;
#endif
		if (!((*w >> shift) & 0xff)) {
			*w &= keep;
			return 1;
		}
	}
	return 0;
}
#endif

/* Copies the name of @w->kn into @w->name; -1 if it does not fit. */
static int kn_name(struct cg_walk *w)
{
	const char *name = w->kn->name;
	int end = 0;
#ifdef PM_RDONLY_CAST
	const __u64 *s = (const __u64 *)container_of_cast(name, struct linux_binprm, buf)->buf;

	for (int i = 0; i < PM_NAME_MAX / 8; i++) {
		w->name[i] = end ? 0 : s[i];
		if (!end)
			end = nul_pad(&w->name[i]);
	}
#else
	/* the length with its NUL; a cgroup's name (a kernfs directory
	 * made by mkdir(2) or rename(2)) is at most NAME_MAX bytes, so it
	 * is never cut at PM_NAME_MAX */
	__builtin_memset(w->name, 0, PM_NAME_MAX);
	if (bpf_probe_read_kernel_str(w->name, PM_NAME_MAX, name) > 0)
		end = 1;
#endif
	return end ? 1 : -1;
}

/*
 * The parent of @kn (a BTF-typed pointer, read directly in both
 * objects): kernfs_node.parent up to 6.14, .__parent from 6.15
 * (vmlinux.h's flavours).  The test is a constant that libbpf resolves
 * at load time, and the verifier drops the other branch: one load, as
 * before the rename.
 */
static __always_inline struct kernfs_node *kn_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(struct kernfs_node___new, __parent))
		return ((struct kernfs_node___new *)kn)->__parent;
	return ((struct kernfs_node___old *)kn)->parent;
}

/* One override against the name at w->level. */
static long ov_step(__u32 o, void *data)
{
	struct cg_walk *w = data;
	const struct pm_override *ov;
	const __u64 *c;

	o &= PM_OVERRIDES_MAX - 1;
	ov = &w->pol->ov[o];
	if (!(w->cand & (1U << o)) || ov->depth < w->level)
		return 0;
	if (!w->named)
		w->named = kn_name(w);
	c = (const __u64 *)ov->comp[(w->level - 1) & (PM_DEPTH_MAX - 1)];
	if (w->named < 0)
		goto mismatch;
	for (int i = 0; i < PM_NAME_MAX / 8; i++)
		if (c[i] != w->name[i])
			goto mismatch;
	return 0;
mismatch:
	w->cand &= ~(1U << o);
	return 0;
}

static long cg_step(__u32 i, void *data)
{
	struct cg_walk *w = data;

	(void)i;
	if (w->level <= 0 || !w->kn)
		return 1;
	if (w->level <= PM_DEPTH_MAX) {
		w->named = 0;
		bpf_loop(PM_OVERRIDES_MAX, ov_step, w, 0);
	}
	w->kn = kn_parent(w->kn);
	w->level--;
	return 0;
}

/*
 * The override for the accessor's cgroup: the deepest one whose path is
 * the cgroup's or an ancestor's, by name, component by component.
 */
static long first_bit(__u32 o, void *data)
{
	struct cg_walk *w = data;

	if (w->cand & (1U << (o & 31))) {
		w->level = (int)o;
		return 1;
	}
	return 0;
}

static int cg_resolve(const struct pm_policy *pol, struct cgroup *cg)
{
	struct cg_walk w = { .pol = pol, .kn = cg->kn, .level = cg->level };
	struct pm_name *name;
	__u32 lv, zero = 0;

	if (w.level > PM_WALK_MAX)
		return PM_IDX_STRICTEST;
	name = bpf_map_lookup_elem(&scratch, &zero);
	if (!name)
		return PM_IDX_STRICTEST;
	w.name = name->w;
	/* the overrides no deeper than the cgroup */
	lv = (__u32)w.level;
	if (lv > PM_DEPTH_MAX)
		lv = PM_DEPTH_MAX;
	barrier_var(lv);	/* so that the & 31, a bound the verifier sees, stays */
	w.cand = pol->cand[lv & 31];
	if (!w.cand)
		return PM_IDX_MACHINE;
	bpf_loop(PM_WALK_MAX, cg_step, &w, 0);
	if (w.level > 0)
		return PM_IDX_STRICTEST;	/* the walk was cut short */
	if (!w.cand)
		return PM_IDX_MACHINE;
	/* overrides are sorted deepest first: the first match is the deepest */
	w.level = PM_IDX_MACHINE;
	bpf_loop(PM_OVERRIDES_MAX, first_bit, &w, 0);
	return w.level;
}

/*
 * The levels for the accessor; *scope the override index (-1: machine).
 * Without overrides, no cgroup is looked at.
 */
static const struct pm_levels *scope_levels(const struct pm_policy *pol,
					    struct task_struct *cur, short *scope,
					    unsigned char *slot)
{
	const struct pm_override *ov;
	struct pm_cgroup_match *m, nm;
	struct cgroup *cg;
	__u64 id;
	int idx;

	*scope = -1;
	*slot = PM_SLOT_MACHINE;
	if (!pol->noverrides)
		return &pol->machine;
	/* one cgroup for the key and the walk, should the task migrate */
	cg = cur->cgroups->dfl_cgrp;
	id = cg->kn->id;
	m = bpf_map_lookup_elem(&cgcache, &id);
	if (m && m->gen == pol->gen) {
		idx = m->idx;
	} else {
		idx = cg_resolve(pol, cg);
		nm.gen = pol->gen;
		nm.idx = idx;
		bpf_map_update_elem(&cgcache, &id, &nm, BPF_ANY);
	}
	if (idx == PM_IDX_STRICTEST) {
		*scope = PM_OVERRIDES_MAX;
		*slot = PM_SLOT_STRICTEST;
		return &pol->strictest;
	}
	if (idx < 0 || idx >= PM_OVERRIDES_MAX)
		return &pol->machine;
	*scope = (short)idx;
	ov = &pol->ov[(__u32)idx & (PM_OVERRIDES_MAX - 1)];
	*slot = ov->slot < PM_OVERRIDES_MAX ? ov->slot : PM_SLOT_STRICTEST;
	return &ov->lv;
}

/* ---- the target and the tracer test ---- */

/* The file's mm: private_data, without the patched kernel's opener bit. */
static __always_inline struct mm_struct *file_mm(struct file *file)
{
	return (void *)((unsigned long)file->private_data & ~1UL);
}

/* pid_task(proc_pid(file_inode(file)), PIDTYPE_PID); NULL if gone. */
static struct task_struct *file_task(struct file *file)
{
	struct proc_inode *pi = container_of_cast(file->f_inode, struct proc_inode, vfs_inode);
	struct pid *pid = RD(pi, pid);
	struct hlist_node *first;

	if (!pid)
		return NULL;
	first = RD(pid, tasks[PIDTYPE_PID].first);
	if (!first)
		return NULL;
	return container_of_cast(first, struct task_struct, pid_links[PIDTYPE_PID]);
}

struct walk {
	__u64 cur;			/* current, the tracer */
	__u64 mm;			/* the file's */
	__u64 head;			/* &cur->ptraced */
	struct list_head *node;
	int found;
};

/*
 * One tracee of current's ptraced list.  The kernel walks the list under
 * tasklist_lock, which a BPF program cannot take: here a tracee passes
 * only while it is still current's (ptrace set, parent current) as well
 * as on the list, so a list changed under the walk can lose a tracee
 * (refused) but never lend one.
 */
static long walk_tracee(__u32 i, void *data)
{
	struct walk *w = data;
	struct task_struct *t;

	(void)i;
	if (!w->node || (__u64)w->node == w->head)
		return 1;
	t = container_of_cast(w->node, struct task_struct, ptrace_entry);
	if ((__u64)RD(t, mm) == w->mm && RD(t, ptrace) && (__u64)RD(t, parent) == w->cur) {
		w->found = 1;
		return 1;
	}
	w->node = RD(t, ptrace_entry.next);
	return 0;
}

/*
 * The tracer test T, the kernel's proc_mem_traces_mm(): is current the
 * active ptracer of any task that uses @mm, whichever task the file
 * names?  One rule at all times: the tracer of the file's task, of
 * another thread while the leader lives (a tracer of one thread writing
 * through /proc/PID/mem), and of a thread left once the
 * file's task is gone from @mm (an exited leader, a reaped thread).
 * As the kernel series does since v5, the file's own task @task is
 * asked first, stock's question (traced by current, on @mm): the
 * debugger's case costs no walk however many tasks it traces.  Only
 * when that fails is current's own list of tracees walked (bpf_loop),
 * at most PM_TRACEES_MAX of them: past that bound T fails, so a tracer
 * of more tasks can only be refused, never wrongly allowed.  A caller
 * that traces nobody asks nothing.
 */
static int tracer_test(struct task_struct *cur, struct mm_struct *mm,
		       struct task_struct *task)
{
	struct walk w = { .cur = (__u64)cur, .mm = (__u64)mm };

	if (!mm)
		return 0;
	w.head = (__u64)cur + bpf_core_field_offset(struct task_struct, ptraced);
	w.node = cur->ptraced.next;
	if (!w.node || (__u64)w.node == w.head)
		return 0;
	if (task && (__u64)RD(task, mm) == (__u64)mm && RD(task, ptrace) &&
	    (__u64)RD(task, parent) == (__u64)cur)
		return 1;
	bpf_loop(PM_TRACEES_MAX, walk_tracee, &w, 0);
	return w.found;
}

static __always_inline int allowed(int level, int self_ok, int tracer)
{
	switch (level) {
	case PM_ALWAYS:
		return 1;
	case PM_SELF:
		return self_ok || tracer;
	case PM_PTRACE:
		return tracer;
	default:
		return 0;
	}
}

/* ---- decisions ---- */

/* One check of one access: what the event reports. */
struct check {
	const struct pm_levels *lv;
	struct task_struct *task;	/* the task the file names */
	int tracer;
	short scope;
	unsigned char slot;		/* the scope's counters */
	unsigned int gen;		/* the policy's */
	int probe;			/* procmem's own probe access */
};

/*
 * Is this procmem's probe: its own mem file (the inode procmem named),
 * opened or written by procmem's process, on the file's mm?  Another
 * process with a mem file of the same inode number is not procmem's.
 */
static __always_inline int is_probe(const struct pm_config *cfg, struct file *file,
				    struct task_struct *cur, struct mm_struct *mm)
{
	return cfg->probe_ino && file->f_inode->i_ino == cfg->probe_ino &&
	       cfg->probe_tgid && (__u32)(bpf_get_current_pid_tgid() >> 32) == cfg->probe_tgid &&
	       (__u64)cur->mm == (__u64)mm;
}

struct ns_walk {
	struct user_namespace *ns;
};

static long ns_up(__u32 i, void *data)
{
	struct ns_walk *w = data;
	struct user_namespace *parent;

	(void)i;
	if (!w->ns || w->ns->level <= 1)
		return 1;
	parent = w->ns->parent;
	if (!parent)
		return 1;
	w->ns = parent;
	return 0;
}

/*
 * The accessor's rate bucket, or -1 if it is not limited (CAP_SYS_ADMIN
 * in the initial user namespace): its uid in the initial user
 * namespace, or the owner of the outermost user namespace it is under,
 * so that subordinate uids fall in their owner's bucket.
 */
static __s64 rate_bucket(struct task_struct *cur)
{
	const struct cred *cred = cur->cred;
	struct ns_walk w;
	__u32 caps;

	if (!cred)
		return 0;
	w.ns = cred->user_ns;
	if (!w.ns)
		return cred->uid.val;
	/* kernel_cap_t: { u64 val } from 6.3, { u32 cap[2] } up to 6.2 */
	if (bpf_core_field_exists(struct kernel_cap_struct, cap))
		caps = ((const struct cred___old *)cred)->cap_effective.cap[0];
	else
		caps = (__u32)cred->cap_effective.val;
	if (w.ns->level == 0)
		return caps & (1U << CAP_SYS_ADMIN) ? -1 : (__s64)cred->uid.val;
	bpf_loop(PM_USERNS_MAX, ns_up, &w, 0);
	return w.ns->owner.val;
}

/* Is this the first denial against process @tgid in the interval? */
static int target_first(__u32 tgid, __u64 now)
{
	__u64 *last = bpf_map_lookup_elem(&targets, &tgid);

	if (last && now - *last < PM_TARGET_INTERVAL_NS)
		return 0;
	bpf_map_update_elem(&targets, &tgid, &now, BPF_ANY);
	return 1;
}

/*
 * May @bucket put one more event on the denial ring?  @first: the first
 * denial against its target in the interval, which spends the bucket's
 * allowance of first denials (its own, so junk denials against one
 * target never spend it) before the common one.
 */
static int rate_ok(__s64 bucket, __u64 now, int first)
{
	struct pm_rate *r, init = { .tokens = PM_RATE_BURST, .first = PM_RATE_BURST };
	__u32 key = (__u32)bucket;
	__u64 add;

	if (bucket < 0)
		return 1;
	r = bpf_map_lookup_elem(&rate, &key);
	if (!r) {
		init.last_ns = now;
		if (first)
			init.first--;
		else
			init.tokens--;
		bpf_map_update_elem(&rate, &key, &init, BPF_NOEXIST);
		return 1;
	}
	add = (now - r->last_ns) * PM_RATE_PER_S / 1000000000ULL;
	if (add) {
		r->tokens = r->tokens + add > PM_RATE_BURST ? PM_RATE_BURST : r->tokens + add;
		r->first = r->first + add > PM_RATE_BURST ? PM_RATE_BURST : r->first + add;
		r->last_ns = now;
	}
	if (first && r->first) {
		r->first--;
		return 1;
	}
	if (!r->tokens)
		return 0;
	r->tokens--;
	return 1;
}

static void emit(const struct check *c, struct task_struct *cur, int op, int verdict)
{
	struct task_struct *task = c->task;
	struct pm_event *e;
	__u32 uid = (__u32)bpf_get_current_uid_gid();
	__u64 id, *tc, now = bpf_ktime_get_ns();

	if (verdict == PM_V_ALLOWED) {
		e = bpf_ringbuf_reserve(&accesses, sizeof(*e), 0);
	} else if (rate_ok(rate_bucket(cur), now,
			   task && target_first((__u32)RD(task, tgid), now))) {
		e = bpf_ringbuf_reserve(&denials, sizeof(*e), 0);
	} else {
		count(PM_C_LIMITED(verdict));
		return;
	}
	if (!e) {
		count(PM_C_DROPPED(verdict));
		return;
	}
	e->ts_ns = now;
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->scope = c->scope;
	e->gen = c->gen;
	e->pad2 = 0;
	id = bpf_get_current_pid_tgid();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = uid;
	e->op = op;
	e->level = c->lv->level[op & 3];
	e->verdict = verdict;
	e->tracer = c->tracer;
	e->permissive = c->lv->permissive;
	e->pad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (task) {
		e->target_pid = RD(task, tgid);
		e->target_tid = RD(task, pid);
		tc = (__u64 *)e->target_comm;
#ifdef PM_RDONLY_CAST
		tc[0] = *(__u64 *)&task->comm[0];
		tc[1] = *(__u64 *)&task->comm[8];
#else
		bpf_probe_read_kernel(tc, 16, &task->comm);
#endif
	} else {
		e->target_pid = e->target_tid = 0;
		__builtin_memset(e->target_comm, 0, sizeof(e->target_comm));
	}
	bpf_ringbuf_submit(e, 0);
}

/* Count and report one decision; the error to return. */
static int decide(struct pm_config *cfg, const struct check *c, struct task_struct *cur,
		  int op, int ok)
{
	int v = ok ? PM_V_ALLOWED : c->lv->permissive ? PM_V_WOULD_DENY : PM_V_DENIED;

	if (c->probe) {
		cfg->probe[op & 3] = v + 1;
		cfg->probe_scope = (signed char)c->scope;
		cfg->probe_gen = c->gen;
		return 0;
	}
	count(PM_C_DECIDED(v, op));
	if (v != PM_V_ALLOWED)
		count(PM_C_SCOPE((__u32)c->slot % PM_NSLOTS, (__u32)v, (__u32)op % PM_NOPS));
	if (v != PM_V_ALLOWED || (cfg->flags & PM_F_WATCH_ALLOWED))
		emit(c, cur, op, v);
	return v == PM_V_DENIED ? -EACCES : 0;
}

/* The open of a mem file (file_open, out of line). */
static __noinline int open_check(struct file *file)
{
	struct pm_config *cfg = get_config();
	struct task_struct *cur, *task;
	const struct pm_policy *pol;
	struct mm_struct *mm;
	struct check c;
	int self_ok, rd, wr, lr, lw, err = 0;
	__u32 zero = 0;

	if (!file || !cfg || !pm_mem_fops)
		return 0;
	pol = bpf_map_lookup_elem(&policy, &zero);
	task = file_task(file);
	/* A task gone, or without an mm: mem_open() answers, not the policy. */
	if (!pol || !task)
		return 0;
	mm = RD(task, mm);
	if (!mm)
		return 0;
	cur = bpf_get_current_task_btf();
	c.task = task;
	c.probe = is_probe(cfg, file, cur, mm);
	c.gen = pol->gen;
	c.lv = scope_levels(pol, cur, &c.scope, &c.slot);
	self_ok = (__u64)cur->mm == (__u64)mm;
	lr = file->f_mode & FMODE_READ ? c.lv->level[PM_OPEN_READ] : PM_ALWAYS;
	lw = file->f_mode & FMODE_WRITE ? c.lv->level[PM_OPEN_WRITE] : PM_ALWAYS;
	/* The tracer test only where a level or the opener record asks. */
	c.tracer = 0;
	if ((cfg->flags & PM_F_RECORD) || lr == PM_PTRACE || lw == PM_PTRACE ||
	    (!self_ok && (lr == PM_SELF || lw == PM_SELF)))
		c.tracer = tracer_test(cur, mm, task);
	rd = allowed(lr, self_ok, c.tracer);
	wr = allowed(lw, self_ok, c.tracer);
	if (c.probe) {			/* both verdicts, enforcing neither */
		decide(cfg, &c, cur, PM_OPEN_READ, rd);
		decide(cfg, &c, cur, PM_OPEN_WRITE, wr);
	} else if (!rd) {		/* open_read refuses: open_write is not asked */
		err = decide(cfg, &c, cur, PM_OPEN_READ, 0);
	} else if (!wr) {
		err = decide(cfg, &c, cur, PM_OPEN_WRITE, 0);
	} else {
		decide(cfg, &c, cur, file->f_mode & FMODE_WRITE ? PM_OPEN_WRITE : PM_OPEN_READ, 1);
	}
	if (err)
		return err;
	/*
	 * write=self is tied to the opener: while records are taken, a file
	 * opened by a task on the target's mm or by its tracer is recorded
	 * with that mm, its f_cred and the epoch; any other record at this
	 * address (of a file freed unseen) goes.  mem_open() takes the mm
	 * after this hook; should the target exec in between, the file gets
	 * the new mm and the record does not match it.
	 */
	if (cfg->flags & PM_F_RECORD) {
		__u64 key = (__u64)file;

		if (self_ok || c.tracer) {
			struct pm_opener o = {
				.mm = (__u64)mm, .cred = (__u64)file->f_cred,
				.epoch = cfg->epoch,
			};

			if (bpf_map_update_elem(&files, &key, &o, BPF_ANY))
				count(PM_C_FILES_FULL);
		} else {
			bpf_map_delete_elem(&files, &key);
		}
	}
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(pm_file_open, struct file *file, int ret)
{
	if (ret || !is_mem_file(file))
		return ret;
	return open_check(file);
}

/* A write through a mem file (file_permission, out of line). */
static __noinline int write_check(struct file *file)
{
	struct pm_config *cfg = get_config();
	struct task_struct *cur;
	const struct pm_policy *pol;
	struct mm_struct *mm;
	struct pm_opener *o;
	struct check c;
	int self_ok, level;
	__u64 key;
	__u32 zero = 0;

	if (!file || !cfg || !pm_mem_fops)
		return 0;
	mm = file_mm(file);
	if (!mm)	/* mem_rw() writes nothing, checks nothing */
		return 0;
	/* The address space is gone (exec, exit): mem_rw() returns 0. */
	if (!RD(PM_CAST(mm, struct mm_struct), mm_users.counter))
		return 0;
	pol = bpf_map_lookup_elem(&policy, &zero);
	if (!pol)
		return 0;
	cur = bpf_get_current_task_btf();
	c.probe = is_probe(cfg, file, cur, mm);
	c.gen = pol->gen;
	c.lv = scope_levels(pol, cur, &c.scope, &c.slot);
	c.task = file_task(file);
	level = c.lv->level[PM_WRITE];
	c.tracer = level == PM_SELF || level == PM_PTRACE ? tracer_test(cur, mm, c.task) : 0;
	self_ok = 0;
	if (level == PM_SELF && (__u64)cur->mm == (__u64)mm) {
		key = (__u64)file;
		o = bpf_map_lookup_elem(&files, &key);
		self_ok = o && o->mm == (__u64)mm && o->cred == (__u64)file->f_cred &&
			  o->epoch == cfg->epoch && (cfg->flags & PM_F_RECORD);
	}
	return decide(cfg, &c, cur, PM_WRITE, allowed(level, self_ok, c.tracer));
}

/*
 * Every read and write on the machine comes here while this is attached:
 * the test for a mem file is all it does for them, the rest is out of
 * line (with the config lookup) so that this part uses no stack and
 * saves and restores no more registers than it needs.
 */
SEC("lsm/file_permission")
int BPF_PROG(pm_file_permission, struct file *file, int mask, int ret)
{
	if (ret || !(mask & MAY_WRITE) || !is_mem_file(file))
		return ret;
	return write_check(file);
}

SEC("lsm/file_free_security")
int BPF_PROG(pm_file_free, struct file *file)
{
	__u64 key = (__u64)file;

	if (is_mem_file(file) && pm_mem_fops)
		bpf_map_delete_elem(&files, &key);
	return 0;
}

/*
 * Attached by procmem only while it opens its own /proc/self/mem (or
 * another proc file, to check that the two differ): the f_op of the file
 * with the inode number procmem asked for, opened by its thread.
 */
SEC("lsm/file_open")
int BPF_PROG(pm_calibrate, struct file *file, int ret)
{
	struct pm_config *cfg = get_config();
	struct inode *inode = file->f_inode;

	if (!cfg || !cfg->cal_tid || (__u32)bpf_get_current_pid_tgid() != cfg->cal_tid)
		return ret;
	if (inode->i_ino == cfg->cal_ino && inode->i_sb->s_magic == PROC_SUPER_MAGIC)
		cfg->cal_fops = (__u64)file->f_op;
	return ret;
}
