// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM enforcer's loader: loads bpf/procmem.bpf.c, learns which
 * f_op a mem file has, pins, attaches only the hooks the policy needs,
 * proves with a probe that the programs decide, and inspects what is
 * pinned (complete or degraded).
 *
 * Everything lives under PM_PIN_DIR: the maps, the three programs and
 * the links that attach them, and nothing else holds a link: procmem
 * checks a link pin and closes it (a watch keeps only the maps it
 * reads), so removing the pins detaches the programs.  A first load (or
 * a repair) pins maps and programs in a new directory, attaches with
 * links held as fds, exchanges the directory with PM_PIN_DIR and only
 * then pins the links: killed before that, the load leaves no attached
 * program, only inert pins that the next load or --off sweeps.  A
 * repaired enforcer stays aside, detached, until the new one passed its
 * self-check, and is put back if it does not.  A policy change keeps the
 * maps and changes the attachments around the one update of the policy
 * map: a hook a tighter policy needs is attached before the update, one
 * a looser policy no longer needs is detached after it, so no decision
 * ever misses a hook its policy needs; a change whose self-check fails
 * puts the previous policy back.
 */
#include "procmem.h"
#include "bpf/enforcer.h"
#include "procmem_cast.skel.h"
#include "procmem_probe.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#define BPF_FS_MAGIC	0xcafe4a11
#define LOCK_FILE	"/run/procmem.lock"

const char *const pm_map_names[PM_NMAPS] = {
	"config", "policy", "cgcache", "files", "counters", "rate", "denials", "accesses",
	"fops",		/* the .bss of the programs: pm_mem_fops */
};
/* Programs and their links, pinned as prog_NAME and NAME. */
const char *const pm_hook_names[PM_NHOOKS] = { "file_open", "file_permission", "file_free" };
static const char *const prog_names[PM_NHOOKS] = {
	"pm_file_open", "pm_file_permission", "pm_file_free",
};

/* libbpf's messages: kept, shown when loading fails with --verbose. */
static char bpf_log[1 << 18];
static size_t bpf_log_len;
int pm_verbose;

static int bpf_print(enum libbpf_print_level lv, const char *fmt, va_list ap)
{
	int n;

	if (getenv("PM_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	if (lv == LIBBPF_DEBUG || bpf_log_len >= sizeof(bpf_log) - 1)
		return 0;
	n = vsnprintf(bpf_log + bpf_log_len, sizeof(bpf_log) - bpf_log_len, fmt, ap);
	if (n > 0)
		bpf_log_len += (size_t)n < sizeof(bpf_log) - bpf_log_len ?
			(size_t)n : sizeof(bpf_log) - bpf_log_len - 1;
	return n;
}

int pm_refuse(int rc, const char *fmt, ...)
{
	va_list ap;

	if (pm_verbose && bpf_log_len)
		fputs(bpf_log, stderr);
	fputs("procmem: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return rc;
}

static int fs_is(const char *path, long magic)
{
	struct statfs s;

	return statfs(path, &s) == 0 && (long)s.f_type == magic;
}

int pm_bpffs(void)
{
	if (fs_is("/sys/fs/bpf", BPF_FS_MAGIC))
		return 0;
	/* as systemd mounts it: no one but root may create names there */
	return mount("bpf", "/sys/fs/bpf", "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=700");
}

int pm_lock(void)
{
	int fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* ---- the policy: what it needs ---- */

static int any_write(const struct pm_policy *p, int level, int exact)
{
	const struct pm_levels *lv[PM_OVERRIDES_MAX + 2];
	int n = 0;

	lv[n++] = &p->machine;
	lv[n++] = &p->strictest;
	for (int i = 0; i < p->noverrides && i < PM_OVERRIDES_MAX; i++)
		lv[n++] = &p->ov[i].lv;
	for (int i = 0; i < n; i++)
		if (exact ? lv[i]->level[PM_WRITE] == level : lv[i]->level[PM_WRITE] != level)
			return 1;
	return 0;
}

/* Hooks the policy needs attached: file_permission while some scope
 * restricts write, file_free while some scope has write=self. */
unsigned int pm_hooks_needed(const struct pm_policy *p)
{
	unsigned int h = 1U << PM_HOOK_OPEN;

	if (any_write(p, PM_ALWAYS, 0))
		h |= 1U << PM_HOOK_PERMISSION;
	if (any_write(p, PM_SELF, 1))
		h |= 1U << PM_HOOK_FREE;
	return h;
}

/* The per-operation maximum over every scope: for cgroups too deep to
 * walk, enforcing unless every scope is permissive.  An override is
 * permissive if it says so, or if the machine is (as the levels it does
 * not name follow the machine's). */
void pm_policy_finish(struct pm_policy *p)
{
	/* deepest first, in the order given among equals (insertion sort) */
	for (int i = 1; i < p->noverrides && i < PM_OVERRIDES_MAX; i++) {
		struct pm_override t = p->ov[i];
		int j = i;

		for (; j > 0 && p->ov[j - 1].depth < t.depth; j--)
			p->ov[j] = p->ov[j - 1];
		p->ov[j] = t;
	}
	if (p->noverrides > PM_OVERRIDES_MAX)
		p->noverrides = PM_OVERRIDES_MAX;
	/* levels an override does not name follow the machine's */
	for (int i = 0; i < p->noverrides; i++)
		for (int o = 0; o < PM_NOPS; o++)
			p->ov[i].lv.level[o] = (p->ov[i].set & (1U << o)) ?
					       p->ov[i].own.level[o] : p->machine.level[o];
	for (int i = 0; i < p->noverrides; i++)
		p->ov[i].lv.permissive = p->ov[i].own.permissive || p->machine.permissive;
	memset(p->cand, 0, sizeof(p->cand));
	for (int l = 0; l <= PM_DEPTH_MAX; l++)
		for (int i = 0; i < p->noverrides; i++)
			if (p->ov[i].depth <= l)
				p->cand[l] |= 1U << i;
	p->strictest = p->machine;
	for (int i = 0; i < p->noverrides; i++) {
		for (int o = 0; o < PM_NOPS; o++)
			if (p->ov[i].lv.level[o] > p->strictest.level[o])
				p->strictest.level[o] = p->ov[i].lv.level[o];
		p->strictest.permissive &= p->ov[i].lv.permissive;
	}
}

/* The scope of a cgroup path ("/a/b"): the deepest override that is it
 * or an ancestor, -1 for the machine.  The programs' rule, in C. */
int pm_scope_of(const struct pm_policy *p, const char *path)
{
	char comp[PM_DEPTH_MAX][PM_NAME_MAX];
	int depth = pm_path_split(path, comp), best = -1;

	for (int i = 0; i < p->noverrides; i++) {
		int d = p->ov[i].depth, match = d <= depth;

		for (int l = 0; match && l < d; l++)
			match = !strncmp(comp[l], p->ov[i].comp[l], PM_NAME_MAX);
		if (match && (best < 0 || d > p->ov[best].depth))
			best = i;
	}
	return best;
}

/*
 * Splits a path relative to the cgroup-v2 root (pm_cgroup_resolve()'s)
 * into components.  Returns their number; -1 for a component over
 * PM_NAME_MAX - 2 bytes, "." or "..", -2 for more than PM_DEPTH_MAX.
 */
int pm_path_split(const char *path, char (*comp)[PM_NAME_MAX])
{
	const char *s = path;
	int n = 0;

	while (*s) {
		size_t len;

		s += strspn(s, "/");
		len = strcspn(s, "/");
		if (!len)
			break;
		if (len > PM_NAME_MAX - 2 || (len == 1 && s[0] == '.') ||
		    (len == 2 && !strncmp(s, "..", 2)))
			return -1;
		if (n == PM_DEPTH_MAX)
			return -2;
		memset(comp[n], 0, PM_NAME_MAX);
		memcpy(comp[n++], s, len);
		s += len;
	}
	return n;
}

void pm_path_join(const struct pm_override *ov, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int l = 0; l < ov->depth && len < n; l++)
		len += snprintf(buf + len, n - len, "/%.*s", PM_NAME_MAX, ov->comp[l]);
	if (!ov->depth)
		snprintf(buf, n, "/");
}

/* ---- what is pinned ---- */

static int pin_get(const char *dir, const char *prefix, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s%s", dir, prefix, name);
	return bpf_obj_get(path);
}

void pm_state_close(struct pm_state *st)
{
	for (int i = 0; i < PM_NMAPS; i++)
		if (st->map[i] >= 0)
			close(st->map[i]);
	for (int i = 0; i < PM_NHOOKS; i++) {
		if (st->prog[i] >= 0)
			close(st->prog[i]);
		st->prog[i] = -1;
	}
	st->linked = 0;
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	st->loaded = 0;
}

static void addf(char *buf, size_t n, const char *fmt, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, fmt, len ? ", " : "", name);
}

/* Is @fd the program pinned as prog_NAME of hook @i (an LSM program of
 * that name)?  Its id, or 0. */
static __u32 prog_id(int fd, int i)
{
	struct bpf_prog_info pi;
	__u32 len = sizeof(pi);

	memset(&pi, 0, sizeof(pi));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &pi, &len) || pi.type != BPF_PROG_TYPE_LSM ||
	    strncmp(pi.name, prog_names[i], sizeof(pi.name) - 1))
		return 0;
	return pi.id;
}

/*
 * The link pinned as NAME of hook @i in @dir: 1 if it is a BPF LSM link
 * of program @id, -1 if it is something else, 0 if there is none.  The
 * link's fd is closed before returning: pins alone hold links.
 */
static int link_check(const char *dir, int i, __u32 id)
{
	struct bpf_link_info li;
	__u32 len = sizeof(li);
	int fd = pin_get(dir, "", pm_hook_names[i]), ok;

	if (fd < 0)
		return 0;
	memset(&li, 0, sizeof(li));
	ok = !bpf_obj_get_info_by_fd(fd, &li, &len) && li.type == BPF_LINK_TYPE_TRACING &&
	     li.tracing.attach_type == BPF_LSM_MAC && id && li.prog_id == id;
	close(fd);
	return ok ? 1 : -1;
}

/*
 * Is @fd a map whose values (its BTF) have a member @name?  An enforcer
 * pinned by another procmem version (an upgrade: the unit does not
 * reload it) has other maps than this one's programs expect.
 */
static int map_has_member(int fd, const char *name)
{
	struct bpf_map_info mi;
	__u32 len = sizeof(mi);
	const struct btf_type *t;
	struct btf *btf;
	int found = 0;

	memset(&mi, 0, sizeof(mi));
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || !mi.btf_id)
		return 0;
	btf = btf__load_from_kernel_by_id(mi.btf_id);
	if (!btf)
		return 0;
	t = btf__type_by_id(btf, mi.btf_value_type_id);
	for (int i = 0; t && btf_is_struct(t) && i < btf_vlen(t); i++)
		found |= !strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), name);
	btf__free(btf);
	return found;
}

/*
 * Opens what is pinned under PM_PIN_DIR and says what is missing for
 * the policy it holds (st->degraded, st->missing): a pin that is not
 * procmem's (another program, a link of another program or type) is
 * missing.  0, or -1 when nothing is pinned.
 */
int pm_state_open(struct pm_state *st)
{
	__u32 zero = 0;
	unsigned int need;

	memset(st, 0, sizeof(*st));
	st->probe_scope = -1;
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	for (int i = 0; i < PM_NHOOKS; i++)
		st->prog[i] = -1;
	if (access(PM_PIN_DIR, F_OK))
		return -1;
	st->loaded = 1;
	for (int i = 0; i < PM_NMAPS; i++) {
		st->map[i] = pin_get(PM_PIN_DIR, "", pm_map_names[i]);
		if (st->map[i] < 0)
			addf(st->missing, sizeof(st->missing), "%s%s", pm_map_names[i]);
	}
	for (int i = 0; i < PM_NHOOKS; i++) {
		__u32 id;
		int l;

		st->prog[i] = pin_get(PM_PIN_DIR, "prog_", pm_hook_names[i]);
		id = prog_id(st->prog[i], i);
		if (st->prog[i] >= 0 && !id) {
			addf(st->missing, sizeof(st->missing), "%sprog_%s (not procmem's program)",
			     pm_hook_names[i]);
			close(st->prog[i]);
			st->prog[i] = -1;
		} else if (st->prog[i] < 0) {
			addf(st->missing, sizeof(st->missing), "%sprog_%s", pm_hook_names[i]);
		}
		l = link_check(PM_PIN_DIR, i, id);
		if (l > 0)
			st->linked |= 1U << i;
		else if (l < 0)
			addf(st->missing, sizeof(st->missing), "%s%s (link: not procmem's)",
			     pm_hook_names[i]);
	}
	if (st->map[PM_MAP_CONFIG] >= 0 && !map_has_member(st->map[PM_MAP_CONFIG], "probe_tgid")) {
		addf(st->missing, sizeof(st->missing), "%s%s",
		     "this procmem's programs (another version loaded these)");
		close(st->map[PM_MAP_CONFIG]);
		st->map[PM_MAP_CONFIG] = -1;
	}
	if (st->map[PM_MAP_CONFIG] >= 0 &&
	    !bpf_map_lookup_elem(st->map[PM_MAP_CONFIG], &zero, &st->cfg))
		st->have_cfg = 1;
	if (st->map[PM_MAP_POLICY] >= 0 &&
	    !bpf_map_lookup_elem(st->map[PM_MAP_POLICY], &zero, &st->pol))
		st->have_policy = 1;
	if (st->have_policy && st->pol.noverrides > PM_OVERRIDES_MAX) {
		addf(st->missing, sizeof(st->missing), "%s%s", "a sane policy (too many overrides)");
		st->pol.noverrides = PM_OVERRIDES_MAX;
	}
	if (st->map[PM_MAP_FOPS] >= 0 &&
	    (bpf_map_lookup_elem(st->map[PM_MAP_FOPS], &zero, &st->mem_fops) || !st->mem_fops))
		addf(st->missing, sizeof(st->missing), "%s%s", "the mem file's f_op (fops)");
	if (!st->have_policy && st->map[PM_MAP_POLICY] >= 0)
		addf(st->missing, sizeof(st->missing), "%s%s", "the policy");
	need = st->have_policy ? pm_hooks_needed(&st->pol) : 1U << PM_HOOK_OPEN;
	for (int i = 0; i < PM_NHOOKS; i++)
		if ((need & (1U << i)) && !(st->linked & (1U << i)))
			addf(st->missing, sizeof(st->missing), "%s%s (link)", pm_hook_names[i]);
	if (st->have_cfg && (need & (1U << PM_HOOK_FREE)) && !(st->cfg.flags & PM_F_RECORD))
		addf(st->missing, sizeof(st->missing), "%s%s", "opener records (config)");
	st->degraded = st->missing[0] != 0;
	return 0;
}

int pm_counters(int fd, unsigned long long *sum)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *v;

	if (ncpu <= 0)
		return -1;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -1;
	for (__u32 i = 0; i < PM_C_NR; i++) {
		sum[i] = 0;
		if (bpf_map_lookup_elem(fd, &i, v)) {
			free(v);
			return -1;
		}
		for (int c = 0; c < ncpu; c++)
			sum[i] += v[c];
	}
	free(v);
	return 0;
}

/*
 * Removes the link pin @path, its program detached when this returns:
 * the kernel frees a link whose last reference was a pin from a
 * workqueue, a moment after the unlink, but one whose last reference is
 * an fd at its close.  So the link is held by an fd across the unlink,
 * and that fd closed last.  0 if there was a pin.
 */
static int unlink_link(const char *path)
{
	int fd = bpf_obj_get(path), rc = unlink(path);

	if (fd >= 0)
		close(fd);
	return rc;
}

/* Removes the link pins of @dir, their programs detached; the hooks that
 * had one, as bits. */
static unsigned int unlink_links(const char *dir)
{
	unsigned int was = 0;
	char path[256];

	for (int i = 0; i < PM_NHOOKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pm_hook_names[i]);
		if (!unlink_link(path))
			was |= 1U << i;
	}
	return was;
}

/* Removes every pin of @dir, then @dir: programs detach (waited for),
 * maps go. */
void pm_unpin_dir(const char *dir)
{
	char path[256];

	unlink_links(dir);
	for (int i = 0; i < PM_NHOOKS; i++) {
		snprintf(path, sizeof(path), "%s/prog_%s", dir, pm_hook_names[i]);
		unlink(path);
	}
	for (int i = 0; i < PM_NMAPS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pm_map_names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * What a killed load or repair left beside PM_PIN_DIR: the directories
 * it pinned in (NAME_new_PID_I, NAME_old_PID_I), removed.  Call with
 * pm_lock() held: no other procmem is loading then.
 */
void pm_sweep(void)
{
	const char *base = strrchr(PM_PIN_DIR, '/') + 1;
	char pre[2][64], path[512];
	struct dirent *d;
	DIR *dir = opendir("/sys/fs/bpf");

	if (!dir)
		return;
	snprintf(pre[0], sizeof(pre[0]), "%s_new_", base);
	snprintf(pre[1], sizeof(pre[1]), "%s_old_", base);
	while ((d = readdir(dir)))
		for (int k = 0; k < 2; k++)
			if (!strncmp(d->d_name, pre[k], strlen(pre[k]))) {
				snprintf(path, sizeof(path), "/sys/fs/bpf/%s", d->d_name);
				pm_unpin_dir(path);
			}
	closedir(dir);
}

/* ---- the enforcer as procmem status and advise see it ---- */

int enforcer_loaded(void)
{
	return access(PM_PIN_DIR, F_OK) == 0;
}

int enforcer_read(struct enforcer *e)
{
	struct pm_state st;
	unsigned long long n[PM_C_NR];
	const struct pm_levels *lv;
	char why[256];
	__u64 key, next;
	int lock, probed = 0;

	memset(e, 0, sizeof(*e));
	e->scope = -1;
	for (int o = 0; o < NOPS; o++)
		e->level[o] = LV_UNKNOWN;
	if (!enforcer_loaded())
		return 0;
	e->loaded = 1;
	lock = geteuid() == 0 ? pm_lock() : -1;	/* no enforce in between */
	if (pm_state_open(&st)) {
		snprintf(e->error, sizeof(e->error), "cannot open %s", PM_PIN_DIR);
		if (lock >= 0)
			close(lock);
		return -1;
	}
	if (st.map[PM_MAP_CONFIG] < 0 && st.map[PM_MAP_POLICY] < 0) {
		snprintf(e->error, sizeof(e->error), "cannot open the pinned maps: %s",
			 strerror(errno));
		pm_state_close(&st);
		if (lock >= 0)
			close(lock);
		return -1;
	}
	/* from a pid namespace procmem cannot name itself to the programs:
	 * no live probe there, the pinned state alone */
	if (st.degraded)
		snprintf(e->error, sizeof(e->error), "degraded: missing %s", st.missing);
	else if (pm_initial_pidns() && pm_probe(&st, why, sizeof(why)))
		snprintf(e->error, sizeof(e->error), "degraded: %s", why);
	else
		probed = pm_initial_pidns();
	if (st.have_policy) {
		/* the scope the programs decided procmem's probe by; without
		 * a probe, the one procmem's cgroup path names */
		if (probed) {
			e->scope = st.probe_scope;
		} else {
			char cg[256];

			pm_own_cgroup(cg, sizeof(cg));
			e->scope = pm_scope_of(&st.pol, cg);
		}
		lv = e->scope < 0 ? &st.pol.machine :
		     e->scope >= PM_OVERRIDES_MAX ? &st.pol.strictest : &st.pol.ov[e->scope].lv;
		if (e->scope >= PM_OVERRIDES_MAX)
			snprintf(e->scope_path, sizeof(e->scope_path), "strictest (cgroup too deep)");
		else if (e->scope >= 0)
			pm_path_join(&st.pol.ov[e->scope], e->scope_path, sizeof(e->scope_path));
		e->have_policy = 1;
		for (int o = 0; o < PM_NOPS; o++)
			e->level[o] = lv->level[o] <= PM_NEVER ? (enum level)lv->level[o] : LV_UNKNOWN;
		e->permissive = lv->permissive;
		e->overrides = st.pol.noverrides;
	}
	if (st.map[PM_MAP_COUNTERS] >= 0 && !pm_counters(st.map[PM_MAP_COUNTERS], n))
		for (int o = 0; o < PM_NOPS; o++) {
			e->denied[o] = n[PM_C_DECIDED(PM_V_DENIED, o)];
			e->would_deny[o] = n[PM_C_DECIDED(PM_V_WOULD_DENY, o)];
			e->allowed[o] = n[PM_C_DECIDED(PM_V_ALLOWED, o)];
		}
	if (st.map[PM_MAP_FILES] >= 0)
		for (int err = bpf_map_get_next_key(st.map[PM_MAP_FILES], NULL, &next); !err;
		     err = bpf_map_get_next_key(st.map[PM_MAP_FILES], &key, &next)) {
			key = next;
			e->files++;
		}
	pm_state_close(&st);
	if (lock >= 0)
		close(lock);
	return e->error[0] ? -1 : 0;
}

/* ---- loading ---- */

/* The object for this kernel, opened (not loaded); NULL and a refusal. */
static struct bpf_object *open_variant(int *rc)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct bpf_object *obj;
	const void *elf;
	size_t sz;

	struct pm_ready r;
	char why[400];

	/* ready.c's checks again, right before loading: the object they pick */
	*rc = pm_ready(why, sizeof(why), 1, &r);
	if (*rc) {
		*rc = pm_refuse(*rc, "%s", why);
		return NULL;
	}
	if (r.cast) {
		elf = procmem_cast__elf_bytes(&sz);
		opts.object_name = "procmem_cast";
	} else {
		elf = procmem_probe__elf_bytes(&sz);
		opts.object_name = "procmem_probe";
	}
	obj = bpf_object__open_mem(elf, sz, &opts);
	if (!obj)
		*rc = pm_refuse(EXIT_BPF, "cannot open the BPF object: %s", strerror(errno));
	return obj;
}

static int map_fd(struct bpf_object *obj, int i)
{
	return bpf_map__fd(bpf_object__find_map_by_name(obj, i == PM_MAP_FOPS ? ".bss" :
							 pm_map_names[i]));
}

static int cfg_get(int fd, struct pm_config *c)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(fd, &zero, c);
}

static int cfg_set(int fd, const struct pm_config *c)
{
	__u32 zero = 0;

	return bpf_map_update_elem(fd, &zero, c, BPF_ANY);
}

/* The f_op of the proc file @path, as pm_calibrate sees it opened. */
static __u64 calibrate_one(int cfd, const char *path)
{
	struct pm_config c;
	struct stat st;
	int fd;

	if (stat(path, &st) || cfg_get(cfd, &c))
		return 0;
	c.cal_ino = st.st_ino;
	c.cal_fops = 0;
	c.cal_tid = (unsigned int)syscall(SYS_gettid);
	if (cfg_set(cfd, &c))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (cfg_get(cfd, &c))
		return 0;
	c.cal_tid = 0;
	cfg_set(cfd, &c);
	return c.cal_fops;
}

/*
 * Which f_op a mem file has, from procmem's own /proc/self/mem: the same
 * for /proc/self/task/TID/mem, another for /proc/self/environ.
 */
static int calibrate(struct bpf_object *obj)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, "pm_calibrate");
	struct bpf_link *link = bpf_program__attach_lsm(prog);
	int cfd = map_fd(obj, PM_MAP_CONFIG);
	char task_mem[64];
	__u64 mem, tmem, env;
	__u32 zero = 0;

	if (!link)
		return pm_refuse(EXIT_BPF, "cannot attach the calibration program: %s",
				 strerror(errno));
	snprintf(task_mem, sizeof(task_mem), "/proc/self/task/%ld/mem", syscall(SYS_gettid));
	mem = calibrate_one(cfd, "/proc/self/mem");
	tmem = calibrate_one(cfd, task_mem);
	env = calibrate_one(cfd, "/proc/self/environ");
	bpf_link__destroy(link);
	if (!mem || mem != tmem || !env || env == mem)
		return pm_refuse(EXIT_NOT_ENFORCING, "the programs do not see mem files opened (calibration: /proc/self/mem %s, task mem %s, environ %s): not enforcing",
				 mem ? "seen" : "not seen", tmem == mem ? "the same" : "differs",
				 !env ? "not seen" : env == mem ? "the same" : "differs");
	if (bpf_map_update_elem(map_fd(obj, PM_MAP_FOPS), &zero, &mem, BPF_ANY))
		return pm_refuse(EXIT_BPF, "cannot write the programs' pm_mem_fops: %s",
				 strerror(errno));
	return EXIT_OK;
}

static int pin_prog_link(const char *dir, int i, int prog_fd, int link_fd)
{
	char path[256];

	if (prog_fd >= 0) {
		snprintf(path, sizeof(path), "%s/prog_%s", dir, pm_hook_names[i]);
		if (bpf_obj_pin(prog_fd, path))
			return -errno;
	}
	if (link_fd >= 0) {
		snprintf(path, sizeof(path), "%s/%s", dir, pm_hook_names[i]);
		if (bpf_obj_pin(link_fd, path))
			return -errno;
	}
	return 0;
}

/* Attaches pinned program @i with a link pinned in @dir. */
static int attach_hook(const char *dir, int i, int prog_fd)
{
	int lfd = bpf_link_create(prog_fd, 0, BPF_LSM_MAC, NULL);
	int err;

	if (lfd < 0)
		return -errno;
	err = pin_prog_link(dir, i, -1, lfd);
	close(lfd);
	return err;
}

static void detach_hook(const char *dir, int i)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, pm_hook_names[i]);
	unlink_link(path);
}

/* PROCMEM_TEST_FAIL=@stage (tests only: tests/enforcer): 1 at that stage. */
static int test_fail(const char *stage)
{
	const char *v = getenv("PROCMEM_TEST_FAIL");

	return v && !strcmp(v, stage);
}

/* Detaches what @dir's link pins attach (waited for); the hooks they
 * were, as bits. */
static unsigned int detach_all(const char *dir)
{
	return unlink_links(dir);
}

/* Attaches the hooks @was of @dir again, from its program pins; 0, or
 * -1 if one could not be. */
static int reattach(const char *dir, unsigned int was)
{
	int rc = 0;

	for (int i = 0; i < PM_NHOOKS; i++) {
		int pfd;

		if (!(was & (1U << i)))
			continue;
		pfd = pin_get(dir, "prog_", pm_hook_names[i]);
		if (pfd < 0 || attach_hook(dir, i, pfd))
			rc = -1;
		if (pfd >= 0)
			close(pfd);
	}
	return rc;
}

static int exchange(const char *a, const char *b)
{
	return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

/* A load in progress: the directory the enforcer it replaced is in. */
struct loaded {
	char old[128];		/* "" when there was none */
	unsigned int was;	/* the hooks the old one had attached */
};

/*
 * A new enforcer with @pol, pinned under PM_PIN_DIR: loaded, calibrated,
 * the policy in its map before any program runs, maps and programs
 * pinned in a new directory, the hooks it needs attached with links held
 * as fds, the directory exchanged with PM_PIN_DIR (or renamed there),
 * then the links pinned.  The enforcer it replaces is left in @l->old
 * with its links removed (the caller removes it, or puts it back).
 */
static int load_new(const struct pm_policy *pol, struct loaded *l)
{
	struct bpf_object *obj;
	struct pm_config c;
	unsigned int need = pm_hooks_needed(pol);
	int lfd[PM_NHOOKS] = { -1, -1, -1 };
	char tmp[128];
	int rc = EXIT_OK, err = 0, have_old, made = 0, placed;
	__u32 zero = 0;

	l->old[0] = 0;
	l->was = 0;
	libbpf_set_print(bpf_print);
	obj = open_variant(&rc);
	if (!obj)
		return rc;
	if (bpf_object__load(obj)) {
		rc = pm_refuse(EXIT_BPF, "the kernel refused the BPF enforcer (%s)%s", strerror(errno),
			       pm_verbose ? "" : "; --verbose shows the verifier's log");
		goto out;
	}
	rc = calibrate(obj);
	if (rc)
		goto out;
	if (cfg_get(map_fd(obj, PM_MAP_CONFIG), &c) ||
	    (c.epoch = 1, c.flags = (need & (1U << PM_HOOK_FREE)) ? PM_F_RECORD : 0,
	     cfg_set(map_fd(obj, PM_MAP_CONFIG), &c)) ||
	    bpf_map_update_elem(map_fd(obj, PM_MAP_POLICY), &zero, pol, BPF_ANY)) {
		rc = pm_refuse(EXIT_BPF, "cannot set the policy: %s", strerror(errno));
		goto out;
	}
	/* bpffs refuses names with a dot; a name someone made first is skipped */
	for (int i = 0; !made && i < 100; i++) {
		snprintf(tmp, sizeof(tmp), "%s_new_%d_%d", PM_PIN_DIR, (int)getpid(), i);
		made = !mkdir(tmp, 0700);
		if (!made && errno != EEXIST)
			break;
	}
	if (!made) {
		rc = pm_refuse(EXIT_BPF, "cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	for (int i = 0; !err && i < PM_NMAPS; i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", tmp, pm_map_names[i]);
		err = bpf_obj_pin(map_fd(obj, i), path) ? -errno : 0;
	}
	for (int i = 0; !err && i < PM_NHOOKS; i++) {
		int pfd = bpf_program__fd(bpf_object__find_program_by_name(obj, prog_names[i]));

		err = pin_prog_link(tmp, i, pfd, -1);
		if (!err && (need & (1U << i))) {
			lfd[i] = bpf_link_create(pfd, 0, BPF_LSM_MAC, NULL);
			err = lfd[i] < 0 ? -errno : 0;
		}
	}
	if (!err && test_fail("attached"))
		raise(SIGKILL);
	have_old = !access(PM_PIN_DIR, F_OK);
	if (!err && (have_old ? exchange(tmp, PM_PIN_DIR) : rename(tmp, PM_PIN_DIR)))
		err = -errno;
	placed = !err;
	if (placed && have_old)		/* the old one is at tmp now, still attached */
		snprintf(l->old, sizeof(l->old), "%s", tmp);
	/* the new links pinned before the old ones go: a kill in between
	 * leaves both attached (the stricter of the two), never neither */
	for (int i = 0; !err && i < PM_NHOOKS; i++)
		if (lfd[i] >= 0)
			err = pin_prog_link(PM_PIN_DIR, i, -1, lfd[i]);
	if (!err && l->old[0])
		l->was = detach_all(l->old);	/* kept, detached, until the check */
	if (err && placed) {
		/* pinning a link failed after the swap: the old one back in
		 * place (still attached), the new one at tmp to be removed */
		if (have_old ? exchange(l->old, PM_PIN_DIR) : rename(PM_PIN_DIR, tmp)) {
			rc = pm_refuse(EXIT_BPF, "cannot pin the enforcer under %s, nor put the previous one back (it is at %s): %s",
				       PM_PIN_DIR, l->old, strerror(-err));
			goto out;
		}
		l->old[0] = 0;
	}
	if (err) {
		pm_unpin_dir(tmp);
		rc = pm_refuse(EXIT_BPF, "cannot pin the enforcer under %s: %s", PM_PIN_DIR,
			       strerror(-err));
	}
out:
	/* Closes our fds; the pins keep programs, links and maps. */
	for (int i = 0; i < PM_NHOOKS; i++)
		if (lfd[i] >= 0)
			close(lfd[i]);
	bpf_object__close(obj);
	return rc;
}

/*
 * Is a procmem watch running on this enforcer?  It holds the lock on the
 * pin directory; if it is gone (killed), its wish for allowed accesses
 * is withdrawn here.
 */
static int watcher_running(struct pm_state *st)
{
	int fd = open(PM_PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC), busy;

	if (fd < 0)
		return 0;
	busy = flock(fd, LOCK_EX | LOCK_NB) != 0;
	close(fd);
	if (!busy && (st->cfg.flags & PM_F_WATCH_ALLOWED)) {
		st->cfg.flags &= ~PM_F_WATCH_ALLOWED;
		cfg_set(st->map[PM_MAP_CONFIG], &st->cfg);
	}
	return busy;
}

/* The hooks @pol needs, and file_permission while a watcher asks for
 * allowed accesses. */
static unsigned int hooks_wanted(struct pm_state *st, const struct pm_policy *pol)
{
	unsigned int need = pm_hooks_needed(pol);

	if (watcher_running(st) && (st->cfg.flags & PM_F_WATCH_ALLOWED))
		need |= 1U << PM_HOOK_PERMISSION;
	return need;
}

/*
 * The policy of a complete enforcer changed in place: hooks @pol needs
 * attached first, the policy map updated, hooks it no longer needs
 * detached after; opener records start before and stop after.  0, or -1
 * and @why.
 */
static int update(struct pm_state *st, const struct pm_policy *pol, char *why, size_t n)
{
	unsigned int need = hooks_wanted(st, pol), have = 0;
	struct pm_config c = st->cfg;
	int cfd = st->map[PM_MAP_CONFIG], err = 0;
	__u32 zero = 0;

	have = st->linked;
	/* The release hook before records, records before the policy. */
	for (int i = PM_NHOOKS - 1; !err && i >= 0; i--)
		if ((need & ~have) & (1U << i))
			err = attach_hook(PM_PIN_DIR, i, st->prog[i]);
	if (!err && (need & (1U << PM_HOOK_FREE)) && !(c.flags & PM_F_RECORD)) {
		c.flags |= PM_F_RECORD;
		c.epoch++;
		if (cfg_set(cfd, &c))
			err = -errno;
	}
	if (err) {
		snprintf(why, n, "cannot attach: %s", strerror(-err));
		return -1;
	}
	if (bpf_map_update_elem(st->map[PM_MAP_POLICY], &zero, pol, BPF_ANY)) {
		snprintf(why, n, "cannot update the policy: %s", strerror(errno));
		return -1;
	}
	if (!(need & (1U << PM_HOOK_PERMISSION)))
		detach_hook(PM_PIN_DIR, PM_HOOK_PERMISSION);
	if (!(need & (1U << PM_HOOK_FREE))) {
		__u64 key, next;

		/* flags a watcher may have changed since */
		if (!cfg_get(cfd, &c) && (c.flags & PM_F_RECORD)) {
			c.flags &= ~PM_F_RECORD;
			cfg_set(cfd, &c);
		}
		detach_hook(PM_PIN_DIR, PM_HOOK_FREE);
		while (!bpf_map_get_next_key(st->map[PM_MAP_FILES], NULL, &next)) {
			key = next;
			if (bpf_map_delete_elem(st->map[PM_MAP_FILES], &key))
				break;
		}
	}
	return 0;
}

/* procmem's own cgroup-v2 path, "/" if none. */
void pm_own_cgroup(char *path, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "r");

	snprintf(path, n, "/");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, n, "%s", line + 3);
			break;
		}
	fclose(f);
}

/* The verdict a self access gets at @lv for @op (+1, as the programs store it). */
static int self_verdict(const struct pm_levels *lv, int op)
{
	int ok = lv->level[op] == PM_ALWAYS || lv->level[op] == PM_SELF;

	return 1 + (ok ? PM_V_ALLOWED : lv->permissive ? PM_V_WOULD_DENY : PM_V_DENIED);
}

/*
 * The live self-check: procmem opens its own mem file read-write (and
 * writes nothing through it, if file_permission is attached), named to
 * the programs by its inode number.  The programs decide these accesses
 * as any other, by the policy of the scope they find procmem in, store
 * the verdicts, that scope and the policy's generation for it and
 * enforce none.  0 when every attached hook decided as that scope's
 * levels in this policy say (st->probe_scope: the scope); else -1 and
 * @why.
 */
int pm_probe(struct pm_state *st, char *why, size_t n)
{
	const struct pm_levels *lv;
	struct pm_config c;
	struct stat sb;
	int fd, path, scope, cfd = st->map[PM_MAP_CONFIG];
	static const char *const vnames[] = { "not seen", "allowed", "denied", "would-deny" };
	int nops = (st->linked & (1U << PM_HOOK_PERMISSION)) ? PM_NOPS : PM_WRITE;
	char buf[1];

	if (cfd < 0 || !st->have_policy || cfg_get(cfd, &c)) {
		snprintf(why, n, "no config or policy to probe");
		return -1;
	}
	/* O_PATH: no open for the hooks; it holds the inode the probe opens */
	path = open("/proc/self/mem", O_PATH | O_CLOEXEC);
	if (path < 0 || fstat(path, &sb)) {
		snprintf(why, n, "cannot stat /proc/self/mem: %s", strerror(errno));
		if (path >= 0)
			close(path);
		return -1;
	}
	memset(c.probe, 0, sizeof(c.probe));
	c.probe_scope = -1;
	c.probe_gen = 0;
	c.probe_ino = sb.st_ino;
	c.probe_tgid = (unsigned int)getpid();
	if (cfg_set(cfd, &c)) {
		snprintf(why, n, "cannot set the probe");
		close(path);
		return -1;
	}
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd >= 0 && nops == PM_NOPS && pwrite(fd, buf, 0, (off_t)(unsigned long)buf) < 0)
		nops = -1;
	if (fd >= 0)
		close(fd);
	close(path);
	cfg_get(cfd, &c);
	c.probe_ino = 0;
	c.probe_tgid = 0;
	cfg_set(cfd, &c);
	if (fd < 0 || nops < 0) {
		snprintf(why, n, "the probe's own %s was refused: %s", fd < 0 ? "open" : "write",
			 strerror(errno));
		return -1;
	}
	scope = c.probe_scope;
	if (c.probe[PM_OPEN_READ] && c.probe_gen != st->pol.gen) {
		snprintf(why, n, "the programs decided by policy generation %u, not %u",
			 c.probe_gen, st->pol.gen);
		return -1;
	}
	if (c.probe[PM_OPEN_READ] && (scope < -1 || (scope >= st->pol.noverrides &&
						     scope != PM_OVERRIDES_MAX))) {
		snprintf(why, n, "the programs named scope %d of %d overrides", scope,
			 st->pol.noverrides);
		return -1;
	}
	lv = scope < 0 ? &st->pol.machine : scope == PM_OVERRIDES_MAX ? &st->pol.strictest :
	     &st->pol.ov[scope].lv;
	for (int o = 0; o < nops; o++) {
		int want = self_verdict(lv, o);

		if (c.probe[o] != want) {
			snprintf(why, n, "%s by procmem on its own mem file: the programs %s%s, the policy says %s",
				 op_names[o], c.probe[o] ? "decided " : "did not decide it",
				 c.probe[o] ? vnames[c.probe[o] & 3] : "", vnames[want & 3]);
			return -1;
		}
	}
	st->probe_scope = scope;
	return 0;
}

/*
 * procmem watch --all: allowed accesses reported (and file_permission
 * attached for them) while @on.  The caller holds the pin directory's
 * lock, so that update() sees the watcher.
 */
int pm_watch_allowed(int on)
{
	struct pm_state st;
	int lock = pm_lock(), rc = -1;

	if (lock < 0)
		return -1;
	if (!pm_state_open(&st) && !st.degraded) {
		if (on)
			st.cfg.flags |= PM_F_WATCH_ALLOWED;
		else
			st.cfg.flags &= ~PM_F_WATCH_ALLOWED;
		if (on && !(st.linked & (1U << PM_HOOK_PERMISSION)))
			rc = attach_hook(PM_PIN_DIR, PM_HOOK_PERMISSION, st.prog[PM_HOOK_PERMISSION]);
		else
			rc = 0;
		if (!rc)
			rc = cfg_set(st.map[PM_MAP_CONFIG], &st.cfg);
		if (!on && !(pm_hooks_needed(&st.pol) & (1U << PM_HOOK_PERMISSION)))
			detach_hook(PM_PIN_DIR, PM_HOOK_PERMISSION);
	}
	pm_state_close(&st);
	close(lock);
	return rc;
}

/* The self-check of what is pinned now: EXIT_OK, or a refusal's
 * status with @why. */
static int check(char *why, size_t n)
{
	struct pm_state st;
	int rc = EXIT_OK;

	if (pm_state_open(&st)) {
		snprintf(why, n, "nothing is pinned under %s", PM_PIN_DIR);
		rc = EXIT_NOT_ENFORCING;
	} else if (st.degraded) {
		snprintf(why, n, "the enforcer is incomplete (missing: %s)", st.missing);
		rc = EXIT_NOT_ENFORCING;
	} else if (pm_probe(&st, why, n)) {
		rc = EXIT_NOT_ENFORCING;
	}
	pm_state_close(&st);
	return rc;
}

/* A new enforcer with @p (a first load or a repair), checked: the one it
 * replaced removed if the check passes, else put back. */
static int load_checked(const struct pm_policy *p, char *why, size_t n, int say)
{
	struct loaded l;
	int rc = load_new(p, &l);

	if (rc)
		return rc;
	rc = check(why, n);
	if (!rc && test_fail("check")) {
		snprintf(why, n, "PROCMEM_TEST_FAIL=check");
		rc = EXIT_NOT_ENFORCING;
	}
	if (!rc) {
		if (l.old[0])
			pm_unpin_dir(l.old);
		return EXIT_OK;
	}
	if (l.old[0]) {		/* the enforcer it replaced, as it was */
		int back = reattach(l.old, l.was);

		if (exchange(l.old, PM_PIN_DIR))
			/* both stay attached (the stricter of the two) */
			return pm_refuse(rc, "self-check failed: %s; the previous enforcer could not be put back in place (it is at %s, attached)",
					 why, l.old);
		pm_unpin_dir(l.old);	/* the new one, swapped out */
		if (!say)
			return rc;
		return pm_refuse(rc, back ? "self-check failed: %s: not enforcing the new policy; the previous enforcer is back, but a hook of it could not be attached again (procmem enforce shows it degraded)" :
				 "self-check failed: %s: not enforcing the new policy; the previous enforcer is back as it was", why);
	}
	pm_unpin_dir(PM_PIN_DIR);
	return say ? pm_refuse(rc, "self-check failed: %s: not enforcing; unloaded", why) : rc;
}

/*
 * Puts @pol in force: in place when the enforcer is complete, else a
 * new one (replacing a degraded one); then the self-check.  A change
 * whose check fails puts the previous policy back (in place, or by a
 * repair): a working policy is never unloaded.  Call with pm_lock() held.
 */
int pm_apply(const struct pm_policy *pol)
{
	struct pm_state st;
	struct pm_policy p = *pol, prev;
	char why[512], why2[512];
	int rc;

	pm_policy_finish(&p);
	if (pm_bpffs())
		return pm_refuse(EXIT_BPF, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
	pm_sweep();
	if (pm_state_open(&st) || st.degraded) {
		/* nothing, or a degraded one: a new enforcer, its policy's gen on */
		p.gen = st.have_policy ? st.pol.gen + 1 : 1;
		pm_state_close(&st);
		return load_checked(&p, why, sizeof(why), 1);
	}
	prev = st.pol;
	p.gen = st.pol.gen + 1;
	rc = update(&st, &p, why, sizeof(why));
	pm_state_close(&st);
	if (!rc) {
		rc = check(why, sizeof(why));
		if (!rc && test_fail("check")) {
			snprintf(why, sizeof(why), "PROCMEM_TEST_FAIL=check");
			rc = EXIT_NOT_ENFORCING;
		}
		if (!rc)
			return EXIT_OK;
	}
	/* the previous policy back, in place; else by a repair */
	prev.gen = p.gen + 1;
	rc = -1;
	if (!pm_state_open(&st) && !st.degraded)
		rc = update(&st, &prev, why2, sizeof(why2));
	pm_state_close(&st);
	if (!rc && !check(why2, sizeof(why2)))
		return pm_refuse(EXIT_NOT_ENFORCING, "self-check failed: %s: not enforcing the new policy; the previous one is back in force",
				 why);
	prev.gen++;
	if (!load_checked(&prev, why2, sizeof(why2), 0))
		return pm_refuse(EXIT_NOT_ENFORCING, "self-check failed: %s: not enforcing the new policy; the previous one is back in force (repaired)",
				 why);
	return pm_refuse(EXIT_NOT_ENFORCING, "self-check failed: %s; the previous policy could not be put back either: %s",
			 why, why2);
}
