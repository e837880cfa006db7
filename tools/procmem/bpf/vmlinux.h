/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel types the enforcer reads, written by hand instead of a
 * `bpftool btf dump` of some kernel's BTF.  Every struct is marked
 * preserve_access_index, so each field access is a CO-RE relocation that
 * libbpf resolves at load time against the running kernel's own BTF
 * (/sys/kernel/btf/vmlinux): the object does not depend on the kernel it
 * was built on, only the field names below must exist in the kernel it
 * runs on (Debian's 6.1, 6.12, 7.2 and 7.3 checked; tests/enforcer
 * loads it on each).  A generated vmlinux.h would be 100k lines tied to
 * one kernel build and would need that kernel at build time; these ~70
 * lines are reviewable.
 *
 * A field the kernel renamed is declared in CO-RE flavours (a type named
 * NAME___SUFFIX, which libbpf matches to the kernel's NAME), one per
 * spelling, and read through bpf_core_field_exists(): libbpf resolves
 * that test to a constant at load time, so the verifier never sees the
 * other branch.  procmem checks the same names against the running
 * kernel's BTF before loading (ready.c, which lists every field read
 * here: keep the two in step).
 */
#ifndef PROCMEM_VMLINUX_H
#define PROCMEM_VMLINUX_H

#include <linux/types.h>

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct file_operations;

typedef struct {
	__u32 val;
} kuid_t;

struct user_namespace {
	struct user_namespace *parent;
	int level;
	kuid_t owner;
};

/* cap_effective is kernel_cap_t: { u64 val } from 6.3, { u32 cap[2] }
 * (struct kernel_cap_struct) before: two flavours of cred. */
typedef struct {
	__u64 val;
} kernel_cap_t;

struct cred {
	kuid_t uid;
	struct user_namespace *user_ns;
	kernel_cap_t cap_effective;
};

struct kernel_cap_struct {
	__u32 cap[2];
};

struct cred___old {
	struct kernel_cap_struct cap_effective;
};

typedef struct {
	int counter;
} atomic_t;

struct mm_struct {
	atomic_t mm_users;
};

struct super_block {
	unsigned long s_magic;
};

struct inode {
	unsigned long i_ino;
	struct super_block *i_sb;
};

struct file {
	struct inode *f_inode;
	const struct file_operations *f_op;
	unsigned int f_mode;
	void *private_data;
	const struct cred *f_cred;
};

struct kernfs_node {
	const char *name;
	unsigned long long id;
};

/* The parent: `parent` up to 6.14, `__parent` (under RCU) from 6.15. */
struct kernfs_node___old {
	struct kernfs_node *parent;
};

struct kernfs_node___new {
	struct kernfs_node *__parent;
};

struct cgroup {
	struct kernfs_node *kn;
	int level;
};

struct css_set {
	struct cgroup *dfl_cgrp;
};

/* Only as a type to read a name through: buf is char[BINPRM_BUF_SIZE],
 * 256 bytes in every kernel since 5.1, so a cgroup's name (NAME_MAX)
 * and its NUL fit in it. */
struct linux_binprm {
	char buf[256];
};

enum pid_type { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_PGID, PIDTYPE_SID, PIDTYPE_MAX };

struct pid {
	struct hlist_head tasks[PIDTYPE_MAX];
};

struct proc_inode {
	struct pid *pid;
	struct inode vfs_inode;
};

struct task_struct {
	unsigned int ptrace;
	struct mm_struct *mm;
	int pid;
	int tgid;
	struct task_struct *parent;
	struct list_head ptraced;	/* the tasks this one traces */
	struct list_head ptrace_entry;	/* in its tracer's ptraced */
	struct hlist_node pid_links[PIDTYPE_MAX];
	struct css_set *cgroups;
	const struct cred *cred;
	char comm[16];
};

#pragma clang attribute pop

#endif
