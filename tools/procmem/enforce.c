// SPDX-License-Identifier: GPL-2.0
/*
 * procmem enforce / watch: the /proc/PID/mem policy on a kernel without
 * the series, through the BPF LSM program of bpf/procmem.bpf.c.
 *
 * The programs' links and the maps are pinned under PM_PIN_DIR, so the
 * policy outlives the command: a later `procmem enforce` only updates
 * the policy map (one element replaced: atomic), `--off` removes the
 * pins, which detaches the programs.  A first load is pinned in a fresh
 * directory beside PM_PIN_DIR and renamed into place, so that nothing is
 * half-applied: the policy is in the map before the programs attach,
 * and any failure before the rename unpins and detaches everything.
 */
#include "procmem.h"
#include "bpf/enforcer.h"
#include "procmem.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define BPF_FS_MAGIC		0xcafe4a11
#define CGROUP2_SUPER_MAGIC	0x63677270
#define CGROUP_ROOT		"/sys/fs/cgroup"
#define LSM_FILE		"/sys/kernel/security/lsm"
#define BTF_FILE		"/sys/kernel/btf/vmlinux"

static const char *const pin_maps[] = { "policy", "files", "counters", "events" };
static const char *const pin_links[] = { "file_open", "file_permission", "file_free" };
#define NMAPS	(sizeof(pin_maps) / sizeof(pin_maps[0]))
#define NLINKS	(sizeof(pin_links) / sizeof(pin_links[0]))
_Static_assert(PM_NCOUNTERS == PM_C_NR, "procmem.h and bpf/enforcer.h disagree");

static int refuse(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(int rc, const char *fmt, ...)
{
	va_list ap;

	fputs("procmem: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return rc;
}

/* libbpf's messages: kept, shown only when loading fails (or PM_DEBUG). */
static char bpf_log[4096];
static size_t bpf_log_len;

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

static int fs_is(const char *path, long magic)
{
	struct statfs s;

	return statfs(path, &s) == 0 && (long)s.f_type == magic;
}

/* bpffs on /sys/fs/bpf, mounting it if need be (a bare system). */
static int bpffs(void)
{
	if (fs_is("/sys/fs/bpf", BPF_FS_MAGIC))
		return 0;
	return mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL);
}

int enforcer_loaded(void)
{
	return access(PM_PIN_DIR "/policy", F_OK) == 0;
}

/*
 * The cgroup-v2 directory @arg names (a path below /sys/fs/cgroup, or
 * the full path) and its id, the one bpf_get_current_cgroup_id() gives.
 */
static int cgroup_lookup(const char *arg, char *path, size_t n, __u64 *id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h;
	struct stat st;
	int mount_id;

	if (!strncmp(arg, CGROUP_ROOT, strlen(CGROUP_ROOT)))
		snprintf(path, n, "%s", arg);
	else
		snprintf(path, n, CGROUP_ROOT "/%s", arg + (arg[0] == '/'));
	if (stat(path, &st) || !S_ISDIR(st.st_mode) || !fs_is(path, CGROUP2_SUPER_MAGIC))
		return -1;
	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) ||
	    h.fh.handle_bytes != sizeof(h.id))
		return -1;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

static void policy_text(char *buf, size_t n, const struct pm_policy *p)
{
	snprintf(buf, n, "open_read=%s open_write=%s write=%s permissive=%d",
		 level_name(p->level[0]), level_name(p->level[1]),
		 level_name(p->level[2]), p->permissive);
}

/* Removes every pin of @dir, then @dir: programs detach, maps go. */
static void unpin_dir(const char *dir)
{
	char path[256];

	for (size_t i = 0; i < NLINKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pin_links[i]);
		unlink(path);
	}
	for (size_t i = 0; i < NMAPS; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pin_maps[i]);
		unlink(path);
	}
	rmdir(dir);
}

static int have_ksym(const char *name)
{
	char line[256], sym[128];
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %127s", sym) == 1 && !strcmp(sym, name);
	fclose(f);
	return found;
}

/* Loads, attaches and pins the enforcer with @pol for @key. */
static int load(__u64 key, const struct pm_policy *pol)
{
	struct procmem_bpf *skel;
	struct bpf_map *maps[NMAPS];
	struct bpf_link *links[NLINKS];
	struct pm_policy machine = { .level = { 0 } };
	char tmp[128], path[256];
	__u64 zero = 0;
	int err;

	if (!have_ksym("proc_mem_operations"))
		return refuse(EXIT_BPF, "/proc/kallsyms has no proc_mem_operations: the kernel needs CONFIG_KALLSYMS_ALL=y");
	libbpf_set_print(bpf_print);
	skel = procmem_bpf__open_and_load();
	if (!skel) {
		fputs(bpf_log, stderr);
		return refuse(EXIT_BPF, "cannot load the BPF enforcer: %s", strerror(errno));
	}
	/* The policy is in place before any program runs. */
	err = bpf_map__update_elem(skel->maps.policy, &zero, sizeof(zero),
				   key ? &machine : pol, sizeof(*pol), BPF_ANY);
	if (!err && key)
		err = bpf_map__update_elem(skel->maps.policy, &key, sizeof(key),
					   pol, sizeof(*pol), BPF_ANY);
	if (err) {
		procmem_bpf__destroy(skel);
		return refuse(EXIT_BPF, "cannot set the policy: %s", strerror(-err));
	}
	err = procmem_bpf__attach(skel);
	if (err) {
		fputs(bpf_log, stderr);
		procmem_bpf__destroy(skel);
		return refuse(EXIT_BPF, "cannot attach the BPF enforcer: %s", strerror(-err));
	}
	maps[0] = skel->maps.policy;
	maps[1] = skel->maps.files;
	maps[2] = skel->maps.counters;
	maps[3] = skel->maps.events;
	links[0] = skel->links.pm_file_open;
	links[1] = skel->links.pm_file_permission;
	links[2] = skel->links.pm_file_free;

	/* bpffs refuses names with a dot. */
	snprintf(tmp, sizeof(tmp), "%s_new_%d", PM_PIN_DIR, (int)getpid());
	if (mkdir(tmp, 0700)) {
		procmem_bpf__destroy(skel);
		return refuse(EXIT_BPF, "cannot create %s: %s", tmp, strerror(errno));
	}
	for (size_t i = 0; !err && i < NMAPS; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, pin_maps[i]);
		err = bpf_obj_pin(bpf_map__fd(maps[i]), path) ? -errno : 0;
	}
	for (size_t i = 0; !err && i < NLINKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, pin_links[i]);
		err = bpf_link__pin(links[i], path);
	}
	if (!err && rename(tmp, PM_PIN_DIR))
		err = -errno;
	if (err)
		unpin_dir(tmp);
	/* Closes our fds; the pins keep programs, links and maps alive. */
	procmem_bpf__destroy(skel);
	if (err)
		return refuse(EXIT_BPF, "cannot pin the enforcer under %s: %s",
			      PM_PIN_DIR, strerror(-err));
	return EXIT_OK;
}

static int lsm_active(char *list, size_t n)
{
	FILE *f = fopen(LSM_FILE, "r");

	if (!f) {
		/* securityfs is not mounted on a bare system: mount it. */
		mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
		f = fopen(LSM_FILE, "r");
	}
	if (!f)
		return -1;
	if (!fgets(list, (int)n, f))
		list[0] = 0;
	fclose(f);
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

static int read_counters(int fd, __u64 *c)
{
	for (__u32 i = 0; i < PM_C_NR; i++)
		if (bpf_map_lookup_elem(fd, &i, &c[i]))
			return -1;
	return 0;
}

static long count_entries(int fd)
{
	__u64 key, next;
	long n = 0;
	int err = bpf_map_get_next_key(fd, NULL, &next);

	while (!err) {
		n++;
		key = next;
		err = bpf_map_get_next_key(fd, &key, &next);
	}
	return n;
}

/* Our own cgroup's id and those of its ancestors, deepest first. */
static int own_cgroups(__u64 *ids, char (*paths)[256], int max)
{
	char line[512], path[256];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3))
			break;
	fclose(f);
	if (strncmp(line, "0::", 3))
		return 0;
	line[strcspn(line, "\n")] = 0;
	snprintf(path, sizeof(path), "%.255s", line + 3);
	while (n < max) {
		char *p;

		if (!cgroup_lookup(path, paths[n], sizeof(paths[n]), &ids[n]))
			n++;
		p = strrchr(path, '/');
		if (!p || p == path)
			break;
		*p = 0;
	}
	return n;
}

int enforcer_read(struct enforcer *e)
{
	int pfd, cfd, ffd;
	__u64 ids[PM_CGROUP_DEPTH], zero = 0;
	char paths[PM_CGROUP_DEPTH][256];
	struct pm_policy pol;
	int n;

	memset(e, 0, sizeof(*e));
	for (int o = 0; o < NOPS; o++)
		e->level[o] = LV_UNKNOWN;
	if (!enforcer_loaded())
		return 0;
	e->loaded = 1;
	pfd = bpf_obj_get(PM_PIN_DIR "/policy");
	cfd = bpf_obj_get(PM_PIN_DIR "/counters");
	ffd = bpf_obj_get(PM_PIN_DIR "/files");
	if (pfd < 0 || cfd < 0 || ffd < 0) {
		snprintf(e->error, sizeof(e->error), "cannot open the pinned maps: %s",
			 strerror(errno));
		goto out;
	}
	n = own_cgroups(ids, paths, PM_CGROUP_DEPTH);
	for (int i = 0; i < n && !e->have_policy; i++)
		if (!bpf_map_lookup_elem(pfd, &ids[i], &pol)) {
			e->have_policy = 1;
			e->scope = ids[i];
			snprintf(e->scope_path, sizeof(e->scope_path), "%.255s", paths[i]);
		}
	if (!e->have_policy && !bpf_map_lookup_elem(pfd, &zero, &pol))
		e->have_policy = 1;
	if (e->have_policy) {
		for (int o = 0; o < PM_NOPS; o++)
			e->level[o] = (enum level)pol.level[o];
		e->permissive = pol.permissive;
	}
	e->overrides = count_entries(pfd) - 1;
	e->files = count_entries(ffd);
	if (read_counters(cfd, e->counters))
		snprintf(e->error, sizeof(e->error), "cannot read the counters");
out:
	if (pfd >= 0)
		close(pfd);
	if (cfd >= 0)
		close(cfd);
	if (ffd >= 0)
		close(ffd);
	return e->error[0] ? -1 : 0;
}

static int show(void)
{
	struct enforcer e;
	char buf[160];
	struct pm_policy pol;
	__u64 key, next;
	int fd, err;

	enforcer_read(&e);
	if (!e.loaded) {
		printf("enforcer:   not loaded (%s absent)\n", PM_PIN_DIR);
		return EXIT_OK;
	}
	if (e.error[0])
		return refuse(EXIT_BPF, "%s", e.error);
	printf("enforcer:   loaded, pinned under %s\n", PM_PIN_DIR);
	fd = bpf_obj_get(PM_PIN_DIR "/policy");
	for (err = bpf_map_get_next_key(fd, NULL, &next); !err;
	     err = bpf_map_get_next_key(fd, &key, &next)) {
		key = next;
		if (bpf_map_lookup_elem(fd, &key, &pol))
			continue;
		policy_text(buf, sizeof(buf), &pol);
		if (key)
			printf("cgroup:     id %llu: %s\n", (unsigned long long)key, buf);
		else
			printf("machine:    %s\n", buf);
	}
	close(fd);
	printf("denied:     open_read %llu open_write %llu write %llu\n",
	       e.counters[PM_C_DENIED], e.counters[PM_C_DENIED + 1],
	       e.counters[PM_C_DENIED + 2]);
	printf("would_deny: open_read %llu open_write %llu write %llu\n",
	       e.counters[PM_C_WOULD_DENY], e.counters[PM_C_WOULD_DENY + 1],
	       e.counters[PM_C_WOULD_DENY + 2]);
	printf("allowed:    open_read %llu open_write %llu write %llu\n",
	       e.counters[PM_C_ALLOWED], e.counters[PM_C_ALLOWED + 1],
	       e.counters[PM_C_ALLOWED + 2]);
	printf("events:     dropped %llu\n", e.counters[PM_C_EVENTS_DROPPED]);
	printf("files:      %ld open mem files opened by their target or tracer, %llu not recorded (map full)\n",
	       e.files, e.counters[PM_C_FILES_FULL]);
	return EXIT_OK;
}

static int enforce_usage(const char *fmt, const char *arg)
{
	fputs("procmem: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'procmem --help'.\n", stderr);
	return EXIT_USAGE;
}

/*
 * One `procmem enforce` command line.  DRY: check it as far as can be
 * without touching the enforcer (arguments, root, BTF, BPF LSM, the
 * cgroup), and stop there.
 */
static int enforce_args(int argc, char **argv, int dry)
{
	static const char *const opt[PM_NOPS] = { "--open-read", "--open-write", "--write" };
	int set[PM_NOPS] = { 0 }, level[PM_NOPS] = { 0 }, permissive = 0, off = 0, any = 0;
	const char *cg = NULL;
	char cgpath[256], lsm[256], param[300];
	struct pm_policy pol;
	__u64 key = 0;
	int fd, err, rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		size_t len = strcspn(a, "=");
		int o;

		if (!strcmp(a, "enforce"))
			continue;
		if (!strcmp(a, "--permissive")) {
			permissive = any = 1;
			continue;
		}
		if (!strcmp(a, "--off")) {
			off = 1;
			continue;
		}
		if (a[len] == '=')
			v = a + len + 1;
		else if (i + 1 < argc && a[0] == '-')
			v = argv[i + 1];
		if (!strncmp(a, "--cgroup", len) && len == 8) {
			if (!v)
				return enforce_usage("%s needs a cgroup path", a);
			i += a[len] != '=';
			cg = v;
			continue;
		}
		for (o = 0; o < PM_NOPS; o++)
			if (strlen(opt[o]) == len && !strncmp(a, opt[o], len))
				break;
		if (o == PM_NOPS)
			return enforce_usage("enforce: unknown argument '%s'", a);
		if (!v)
			return enforce_usage("%s needs a level", a);
		i += a[len] != '=';
		level[o] = parse_level(v, 1);
		if (level[o] == LV_UNKNOWN) {
			fprintf(stderr, "procmem: bad level '%s' for %s (always, self, ptrace, never;"
				" synonyms off, ptracer, all)\n", v, opt[o]);
			return EXIT_USAGE;
		}
		set[o] = any = 1;
	}
	if (off && any)
		return enforce_usage("%s", "--off takes no levels and no --permissive");

	if (geteuid() != 0)
		return refuse(EXIT_NOT_ROOT, "enforce needs root (CAP_SYS_ADMIN and CAP_BPF)");
	if (access(BTF_FILE, R_OK))
		return refuse(EXIT_NO_BTF, "the kernel has no BTF (%s): it needs CONFIG_DEBUG_INFO_BTF=y",
			      BTF_FILE);
	rc = lsm_active(lsm, sizeof(lsm));
	if (rc == 0) {
		lsm_param(lsm, param, sizeof(param));
		return refuse(EXIT_NO_BPF_LSM, "BPF LSM is not active (%s: %s): boot with lsm=%s",
			      LSM_FILE, lsm, param);
	}
	if (rc < 0)
		return refuse(EXIT_NO_BPF_LSM, "BPF LSM: cannot read %s: %s", LSM_FILE,
			      strerror(errno));
	if (cg && cgroup_lookup(cg, cgpath, sizeof(cgpath), &key))
		return refuse(EXIT_NO_CGROUP, "no cgroup-v2 directory %s", cgpath);
	if (dry)
		return EXIT_OK;
	if (bpffs())
		return refuse(EXIT_BPF, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));

	if (!any && !off)
		return show();
	if (off && !cg) {
		if (enforcer_loaded())
			unpin_dir(PM_PIN_DIR);
		if (enforcer_loaded())
			return refuse(EXIT_BPF, "cannot remove %s", PM_PIN_DIR);
		printf("procmem: enforcer off\n");
		return EXIT_OK;
	}

	/* The levels not given: the scope's own, else the machine's, else always. */
	memset(&pol, 0, sizeof(pol));
	fd = enforcer_loaded() ? bpf_obj_get(PM_PIN_DIR "/policy") : -1;
	if (fd >= 0 && bpf_map_lookup_elem(fd, &key, &pol)) {
		__u64 zero = 0;

		if (bpf_map_lookup_elem(fd, &zero, &pol))
			memset(&pol, 0, sizeof(pol));
	}
	for (int o = 0; o < PM_NOPS; o++)
		if (set[o])
			pol.level[o] = (unsigned char)level[o];
	pol.permissive = (unsigned char)permissive;

	if (off) {	/* --off --cgroup: drop the override */
		if (fd < 0)
			return refuse(EXIT_BPF, "the enforcer is not loaded");
		err = bpf_map_delete_elem(fd, &key);
		close(fd);
		if (err && errno != ENOENT)
			return refuse(EXIT_BPF, "cannot remove the override: %s", strerror(errno));
		printf("procmem: no override for %s\n", cgpath);
		return EXIT_OK;
	}
	if (fd < 0 && enforcer_loaded())
		return refuse(EXIT_BPF, "cannot open %s/policy: %s", PM_PIN_DIR, strerror(errno));
	if (fd >= 0) {
		err = bpf_map_update_elem(fd, &key, &pol, BPF_ANY);
		close(fd);
		if (err)
			return refuse(EXIT_BPF, "cannot update the policy: %s", strerror(errno));
	} else {
		rc = load(key, &pol);
		if (rc)
			return rc;
	}
	policy_text(param, sizeof(param), &pol);
	if (cg)
		printf("procmem: enforcing %s for cgroup %s\n", param, cgpath);
	else
		printf("procmem: enforcing %s\n", param);
	return EXIT_OK;
}

/*
 * config_pass - run each line of @f that is not blank or a comment as the
 * arguments of one `procmem enforce`, checking only if @dry.  A dry pass
 * reports every bad line; a real one stops at the first failure.
 * Returns the status of the first line that failed, else EXIT_OK.
 */
static int config_pass(FILE *f, const char *file, int dry)
{
	char line[1024], *words[32];
	int rc = EXIT_OK, lineno = 0;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		int n = 1, r;

		lineno++;
		words[0] = "procmem";
		for (char *w = strtok(line, " \t\n"); w && n < 31; w = strtok(NULL, " \t\n")) {
			if (w[0] == '#')
				break;
			words[n++] = w;
		}
		words[n] = NULL;
		if (n == 1)
			continue;
		r = enforce_args(n, words, dry);
		if (r) {
			fprintf(stderr, "procmem: %s:%d: %s\n", file, lineno,
				dry ? "bad line" : "not applied");
			if (rc == EXIT_OK)
				rc = r;
			if (!dry)
				break;
		}
	}
	return rc;
}

/*
 * --config FILE: each line that is not blank or a comment is the
 * arguments of one `procmem enforce`, applied in order (the systemd unit
 * uses it: a machine policy, then cgroup overrides).  Every line is
 * checked first and nothing is applied if one is wrong; after that only
 * the kernel can still refuse a line (loading or a map update), and the
 * lines before it stay applied.
 */
static int enforce_config(const char *file)
{
	FILE *f = fopen(file, "r");
	int rc;

	if (!f)
		return refuse(EXIT_USAGE, "cannot read %s: %s", file, strerror(errno));
	rc = config_pass(f, file, 1);
	if (rc)
		fprintf(stderr, "procmem: %s: nothing applied\n", file);
	else
		rc = config_pass(f, file, 0);
	fclose(f);
	return rc;
}

int cmd_enforce(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--config") || !strncmp(argv[i], "--config=", 9)) {
			const char *file = argv[i][8] == '=' ? argv[i] + 9 :
					   i + 1 < argc ? argv[i + 1] : NULL;

			if (!file)
				return enforce_usage("%s", "--config needs a file");
			if (argc != (argv[i][8] == '=' ? 3 : 4))
				return enforce_usage("%s", "--config takes no other options");
			return enforce_config(file);
		}
	return enforce_args(argc, argv, 0);
}

/* ---- watch ---- */

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct watch {
	int json;
	long count, seen;
	long long mono_to_real;		/* ns to add to a ktime */
};

static const char *const verdicts[] = { "allowed", "denied", "would-deny" };

static void text_str(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f || s[i] == ' ' ? '?' : s[i]);
}

/* One access, from either source; -1 (or NULL): the source lacks it. */
struct access {
	long long ts_ns;		/* CLOCK_MONOTONIC */
	const char *op, *level, *verdict;
	int permissive, tracer;
	long long pid, tid, uid, target_pid, target_tid, cgroup, scope;
	const char *comm, *target_comm;
};

static void json_num(const char *key, long long v)
{
	if (v < 0)
		printf(", \"%s\": null", key);
	else
		printf(", \"%s\": %lld", key, v);
}

static void print_access(const struct watch *w, const struct access *a)
{
	long long real = a->ts_ns + w->mono_to_real;
	time_t sec = (time_t)(real / 1000000000);
	char when[40];
	struct tm tm;

	gmtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	if (w->json) {
		printf("{\"time\": \"%s.%06lldZ\", \"op\": \"%s\", \"level\": \"%s\", "
		       "\"verdict\": \"%s\", \"permissive\": %d", when, real % 1000000000 / 1000,
		       a->op, a->level, a->verdict, a->permissive);
		json_num("pid", a->pid);
		json_num("tid", a->tid);
		json_num("uid", a->uid);
		printf(", \"comm\": ");
		json_str(stdout, a->comm);
		json_num("cgroup", a->cgroup);
		json_num("scope", a->scope);
		json_num("target_pid", a->target_pid);
		json_num("target_tid", a->target_tid);
		printf(", \"target_comm\": ");
		json_str(stdout, a->target_comm);
		printf(", \"tracer\": %s}\n", a->tracer ? "true" : "false");
	} else {
		printf("%s.%06lldZ %-10s %-6s %-10s pid %lld uid %lld comm ", when,
		       real % 1000000000 / 1000, a->op, a->level, a->verdict, a->pid, a->uid);
		text_str(a->comm, 16);
		if (a->cgroup < 0)
			printf(" cgroup -");
		else
			printf(" cgroup %lld", a->cgroup);
		printf(" target %lld comm ", a->target_pid);
		text_str(a->target_comm, 16);
		printf(" tracer %d%s\n", a->tracer, a->permissive ? " permissive" : "");
	}
	fflush(stdout);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct watch *w = ctx;
	const struct pm_event *e = data;
	char comm[17], tcomm[17];
	struct access a;

	/* libbpf 1.1 goes on after a positive return: stop printing. */
	if (size < sizeof(*e) || (w->count && w->seen >= w->count))
		return 0;
	snprintf(comm, sizeof(comm), "%.16s", e->comm);
	snprintf(tcomm, sizeof(tcomm), "%.16s", e->target_comm);
	a = (struct access){
		.ts_ns = (long long)e->ts_ns, .op = op_names[e->op % PM_NOPS],
		.level = level_name((enum level)(e->level & 3)),
		.verdict = verdicts[e->verdict % 3], .permissive = e->permissive,
		.tracer = e->tracer, .pid = e->pid, .tid = e->tid, .uid = e->uid,
		.target_pid = e->target_pid, .target_tid = e->target_tid,
		.cgroup = (long long)e->cgroup_id, .scope = (long long)e->scope,
		.comm = comm, .target_comm = tcomm,
	};
	print_access(w, &a);
	w->seen++;
	return w->count && w->seen >= w->count ? 1 : 0;
}

static void report_drops(const struct watch *w, unsigned long long n, int before)
{
	if (w->json)
		printf("{\"dropped\": %llu, \"before_start\": %s}\n", n,
		       before ? "true" : "false");
	else
		printf("dropped:   %llu events lost (ring buffer full)%s\n", n,
		       before ? " before this watch started" : "");
	fflush(stdout);
}

/* A trace_pipe line: an event printed, or the events the buffer lost. */
static int tp_line(void *ctx, char *line)
{
	struct watch *w = ctx;
	unsigned long lost;
	struct tp_record r;
	struct access a;
	int rc = tp_parse(line, &r, &lost);

	if (rc == 0 && lost) {
		report_drops(w, lost, 0);
	} else if (rc < 0) {
		fprintf(stderr, "procmem: watch: a tracepoint line that does not parse\n");
	} else if (rc > 0) {
		a = (struct access){
			.ts_ns = r.ts_ns, .op = r.op, .level = r.level,
			.verdict = r.permissive ? "would-deny" : "denied",
			.permissive = r.permissive, .tracer = r.tracer,
			.pid = r.pid, .tid = -1, .uid = r.uid,
			.target_pid = r.target_pid, .target_tid = -1,
			.cgroup = -1, .scope = -1,
			.comm = r.comm, .target_comm = r.target_comm,
		};
		print_access(w, &a);
		w->seen++;
	}
	return w->count && w->seen >= w->count;
}

/*
 * The patched kernel without the enforcer: its own tracepoint, which
 * fires on denials and (permissive) would-denies, not on allowed
 * accesses; it does not record tids or cgroups.
 */
static int watch_tracepoint(struct watch *w)
{
	struct linebuf l = { .len = 0 };
	char inst[128], err[256];
	int fd;

	fd = tp_open("watch", inst, sizeof(inst), err, sizeof(err));
	if (fd < 0)
		return refuse(EXIT_NORUN, "%s", err);
	fprintf(stderr, "procmem: watching the tracepoint proc_mem:proc_mem_deny "
		"(denials and would-denies only)\n");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && !(w->count && w->seen >= w->count)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 500) > 0 && lines_read(&l, fd, tp_line, w) < 0)
			break;
	}
	tp_close(fd, inst);
	return EXIT_OK;
}

int cmd_watch(int argc, char **argv)
{
	struct watch w = { 0 };
	struct ring_buffer *rb;
	struct timespec mono, real;
	unsigned long long drops0 = 0, drops;
	__u64 c[PM_C_NR];
	int efd, cfd, lfd, err = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (!strcmp(a, "watch"))
			continue;
		if (!strcmp(a, "--json")) {
			w.json = 1;
		} else if (!strcmp(a, "--count") && i + 1 < argc) {
			w.count = strtol(argv[++i], &end, 10);
			if (*end || w.count < 1)
				return enforce_usage("--count takes a positive number, not '%s'", argv[i]);
		} else {
			return enforce_usage("watch: unknown argument '%s'", a);
		}
	}
	if (geteuid() != 0)
		return refuse(EXIT_NOT_ROOT, "watch needs root");
	bpffs();
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	w.mono_to_real = (real.tv_sec - mono.tv_sec) * 1000000000LL +
			 (real.tv_nsec - mono.tv_nsec);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!enforcer_loaded()) {
		if (tp_available())
			return watch_tracepoint(&w);
		return refuse(EXIT_NORUN, "the enforcer is not loaded (procmem enforce) "
			      "and this kernel has no proc_mem tracepoint");
	}
	/*
	 * A ring buffer has one reader: two watchers would each see part of
	 * the events.  The lock is on the pin directory, so it lives as long
	 * as this enforcer does.
	 */
	lfd = open(PM_PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lfd < 0)
		return refuse(EXIT_NORUN, "cannot open %s: %s", PM_PIN_DIR, strerror(errno));
	if (flock(lfd, LOCK_EX | LOCK_NB)) {
		err = errno;
		close(lfd);
		if (err == EWOULDBLOCK)
			return refuse(EXIT_NORUN, "another procmem watch is reading the events");
		return refuse(EXIT_NORUN, "cannot lock %s: %s", PM_PIN_DIR, strerror(err));
	}
	efd = bpf_obj_get(PM_PIN_DIR "/events");
	cfd = bpf_obj_get(PM_PIN_DIR "/counters");
	if (efd < 0 || cfd < 0)
		return refuse(EXIT_NORUN, "cannot open the pinned maps: %s", strerror(errno));
	if (!read_counters(cfd, c))
		drops0 = c[PM_C_EVENTS_DROPPED];
	if (drops0)	/* nobody read the buffer: say so before its events */
		report_drops(&w, drops0, 1);
	libbpf_set_print(bpf_print);
	rb = ring_buffer__new(efd, on_event, &w, NULL);
	if (!rb)
		return refuse(EXIT_NORUN, "cannot read the ring buffer: %s", strerror(errno));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && !(w.count && w.seen >= w.count)) {
		err = ring_buffer__poll(rb, 500);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		if (!read_counters(cfd, c) && c[PM_C_EVENTS_DROPPED] > drops0) {
			drops = c[PM_C_EVENTS_DROPPED];
			report_drops(&w, drops - drops0, 0);
			drops0 = drops;
		}
	}
	ring_buffer__free(rb);
	close(efd);
	close(cfd);
	close(lfd);
	return err ? refuse(EXIT_NORUN, "ring buffer: %s", strerror(-err)) : EXIT_OK;
}
