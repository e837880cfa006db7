// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM enforcer's lifecycle: loads bpf/enforcer.bpf.c, learns
 * which f_op a mem file has, pins, attaches only the hooks the policy
 * needs, and proves with the self-check (enforcer_state.c) that the
 * programs decide.  Whether it can load here is ready.c's question, what
 * is pinned enforcer_state.c's, the policy's arithmetic policy.c's.
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
#include "enforcer_cast.skel.h"
#include "enforcer_read.skel.h"

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
		elf = enforcer_cast__elf_bytes(&sz);
		opts.object_name = "enforcer_cast";
	} else {
		elf = enforcer_read__elf_bytes(&sz);
		opts.object_name = "enforcer_read";
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

/* The f_op of the proc file @path, as pm_calibrate sees it opened. */
static __u64 calibrate_one(int cfd, const char *path)
{
	struct pm_config c;
	struct stat st;
	int fd;

	if (stat(path, &st) || pm_cfg_get(cfd, &c))
		return 0;
	c.cal_ino = st.st_ino;
	c.cal_fops = 0;
	c.cal_tid = (unsigned int)syscall(SYS_gettid);
	if (pm_cfg_set(cfd, &c))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (pm_cfg_get(cfd, &c))
		return 0;
	c.cal_tid = 0;
	pm_cfg_set(cfd, &c);
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
		pfd = pm_pin_get(dir, "prog_", pm_hook_names[i]);
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
	if (pm_cfg_get(map_fd(obj, PM_MAP_CONFIG), &c) ||
	    (c.epoch = 1, c.flags = (need & (1U << PM_HOOK_FREE)) ? PM_F_RECORD : 0,
	     pm_cfg_set(map_fd(obj, PM_MAP_CONFIG), &c)) ||
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
		int pfd = bpf_program__fd(bpf_object__find_program_by_name(obj, pm_prog_names[i]));

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
		pm_cfg_set(st->map[PM_MAP_CONFIG], &st->cfg);
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
/* The scope counters of the slots in @fresh (bits) back to zero, on
 * every CPU: those slots count for another override from now on. */
static void zero_slots(int fd, unsigned int fresh)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *zero;

	if (!fresh || ncpu <= 0 || !(zero = calloc((size_t)ncpu, sizeof(*zero))))
		return;
	for (unsigned int s = 0; s < PM_OVERRIDES_MAX; s++)
		for (int v = PM_V_DENIED; (fresh & (1U << s)) && v <= PM_V_WOULD_DENY; v++)
			for (int op = 0; op < PM_NOPS; op++) {
				__u32 key = PM_C_SCOPE(s, v, op);

				bpf_map_update_elem(fd, &key, zero, BPF_ANY);
			}
	free(zero);
}

static int update(struct pm_state *st, const struct pm_policy *pol, unsigned int fresh,
		  char *why, size_t n)
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
		if (pm_cfg_set(cfd, &c))
			err = -errno;
	}
	if (err) {
		snprintf(why, n, "cannot attach: %s", strerror(-err));
		return -1;
	}
	zero_slots(st->map[PM_MAP_COUNTERS], fresh);
	if (bpf_map_update_elem(st->map[PM_MAP_POLICY], &zero, pol, BPF_ANY)) {
		snprintf(why, n, "cannot update the policy: %s", strerror(errno));
		return -1;
	}
	if (!(need & (1U << PM_HOOK_PERMISSION)))
		detach_hook(PM_PIN_DIR, PM_HOOK_PERMISSION);
	if (!(need & (1U << PM_HOOK_FREE))) {
		__u64 key, next;

		/* flags a watcher may have changed since */
		if (!pm_cfg_get(cfd, &c) && (c.flags & PM_F_RECORD)) {
			c.flags &= ~PM_F_RECORD;
			pm_cfg_set(cfd, &c);
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
			rc = pm_cfg_set(st.map[PM_MAP_CONFIG], &st.cfg);
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
	} else if (pm_self_check(&st, why, n)) {
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
	static struct pm_state st;
	static struct pm_policy p, prev;
	char why[512], why2[512];
	unsigned int fresh;
	int rc;

	p = *pol;
	pm_policy_finish(&p);
	if (pm_bpffs())
		return pm_refuse(EXIT_BPF, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
	pm_sweep();
	if (pm_state_open(&st) || st.degraded) {
		/* nothing, or a degraded one: a new enforcer (counters at
		 * zero), its policy's gen on */
		p.gen = st.have_policy ? st.pol.gen + 1 : 1;
		pm_policy_slots(&p, NULL);
		pm_state_close(&st);
		return load_checked(&p, why, sizeof(why), 1);
	}
	prev = st.pol;
	p.gen = st.pol.gen + 1;
	fresh = pm_policy_slots(&p, &prev);
	rc = update(&st, &p, fresh, why, sizeof(why));
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
		rc = update(&st, &prev, 0, why2, sizeof(why2));
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
