// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM enforcer's loader: loads bpf/procmem.bpf.c, learns which
 * f_op a mem file has, pins, attaches only the hooks the policy needs,
 * proves with a probe that the programs decide, and inspects what is
 * pinned (complete or degraded).
 *
 * Everything lives under PM_PIN_DIR: the maps, the three programs and
 * the links that attach them.  A first load (or a repair) is pinned in a
 * new directory and renamed into place, so nothing is half-applied.  A
 * policy change keeps the maps and changes the attachments around the
 * one update of the policy map: a hook a tighter policy needs is
 * attached before the update, one a looser policy no longer needs is
 * detached after it, so no decision ever misses a hook its policy needs.
 */
#include "procmem.h"
#include "bpf/enforcer.h"
#include "procmem_cast.skel.h"
#include "procmem_probe.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
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
 * walk, enforcing unless every scope is permissive. */
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
		p->ov[i].lv.permissive = p->ov[i].own.permissive;
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
 * Splits a cgroup-v2 path, relative to /sys/fs/cgroup or below it, into
 * components.  Returns their number; -1 for a component over
 * PM_NAME_MAX - 2 bytes, "." or "..", -2 for more than PM_DEPTH_MAX.
 */
int pm_path_split(const char *path, char (*comp)[PM_NAME_MAX])
{
	const char *s = path;
	int n = 0;

	if (!strncmp(s, PM_CGROUP_ROOT, strlen(PM_CGROUP_ROOT)) &&
	    (s[strlen(PM_CGROUP_ROOT)] == '/' || !s[strlen(PM_CGROUP_ROOT)]))
		s += strlen(PM_CGROUP_ROOT);
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
		if (st->link[i] >= 0)
			close(st->link[i]);
		st->prog[i] = st->link[i] = -1;
	}
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	st->loaded = 0;
}

static void addf(char *buf, size_t n, const char *fmt, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, fmt, len ? ", " : "", name);
}

/*
 * Opens what is pinned under PM_PIN_DIR and says what is missing for
 * the policy it holds (st->degraded, st->missing).  0, or -1 when
 * nothing is pinned.
 */
int pm_state_open(struct pm_state *st)
{
	__u32 zero = 0;
	unsigned int need;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	for (int i = 0; i < PM_NHOOKS; i++)
		st->prog[i] = st->link[i] = -1;
	if (access(PM_PIN_DIR, F_OK))
		return -1;
	st->loaded = 1;
	for (int i = 0; i < PM_NMAPS; i++) {
		st->map[i] = pin_get(PM_PIN_DIR, "", pm_map_names[i]);
		if (st->map[i] < 0)
			addf(st->missing, sizeof(st->missing), "%s%s", pm_map_names[i]);
	}
	for (int i = 0; i < PM_NHOOKS; i++) {
		st->prog[i] = pin_get(PM_PIN_DIR, "prog_", pm_hook_names[i]);
		st->link[i] = pin_get(PM_PIN_DIR, "", pm_hook_names[i]);
		if (st->prog[i] < 0)
			addf(st->missing, sizeof(st->missing), "%sprog_%s", pm_hook_names[i]);
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
		if ((need & (1U << i)) && st->link[i] < 0)
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

/* Removes every pin of @dir, then @dir: programs detach, maps go. */
void pm_unpin_dir(const char *dir)
{
	char path[256];

	for (int i = 0; i < PM_NHOOKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pm_hook_names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/prog_%s", dir, pm_hook_names[i]);
		unlink(path);
	}
	for (int i = 0; i < PM_NMAPS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pm_map_names[i]);
		unlink(path);
	}
	rmdir(dir);
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
	int lock;

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
	if (st.have_policy) {
		char cg[256];

		pm_own_cgroup(cg, sizeof(cg));
		e->scope = pm_scope_of(&st.pol, cg);
		lv = e->scope < 0 ? &st.pol.machine : &st.pol.ov[e->scope].lv;
		if (e->scope >= 0)
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
	if (st.degraded)
		snprintf(e->error, sizeof(e->error), "degraded: missing %s", st.missing);
	else if (pm_probe(&st, why, sizeof(why)))
		snprintf(e->error, sizeof(e->error), "degraded: %s", why);
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
	unlink(path);
}

/*
 * A new enforcer with @pol, pinned under PM_PIN_DIR: loaded, calibrated,
 * the policy in its map before any program runs, the hooks it needs
 * attached, all pinned in a new directory renamed into place (a
 * degraded one it replaces is removed after).
 */
static int load_new(const struct pm_policy *pol)
{
	struct bpf_object *obj;
	struct pm_config c;
	unsigned int need = pm_hooks_needed(pol);
	char tmp[128], old[128];
	int rc = EXIT_OK, err = 0, have_old, made = 0;
	__u32 zero = 0;

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
		snprintf(old, sizeof(old), "%s_old_%d_%d", PM_PIN_DIR, (int)getpid(), i);
		made = !mkdir(tmp, 0700);
		if (!made && errno != EEXIST)
			break;
	}
	if (!made || !access(old, F_OK)) {
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
		if (!err && (need & (1U << i)))
			err = attach_hook(tmp, i, pfd);
	}
	have_old = !access(PM_PIN_DIR, F_OK);
	if (!err && have_old && rename(PM_PIN_DIR, old))
		err = -errno;
	if (!err && rename(tmp, PM_PIN_DIR)) {
		err = -errno;
		/* put the old one back; if that fails too, it stays pinned aside */
		if (have_old)
			rename(old, PM_PIN_DIR);
	}
	if (err) {
		pm_unpin_dir(tmp);
		rc = pm_refuse(EXIT_BPF, "cannot pin the enforcer under %s: %s", PM_PIN_DIR,
			       strerror(-err));
	} else if (have_old) {
		pm_unpin_dir(old);
	}
out:
	/* Closes our fds; the pins keep programs, links and maps. */
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
 * detached after; opener records start before and stop after.
 */
static int update(struct pm_state *st, const struct pm_policy *pol)
{
	unsigned int need = hooks_wanted(st, pol), have = 0;
	struct pm_config c = st->cfg;
	int cfd = st->map[PM_MAP_CONFIG], err = 0;
	__u32 zero = 0;

	for (int i = 0; i < PM_NHOOKS; i++)
		if (st->link[i] >= 0)
			have |= 1U << i;
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
	if (err)
		return pm_refuse(EXIT_BPF, "cannot attach: %s", strerror(-err));
	if (bpf_map_update_elem(st->map[PM_MAP_POLICY], &zero, pol, BPF_ANY))
		return pm_refuse(EXIT_BPF, "cannot update the policy: %s", strerror(errno));
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
	return EXIT_OK;
}

/* /proc/thread-self/stat's starttime: the programs' probe token. */
static unsigned long long own_starttime(void)
{
	char buf[1024], *p;
	unsigned long long v = 0;
	FILE *f = fopen("/proc/thread-self/stat", "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* after ") ": state is field 3, starttime field 22 */
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			&v) != 1)
		v = 0;
	return v;
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
 * writes nothing through it, if file_permission is attached) as the
 * probe thread.  The programs decide these accesses as any other, by
 * the policy of procmem's own scope, store the verdicts for it and
 * enforce none.  0 when every attached hook decided as the policy says;
 * else -1 and @why.
 */
int pm_probe(struct pm_state *st, char *why, size_t n)
{
	const struct pm_levels *lv;
	struct pm_config c;
	char cg[256];
	int fd, scope, cfd = st->map[PM_MAP_CONFIG];
	static const char *const vnames[] = { "not seen", "allowed", "denied", "would-deny" };
	int nops = st->link[PM_HOOK_PERMISSION] >= 0 ? PM_NOPS : PM_WRITE;
	char buf[1];

	if (cfd < 0 || !st->have_policy || cfg_get(cfd, &c)) {
		snprintf(why, n, "no config or policy to probe");
		return -1;
	}
	pm_own_cgroup(cg, sizeof(cg));
	scope = pm_scope_of(&st->pol, cg);
	lv = scope < 0 ? &st->pol.machine : &st->pol.ov[scope].lv;
	memset(c.probe, 0, sizeof(c.probe));
	c.probe_tid = (unsigned int)syscall(SYS_gettid);
	c.probe_start = own_starttime();
	if (!c.probe_start || cfg_set(cfd, &c)) {
		snprintf(why, n, "cannot set the probe");
		return -1;
	}
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd >= 0 && nops == PM_NOPS && pwrite(fd, buf, 0, (off_t)(unsigned long)buf) < 0)
		nops = -1;
	if (fd >= 0)
		close(fd);
	cfg_get(cfd, &c);
	c.probe_tid = 0;
	c.probe_start = 0;
	cfg_set(cfd, &c);
	if (fd < 0 || nops < 0) {
		snprintf(why, n, "the probe's own %s was refused: %s", fd < 0 ? "open" : "write",
			 strerror(errno));
		return -1;
	}
	for (int o = 0; o < nops; o++) {
		int want = self_verdict(lv, o);

		if (c.probe[o] != want) {
			snprintf(why, n, "%s by procmem on its own mem file: the programs %s%s, the policy says %s",
				 op_names[o], c.probe[o] ? "decided " : "did not decide it",
				 c.probe[o] ? vnames[c.probe[o] & 3] : "", vnames[want & 3]);
			return -1;
		}
	}
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
		if (on && st.link[PM_HOOK_PERMISSION] < 0)
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

/*
 * Puts @pol in force: in place when the enforcer is complete, else a
 * new one (replacing a degraded one); then the probe.  A probe that
 * fails unloads everything.  Call with pm_lock() held.
 */
int pm_apply(const struct pm_policy *pol)
{
	struct pm_state st;
	struct pm_policy p = *pol;
	char why[256];
	int rc;

	pm_policy_finish(&p);
	if (pm_bpffs())
		return pm_refuse(EXIT_BPF, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
	if (!pm_state_open(&st) && !st.degraded) {
		p.gen = st.pol.gen + 1;
		rc = update(&st, &p);
	} else {
		p.gen = 1;
		rc = load_new(&p);
	}
	pm_state_close(&st);
	if (rc)
		return rc;
	if (pm_state_open(&st) || st.degraded) {
		rc = pm_refuse(EXIT_NOT_ENFORCING, "the enforcer is incomplete after loading (missing: %s): not enforcing; unloaded",
			       st.missing);
	} else if (pm_probe(&st, why, sizeof(why))) {
		rc = pm_refuse(EXIT_NOT_ENFORCING, "self-check failed: %s: not enforcing; unloaded", why);
	}
	pm_state_close(&st);
	if (rc)
		pm_unpin_dir(PM_PIN_DIR);
	return rc;
}
