// SPDX-License-Identifier: GPL-2.0
/*
 * procmem's enforcer: the /proc/PID/mem policy of docs/interface.md for
 * open_read, open_write and write, on a kernel without the series,
 * through BPF LSM.
 *
 *   lsm/file_open          open_read, then open_write: one denial per
 *                          refused open; records who opened the file
 *   lsm/file_permission    write (MAY_WRITE), at every write
 *   lsm/file_free_security forgets the file
 *
 * A mem file is recognised by its file_operations, the kernel's
 * proc_mem_operations (/proc/PID/mem and /proc/PID/task/TID/mem share
 * them), resolved by libbpf from kallsyms: no path string is trusted.
 * The task the file names is the task of the proc inode's pid, the
 * file's mm is private_data (set by mem_open, after file_open: at open
 * the mm the file will get is the task's mm, which mem_open takes).
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
#define PF_EXITING	0x4

char LICENSE[] SEC("license") = "GPL";

extern const void proc_mem_operations __ksym;

/*
 * Not preallocated: an update links a new element and frees the old one
 * after RCU, so a program never reads a policy half overwritten (a
 * preallocated map recycles the old element at once).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, PM_POLICY_MAX);
	__type(key, __u64);		/* cgroup id, 0: the whole machine */
	__type(value, struct pm_policy);
} policy SEC(".maps");

/*
 * The open mem files whose opener used the target's mm or traced it,
 * with that mm: write=self is tied to the opener.  Only such files are
 * recorded, on demand (no preallocation); a file missing from the map,
 * for instance because it is full, counts as opened by another: refused
 * at self, never wrongly allowed.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, PM_FILES_MAX);
	__type(key, __u64);		/* struct file pointer */
	__type(value, __u64);		/* the mm at open */
} files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PM_C_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PM_RINGBUF_SIZE);
} events SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		__sync_fetch_and_add(c, 1);
}

static __always_inline int is_mem_file(struct file *file)
{
	return (unsigned long)file->f_op == (unsigned long)&proc_mem_operations;
}

/*
 * The policy for current: that of the deepest cgroup-v2 ancestor (or the
 * cgroup itself) with an override, else the machine's, copied into @out
 * so that one decision reads one policy.  0: none set.
 */
static int current_policy(struct pm_policy *out, __u64 *scope)
{
	const struct pm_policy *p, *found = NULL;
	__u64 id;

	*scope = 0;
	for (int i = 0; i < PM_CGROUP_DEPTH; i++) {
		id = bpf_get_current_ancestor_cgroup_id(i);
		if (!id)
			break;
		p = bpf_map_lookup_elem(&policy, &id);
		if (p) {
			found = p;
			*scope = id;
		}
	}
	if (!found) {
		id = 0;
		found = bpf_map_lookup_elem(&policy, &id);
	}
	if (!found)
		return 0;
	__builtin_memcpy(out, found, sizeof(*out));
	return 1;
}

/* The file's mm: private_data, without the patched kernel's opener bit. */
static __always_inline struct mm_struct *file_mm(struct file *file)
{
	return (void *)((unsigned long)file->private_data & ~1UL);
}

/* pid_task(proc_pid(file_inode(file)), PIDTYPE_PID); NULL if gone. */
static struct task_struct *file_task(struct file *file)
{
	struct inode *inode = file->f_inode;
	struct proc_inode *pi = (void *)inode -
		bpf_core_field_offset(struct proc_inode, vfs_inode);
	struct pid *pid = BPF_CORE_READ(pi, pid);
	struct hlist_node *first = NULL;

	if (!pid)
		return NULL;
	bpf_core_read(&first, sizeof(first), &pid->tasks[PIDTYPE_PID].first);
	if (!first)
		return NULL;
	return (void *)first - bpf_core_field_offset(struct task_struct, pid_links);
}

/* Is current the active ptracer of @t, and does @t use @mm? */
static __always_inline int task_tracer(struct task_struct *t,
				       struct task_struct *cur,
				       struct mm_struct *mm)
{
	return BPF_CORE_READ(t, ptrace) && BPF_CORE_READ(t, mm) == mm &&
	       BPF_CORE_READ(t, parent) == cur;
}

struct walk {
	struct task_struct *cur;
	struct mm_struct *mm;
	struct list_head *head, *node;
	int found;
};

static long walk_thread(__u32 i, void *data)
{
	struct walk *w = data;
	struct task_struct *t;

	(void)i;
	if (!w->node || w->node == w->head)
		return 1;
	t = (void *)w->node - bpf_core_field_offset(struct task_struct, thread_node);
	if (task_tracer(t, w->cur, w->mm)) {
		w->found = 1;
		return 1;
	}
	w->node = BPF_CORE_READ(t, thread_node.next);
	return 0;
}

/*
 * The tracer test T.  For an exited thread-group leader (no mm, still
 * named by /proc/PID/mem while its other threads run on) the tracer of
 * any thread of the group that uses @mm passes.  The walk is bounded by
 * PM_THREADS_MAX threads (bpf_loop): past that bound T fails, so a
 * larger group can only be refused, never wrongly allowed.
 */
static int tracer_test(struct task_struct *task, struct task_struct *cur,
		       struct mm_struct *mm)
{
	struct signal_struct *sig;
	struct walk w = { .cur = cur, .mm = mm };

	if (!task)
		return 0;
	if (BPF_CORE_READ(task, group_leader) != task ||
	    !(BPF_CORE_READ(task, flags) & PF_EXITING) ||
	    BPF_CORE_READ(task, mm))
		return task_tracer(task, cur, mm);
	sig = BPF_CORE_READ(task, signal);
	if (!sig)
		return 0;
	w.head = (void *)sig + bpf_core_field_offset(struct signal_struct, thread_head);
	w.node = BPF_CORE_READ(sig, thread_head.next);
	bpf_loop(PM_THREADS_MAX, walk_thread, &w, 0);
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

/* One check of one access: what the event reports. */
struct check {
	struct pm_policy pol;
	struct task_struct *task;	/* the task the file names */
	__u64 scope;			/* cgroup id of pol, 0: machine */
	int tracer;
};

static void emit(const struct check *c, int op, int verdict)
{
	struct pm_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	struct task_struct *task = c->task;
	__u64 id;

	if (!e) {
		count(PM_C_EVENTS_DROPPED);
		return;
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->scope = c->scope;
	id = bpf_get_current_pid_tgid();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->target_pid = task ? BPF_CORE_READ(task, tgid) : 0;
	e->target_tid = task ? BPF_CORE_READ(task, pid) : 0;
	e->op = op;
	e->level = c->pol.level[op & 3];
	e->verdict = verdict;
	e->tracer = c->tracer;
	e->permissive = c->pol.permissive;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->target_comm[0] = 0;
	if (task)
		BPF_CORE_READ_STR_INTO(&e->target_comm, task, comm);
	bpf_ringbuf_submit(e, 0);
}

/* Count and report one decision; the error to return. */
static int decide(const struct check *c, int op, int ok)
{
	if (ok) {
		count(PM_C_ALLOWED + op);
		emit(c, op, PM_V_ALLOWED);
		return 0;
	}
	if (c->pol.permissive) {
		count(PM_C_WOULD_DENY + op);
		emit(c, op, PM_V_WOULD_DENY);
		return 0;
	}
	count(PM_C_DENIED + op);
	emit(c, op, PM_V_DENIED);
	return -EACCES;
}

SEC("lsm/file_open")
int BPF_PROG(pm_file_open, struct file *file, int ret)
{
	struct task_struct *cur, *task;
	struct mm_struct *mm;
	struct check c;
	int self_ok, op = -1, err = 0;
	__u64 key, at_open;

	if (ret || !is_mem_file(file))
		return ret;
	cur = (struct task_struct *)bpf_get_current_task();
	task = file_task(file);
	c.task = task;
	/* The mm mem_open() will take for the file. */
	mm = task ? BPF_CORE_READ(task, mm) : NULL;
	c.tracer = tracer_test(c.task, cur, mm);
	self_ok = BPF_CORE_READ(cur, mm) == mm;

	if (current_policy(&c.pol, &c.scope)) {
		/* open_read first; if it refuses, open_write is not checked. */
		if ((file->f_mode & FMODE_READ) &&
		    !allowed(c.pol.level[PM_OPEN_READ], self_ok, c.tracer))
			op = PM_OPEN_READ;
		else if ((file->f_mode & FMODE_WRITE) &&
			 !allowed(c.pol.level[PM_OPEN_WRITE], self_ok, c.tracer))
			op = PM_OPEN_WRITE;
		if (op >= 0)
			err = decide(&c, op, 0);
		else
			decide(&c, file->f_mode & FMODE_WRITE ? PM_OPEN_WRITE : PM_OPEN_READ, 1);
		if (err)
			return err;
	}
	/*
	 * write=self is tied to the opener: remember a file opened by a task
	 * on the target's mm or by its tracer, with that mm.  mem_open()
	 * takes the mm after this hook; should the target exec in between,
	 * the file gets the new mm and the record does not match it.
	 */
	if (!self_ok && !c.tracer)
		return 0;
	key = (__u64)file;
	at_open = (__u64)mm;
	if (bpf_map_update_elem(&files, &key, &at_open, BPF_ANY))
		count(PM_C_FILES_FULL);
	return 0;
}

SEC("lsm/file_permission")
int BPF_PROG(pm_file_permission, struct file *file, int mask, int ret)
{
	struct task_struct *cur;
	struct mm_struct *mm;
	struct check c;
	int self_ok;
	__u64 key, *at_open;

	if (ret || !(mask & MAY_WRITE) || !is_mem_file(file))
		return ret;
	mm = file_mm(file);
	if (!mm)	/* mem_rw() writes nothing, checks nothing */
		return 0;
	if (!current_policy(&c.pol, &c.scope))
		return 0;
	cur = (struct task_struct *)bpf_get_current_task();
	c.task = file_task(file);
	c.tracer = tracer_test(c.task, cur, mm);
	key = (__u64)file;
	at_open = bpf_map_lookup_elem(&files, &key);
	self_ok = BPF_CORE_READ(cur, mm) == mm && at_open &&
		  *at_open == (__u64)mm;
	return decide(&c, PM_WRITE,
		      allowed(c.pol.level[PM_WRITE], self_ok, c.tracer));
}

SEC("lsm/file_free_security")
int BPF_PROG(pm_file_free, struct file *file)
{
	__u64 key = (__u64)file;

	if (is_mem_file(file))
		bpf_map_delete_elem(&files, &key);
	return 0;
}
