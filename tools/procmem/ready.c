// SPDX-License-Identifier: GPL-2.0
/*
 * Can the BPF LSM enforcer load on this kernel?  One answer for procmem
 * enforce (before it loads anything), status and advise, from what the
 * kernel shows without loading a program:
 *
 *   BTF          /sys/kernel/btf/vmlinux readable            else 6
 *   BPF LSM      "bpf" in /sys/kernel/security/lsm           else 5
 *   the BTF      every type and field the programs read (any else 13
 *                of its CO-RE spellings: kernfs_node.parent
 *                or .__parent), every LSM hook they attach
 *                to (bpf_lsm_HOOK) and the helpers they call
 *   lockdown     the object this kernel takes (bpf_rdonly_cast  else 10
 *                kfunc: enforcer_cast, else enforcer_read) is
 *                allowed: enforcer_read reads with
 *                bpf_probe_read_kernel, which
 *                lockdown=confidentiality forbids
 *
 * A refusal is one line (why), never libbpf's or the verifier's log.
 * PROCMEM_BTF=FILE (tests only: tests/enforcer) makes every BTF question
 * here read FILE (raw BTF or an ELF vmlinux) instead of the kernel's.
 */
#include "procmem.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define LSM_FILE	"/sys/kernel/security/lsm"
#define LOCKDOWN_FILE	"/sys/kernel/security/lockdown"
#define BTF_FILE	"/sys/kernel/btf/vmlinux"

/*
 * Every field bpf/enforcer.bpf.c reads, by struct, with its spellings: a
 * field is there when the struct has a member (directly or in an
 * anonymous struct or union) of one of the names.  A struct spelt
 * "?NAME" is an older kernel's flavour (6.1's struct kernel_cap_struct
 * inside kernel_cap_t): its field is needed only where it exists.  The
 * same names as
 * bpf/vmlinux.h (its ___old/___new flavours as "a|b"); tests/enforcer/
 * fields holds this list to the fields the objects relocate.
 */
static const struct need_field {
	const char *type, *fields;
} need_fields[] = {
	{ "file", "f_inode" }, { "file", "f_op" }, { "file", "f_mode" },
	{ "file", "private_data" }, { "file", "f_cred" },
	{ "inode", "i_ino" }, { "inode", "i_sb" },
	{ "super_block", "s_magic" },
	{ "proc_inode", "pid" }, { "proc_inode", "vfs_inode" },
	{ "pid", "tasks" },
	{ "hlist_head", "first" },
	{ "list_head", "next" },
	{ "mm_struct", "mm_users" },
	{ "task_struct", "ptrace" }, { "task_struct", "mm" },
	{ "task_struct", "pid" }, { "task_struct", "tgid" }, { "task_struct", "parent" },
	{ "task_struct", "ptraced" }, { "task_struct", "ptrace_entry" },
	{ "task_struct", "pid_links" },
	{ "task_struct", "cgroups" }, { "task_struct", "cred" },
	{ "task_struct", "comm" },
	{ "css_set", "dfl_cgrp" },
	{ "cgroup", "kn" }, { "cgroup", "level" },
	{ "kernfs_node", "parent|__parent" }, { "kernfs_node", "name" },
	{ "kernfs_node", "id" },
	{ "linux_binprm", "buf" },
	{ "cred", "uid" }, { "cred", "user_ns" }, { "cred", "cap_effective" },
	{ "?kernel_cap_struct", "cap" },
	{ "user_namespace", "parent" }, { "user_namespace", "level" },
	{ "user_namespace", "owner" },
};

/* The hooks the programs attach to: BPF LSM's bpf_lsm_HOOK functions. */
static const char *const need_hooks[] = { "file_open", "file_permission", "file_free_security" };

/* The helpers both objects call (enum bpf_func_id's BPF_FUNC_NAME);
 * enforcer_read also bpf_probe_read_kernel(_str). */
static const char *const need_helpers[] = {
	"map_lookup_elem", "map_update_elem", "map_delete_elem", "ringbuf_reserve",
	"ringbuf_submit", "loop", "get_current_task_btf", "get_current_pid_tgid",
	"get_current_uid_gid", "get_current_cgroup_id", "get_current_comm", "ktime_get_ns",
};
static const char *const probe_helpers[] = { "probe_read_kernel", "probe_read_kernel_str" };

/* The BTF the checks read: PROCMEM_BTF (tests) or the kernel's. */
static const char *btf_path(void)
{
	const char *p = getenv("PROCMEM_BTF");

	return p && *p ? p : BTF_FILE;
}

/* The lockdown mode in force: "none", "integrity" or "confidentiality". */
static void lockdown_mode(char *out, size_t n)
{
	char buf[128], *b, *e;

	snprintf(out, n, "none");
	if (!pm_read_line(LOCKDOWN_FILE, buf, sizeof(buf)) && (b = strchr(buf, '[')) &&
	    (e = strchr(b, ']'))) {
		*e = 0;
		snprintf(out, n, "%s", b + 1);
	}
}

/* Is BPF LSM in the kernel's active list?  1, 0, or -1 unreadable. */
static int lsm_active(char *list, size_t n, int may_mount)
{
	ssize_t len = pm_read_small(LSM_FILE, list, n);

	if (len < 0 && may_mount) {
		/* securityfs is not mounted on a bare system: mount it. */
		mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
		len = pm_read_small(LSM_FILE, list, n);
	}
	if (len < 0) {
		list[0] = 0;
		return -1;
	}
	list[strcspn(list, "\n")] = 0;
	for (char *s = list, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, ",");
		if (e - s == 3 && !strncmp(s, "bpf", 3))
			return 1;
	}
	return 0;
}

/* lsm= for the kernel command line: the active list, then bpf. */
static void lsm_param(const char *list, char *out, size_t n)
{
	size_t len = 0;

	out[0] = 0;
	for (const char *s = list, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, ",");
		if (e - s == 10 && !strncmp(s, "capability", 10))
			continue;	/* always first, implied */
		len += snprintf(out + len, n - len, "%.*s,", (int)(e - s), s);
		if (len >= n)
			return;
	}
	snprintf(out + len, n - len, "bpf");
}

/* Does struct @t (through anonymous members, at most 8 deep) have a
 * member @name of @len bytes? */
static int has_member(const struct btf *btf, const struct btf_type *t, const char *name,
		      size_t len, int depth)
{
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);

		if (mn && *mn) {
			if (strlen(mn) == len && !strncmp(mn, name, len))
				return 1;
			continue;
		}
		/* an anonymous struct or union: its members are the struct's */
		if (depth < 8) {
			__s32 aid = btf__resolve_type(btf, m->type);
			const struct btf_type *a = aid > 0 ? btf__type_by_id(btf, (__u32)aid) : NULL;

			if (a && (btf_is_struct(a) || btf_is_union(a)) &&
			    has_member(btf, a, name, len, depth + 1))
				return 1;
		}
	}
	return 0;
}

/* Does struct @id have a field of one of the "a|b" spellings? */
static int has_field(const struct btf *btf, __s32 id, const char *fields)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;

	if (!t)
		return 0;
	for (const char *s = fields, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "|");
		if (has_member(btf, t, s, (size_t)(e - s), 0))
			return 1;
	}
	return 0;
}

/* Is BPF_FUNC_@name an enumerator of enum bpf_func_id (@id)? */
static int has_helper(const struct btf *btf, __s32 id, const char *name)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
	char want[64];

	if (!t)
		return 0;
	snprintf(want, sizeof(want), "BPF_FUNC_%s", name);
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(btf, btf_enum(t)[i].name_off);

		if (n && !strcmp(n, want))
			return 1;
	}
	return 0;
}

#define NFIELDS	(sizeof(need_fields) / sizeof(need_fields[0]))
#define NHOOKS	(sizeof(need_hooks) / sizeof(need_hooks[0]))

/* What the checks look up, found in one pass over the BTF's types (a
 * kernel's has some 140,000: one lookup by name is a pass of its own). */
struct found {
	__s32 type[NFIELDS];		/* struct need_fields[i].type */
	int hook[NHOOKS];		/* function bpf_lsm_HOOK */
	int cast;			/* function bpf_rdonly_cast */
	__s32 func_id;			/* enum bpf_func_id */
};

static void find_all(const struct btf *btf, struct found *f)
{
	__u32 n = btf__type_cnt(btf);

	memset(f, 0, sizeof(*f));
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!name || !*name)
			continue;
		if (btf_is_struct(t)) {
			for (size_t i = 0; i < NFIELDS; i++)
				if (!f->type[i] && !strcmp(name, need_fields[i].type +
							   (need_fields[i].type[0] == '?')))
					f->type[i] = (__s32)id;
		} else if (btf_is_func(t) && !strncmp(name, "bpf_", 4)) {
			if (!strcmp(name, "bpf_rdonly_cast"))
				f->cast = 1;
			for (size_t i = 0; !strncmp(name, "bpf_lsm_", 8) && i < NHOOKS; i++)
				if (!strcmp(name + 8, need_hooks[i]))
					f->hook[i] = 1;
		} else if (btf_is_enum(t) && !f->func_id && !strcmp(name, "bpf_func_id")) {
			f->func_id = (__s32)id;
		}
	}
}

/* "parent|__parent" as "parent or __parent". */
static void spellings(const char *fields, char *out, size_t n)
{
	size_t len = 0;

	out[0] = 0;
	for (const char *s = fields, *e; *s && len < n; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "|");
		len += (size_t)snprintf(out + len, n - len, "%s%.*s", len ? " or " : "",
					(int)(e - s), s);
	}
}

/*
 * Everything the programs need from the BTF at @path; sets *cast (the
 * bpf_rdonly_cast kfunc is there).  EXIT_OK, or EXIT_NO_BTF when the
 * file cannot be parsed, EXIT_BTF_LACKS naming the first thing missing.
 */
static int btf_check(const char *path, int *cast, char *why, size_t n)
{
	libbpf_print_fn_t print = libbpf_set_print(NULL);	/* one line: ours */
	struct btf *btf = btf__parse(path, NULL);
	int rc = EXIT_OK, err = errno;
	struct found f;
	char what[128];

	libbpf_set_print(print);
	*cast = 0;
	if (!btf) {
		libbpf_strerror(-err, what, sizeof(what));
		snprintf(why, n, "cannot read the kernel's BTF (%s): %s", path, what);
		return EXIT_NO_BTF;
	}
	find_all(btf, &f);
	what[0] = 0;
	for (size_t i = 0; !what[0] && i < NFIELDS; i++) {
		const struct need_field *nf = &need_fields[i];
		char sp[64];

		if (!f.type[i] && nf->type[0] == '?') {
			continue;
		} else if (!f.type[i]) {
			snprintf(what, sizeof(what), "struct %s", nf->type);
		} else if (!has_field(btf, f.type[i], nf->fields)) {
			spellings(nf->fields, sp, sizeof(sp));
			snprintf(what, sizeof(what), "struct %s field %s",
				 nf->type + (nf->type[0] == '?'), sp);
		}
	}
	for (size_t i = 0; !what[0] && i < NHOOKS; i++)
		if (!f.hook[i])
			snprintf(what, sizeof(what), "LSM hook %s (function bpf_lsm_%s)",
				 need_hooks[i], need_hooks[i]);
	for (size_t i = 0; !what[0] && i < sizeof(need_helpers) / sizeof(need_helpers[0]); i++)
		if (!has_helper(btf, f.func_id, need_helpers[i]))
			snprintf(what, sizeof(what), "BPF helper bpf_%s", need_helpers[i]);
	if (!what[0]) {
		*cast = f.cast;
		for (size_t i = 0; !*cast && !what[0] && i < sizeof(probe_helpers) / sizeof(probe_helpers[0]); i++)
			if (!has_helper(btf, f.func_id, probe_helpers[i]))
				snprintf(what, sizeof(what), "kfunc bpf_rdonly_cast nor BPF helper bpf_%s",
					 probe_helpers[i]);
	}
	if (what[0]) {
		snprintf(why, n, "this kernel's BTF has no %s: the enforcer cannot load here", what);
		rc = EXIT_BTF_LACKS;
	}
	btf__free(btf);
	return rc;
}

/*
 * All the checks, in order: BTF, BPF LSM, what the BTF holds, lockdown.
 * @strict (procmem enforce): securityfs is mounted if need be and an
 * unreadable LSM list refuses; else nothing is mounted and an unknown
 * LSM list is not refused (*lsm -1).
 */
static int ready(char *why, size_t n, int strict, struct pm_ready *r)
{
	char list[256], mode[32];
	int rc;

	memset(r, 0, sizeof(*r));
	why[0] = 0;
	r->lsm = lsm_active(list, sizeof(list), strict);
	if (access(btf_path(), R_OK)) {
		snprintf(why, n, "the kernel has no BTF (%s): it needs CONFIG_DEBUG_INFO_BTF=y",
			 btf_path());
		return EXIT_NO_BTF;
	}
	if (r->lsm < 0 && strict) {
		snprintf(why, n, "BPF LSM: cannot read %s: %s", LSM_FILE, strerror(errno));
		return EXIT_NO_BPF_LSM;
	}
	if (r->lsm == 0) {
		lsm_param(list, r->param + 4, sizeof(r->param) - 4);
		memcpy(r->param, "lsm=", 4);
		snprintf(why, n, "BPF LSM is not active (%s: %s): boot with %s", LSM_FILE, list,
			 r->param);
		return EXIT_NO_BPF_LSM;
	}
	rc = btf_check(btf_path(), &r->cast, why, n);
	if (rc)
		return rc;
	lockdown_mode(mode, sizeof(mode));
	if (!r->cast && !strcmp(mode, "confidentiality")) {
		snprintf(why, n, "lockdown=confidentiality forbids bpf_probe_read and this kernel has no bpf_rdonly_cast (6.2 and later): the enforcer cannot read the kernel here");
		return EXIT_LOCKDOWN;
	}
	return EXIT_OK;
}

int enforcer_ready(char *why, size_t len)
{
	struct pm_ready r;

	return ready(why, len, 0, &r);
}

/* procmem enforce asks twice (its preflight, then right before loading):
 * the BTF is read once per process. */
int pm_ready(char *why, size_t n, int strict, struct pm_ready *r)
{
	static struct {
		int done, rc;
		struct pm_ready r;
		char why[600];
	} last;

	if (!last.done || !strict) {
		int rc = ready(why, n, strict, r);

		if (strict) {
			last.done = 1;
			last.rc = rc;
			last.r = *r;
			snprintf(last.why, sizeof(last.why), "%s", why);
		}
		return rc;
	}
	*r = last.r;
	snprintf(why, n, "%s", last.why);
	return last.rc;
}

int pm_loadable(char *why, size_t n, char *param, size_t pn, int *lsm)
{
	struct pm_ready r;
	int rc = ready(why, n, 0, &r);

	if (param && pn)
		snprintf(param, pn, "%s", r.param);
	*lsm = r.lsm;
	return rc;
}
