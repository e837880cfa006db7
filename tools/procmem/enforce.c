// SPDX-License-Identifier: GPL-2.0
/*
 * procmem enforce: the /proc/PID/mem policy on a kernel without the
 * series, through the BPF LSM programs of bpf/enforcer.bpf.c, loaded,
 * pinned and checked by loader.c.
 *
 * A command line changes the policy in force (the levels it names, for
 * the machine or one cgroup path); --config FILE describes the whole
 * policy, line by line, and puts it in force at once.  Either way the
 * change is one update of the policy map, and `procmem enforce` says
 * "enforcing" only after the programs decided its own probe accesses as
 * the new policy says.
 */
#include "procmem.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* One `procmem enforce` command line (or one line of a config file). */
struct request {
	int set[PM_NOPS];
	int level[PM_NOPS];
	int permissive, off, show_only, check;
	const char *cgroup;		/* NULL: the machine (as given, for messages) */
	const char *unit, *container, *pod;	/* a workload that names the cgroup */
	char label[PM_LABEL_MAX];	/* the workload's, once resolved */
	char comp[PM_DEPTH_MAX][PM_NAME_MAX];
	int depth;
	const char *config;
};

/* Where each scope of a config's policy was last named: "FILE:LINE". */
struct origins {
	char machine[PATH_MAX + 16];
	char ov[PM_OVERRIDES_MAX][PATH_MAX + 16];
};

static void enforce_help(void)
{
	char levels[128];

	level_list(levels, sizeof(levels), ", ", NULL);
	printf("usage: procmem enforce [--open-read=L] [--open-write=L] [--write=L]\n"
	      "                       [--permissive] [SCOPE] [--verbose]\n"
	      "       procmem enforce --off [SCOPE]\n"
	      "       procmem enforce --config FILE [--check] [--verbose]\n"
	      "       procmem enforce          show the enforcer and its policy\n"
	      "\n"
	      "Levels L: %s.  SCOPE, one of: --cgroup PATH, a\n"
	      "cgroup-v2 path relative to /sys/fs/cgroup that need not exist yet\n"
	      "(components up to 255 bytes, no '*'); --unit NAME, a systemd unit's cgroup;\n"
	      "--container NAME|ID, a running podman or docker container's; --pod UID, a\n"
	      "Kubernetes pod's.  --config FILE reads FILE, then FILE's drop-ins\n"
	      "(enforce.conf: enforce.d/*.conf) in lexical order; with --check it only\n"
	      "checks them, as any user, and resolves their scopes.  Exit status: 0\n"
	      "enforcing (or shown complete), 1 shown degraded, 2 usage, 4 not root, 5 BPF\n"
	      "LSM not active, 6 no BTF, 7 a cgroup path too deep or a bad name, 8 BPF\n"
	      "failure, 9 the self-check failed (the previous policy kept), 10 lockdown\n"
	      "forbids it, 13 the kernel's BTF lacks a field, hook or helper the programs\n"
	      "need, 14 the unit, container or pod (or its manager) is not there.\n", levels);
}

/*
 * Parses @argv (argv[0] is "enforce" or the config file's name) into
 * @r.  EXIT_OK, EXIT_USAGE with one line said, or -1 for --help.
 */
static int parse(int argc, char **argv, struct request *r, int in_config)
{
	enum { O_READ = 256, O_WRITE_OPEN, O_WRITE, O_PERM, O_CGROUP, O_OFF, O_CONFIG, O_VERBOSE,
	       O_UNIT, O_CONTAINER, O_POD, O_CHECK };
	static const struct option opts[] = {
		{ "open-read", required_argument, NULL, O_READ },
		{ "open-write", required_argument, NULL, O_WRITE_OPEN },
		{ "write", required_argument, NULL, O_WRITE },
		{ "permissive", no_argument, NULL, O_PERM },
		{ "cgroup", required_argument, NULL, O_CGROUP },
		{ "off", no_argument, NULL, O_OFF },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "unit", required_argument, NULL, O_UNIT },
		{ "container", required_argument, NULL, O_CONTAINER },
		{ "pod", required_argument, NULL, O_POD },
		{ "check", no_argument, NULL, O_CHECK },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, any = 0, scopes = 0;

	memset(r, 0, sizeof(*r));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_READ:
		case O_WRITE_OPEN:
		case O_WRITE: {
			int o = c - O_READ;
			enum level lv = parse_level(optarg, 1);

			if (lv == LV_UNKNOWN) {
				char levels[128];

				level_list(levels, sizeof(levels), ", ", "; synonyms ");
				return pm_usage_error("enforce", "bad level '%s' for --%s (%s)",
						      optarg, opts[o].name, levels);
			}
			r->set[o] = 1;
			r->level[o] = lv;
			any = 1;
			break;
		}
		case O_PERM:
			r->permissive = any = 1;
			break;
		case O_CGROUP:
			r->cgroup = optarg;
			scopes++;
			break;
		case O_UNIT:
			r->unit = optarg;
			scopes++;
			break;
		case O_CONTAINER:
			r->container = optarg;
			scopes++;
			break;
		case O_POD:
			r->pod = optarg;
			scopes++;
			break;
		case O_CHECK:
			r->check = 1;
			break;
		case O_OFF:
			r->off = 1;
			break;
		case O_CONFIG:
			r->config = optarg;
			break;
		case O_VERBOSE:
			pm_verbose = 1;
			break;
		case 'h':
			return -1;
		default:
			return pm_opt_error("enforce", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("enforce", "unexpected argument '%s'", argv[optind]);
	if (r->off && any)
		return pm_usage_error("enforce", "--off takes no levels and no --permissive");
	if (scopes > 1)
		return pm_usage_error("enforce", "one scope at a time: --cgroup, --unit, --container or --pod");
	if (r->config && (any || r->off || scopes))
		return pm_usage_error("enforce", "--config takes no other options");
	if (r->check && !r->config)
		return pm_usage_error("enforce", "--check goes with --config");
	if (in_config && (r->off || r->config))
		return pm_usage_error("enforce", "a config line takes levels, --permissive and one scope");
	r->show_only = !any && !r->off && !r->config;
	if (r->show_only && scopes)
		return pm_usage_error("enforce", "a scope needs levels, or --off");
	return EXIT_OK;
}

/*
 * The cgroup path @r names, split into r->comp: --cgroup's resolved
 * through the mounts (cgroup.c), a workload's asked of its manager
 * (workload.c), which also gives r->label.  EXIT_OK or a refusal.
 */
/* --config --check: each line checked and its scope resolved, nothing
 * asked of the kernel's BPF, no root needed. */
static int checking;

static int resolve_scope(struct request *r)
{
	static char path[PATH_MAX];
	char rel[PATH_MAX], cwhy[PATH_MAX + 400];
	const char *given = r->cgroup;
	int rc = EXIT_OK, ns;

	/* the programs match paths from the v2 root: none can be named
	 * from a cgroup namespace's view of it (which a check as another
	 * user than root may not see: the real change asks again) */
	ns = pm_initial_cgroupns();
	if (ns == 0 || (ns < 0 && !checking))
		return pm_refuse(EXIT_NO_CGROUP, "procmem runs in a cgroup namespace, where a path cannot be resolved to the cgroup-v2 root the enforcer matches; run it on the host");
	if (r->unit)
		rc = pm_unit_cgroup(r->unit, rel, sizeof(rel), r->label, sizeof(r->label), cwhy, sizeof(cwhy));
	else if (r->container)
		rc = pm_container_cgroup(r->container, rel, sizeof(rel), r->label, sizeof(r->label),
					 cwhy, sizeof(cwhy));
	else if (r->pod)
		rc = pm_pod_cgroup(r->pod, rel, sizeof(rel), r->label, sizeof(r->label), cwhy, sizeof(cwhy));
	else if (pm_cgroup_resolve(r->cgroup, rel, sizeof(rel), cwhy, sizeof(cwhy)))
		return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s: %s", r->cgroup, cwhy);
	if (rc)
		return pm_refuse(rc, "%s", cwhy);
	if (!given) {		/* for the messages below and enforce's line */
		snprintf(path, sizeof(path), "%s", rel);
		r->cgroup = given = path;
	}
	r->depth = pm_path_split(rel, r->comp);
	switch (r->depth) {
	case PM_SPLIT_DEEP:
		return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s: more than %d levels, which the enforcer cannot match",
				 given, PM_DEPTH_MAX);
	case PM_SPLIT_GLOB:
		return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s: '*' is no pattern here: an override names one path (name the parent slice for all its containers)",
				 given);
	case PM_SPLIT_NAME:
		return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s: a component is '.', '..', has a newline or is longer than %d bytes",
				 given, PM_NAME_MAX - 1);
	case 0:
		return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s is the root: leave the scope out for the machine",
				 given);
	default:
		return EXIT_OK;
	}
}

/* What can be checked without touching the enforcer: one line and a
 * status if the request cannot be honoured. */
static int preflight(struct request *r)
{
	struct pm_ready ready;
	char why[600];
	int rc;

	if (checking)
		return r->cgroup || r->unit || r->container || r->pod ? resolve_scope(r) : EXIT_OK;
	if (geteuid() != 0)
		return pm_refuse(EXIT_NOT_ROOT, "enforce needs root (CAP_SYS_ADMIN and CAP_BPF)");
	if (!pm_initial_pidns())
		return pm_refuse(EXIT_NOT_ENFORCING, "procmem runs in a pid namespace: it cannot name its own process to the programs (calibration, self-check); run it on the host");
	/* enforcer_ready()'s checks, securityfs mounted first (ready.c) */
	rc = pm_ready(why, sizeof(why), 1, &ready);
	if (rc)
		return pm_refuse(rc, "%s", why);
	if (r->cgroup || r->unit || r->container || r->pod)
		return resolve_scope(r);
	return EXIT_OK;
}

static int find_override(const struct pm_policy *p, const struct request *r)
{
	for (int i = 0; i < p->noverrides; i++)
		if (p->ov[i].depth == r->depth &&
		    !memcmp(p->ov[i].comp, r->comp, sizeof(r->comp[0]) * (size_t)r->depth))
			return i;
	return -1;
}

/* Applies @r to @p: the machine's levels, or one override's (those an
 * override does not name follow the machine's).  EXIT_OK or a refusal. */
static int compose(struct pm_policy *p, const struct request *r)
{
	struct pm_levels *lv = &p->machine;

	if (r->cgroup) {
		int i = find_override(p, r);

		if (r->off) {
			if (i >= 0) {
				memmove(&p->ov[i], &p->ov[i + 1],
					sizeof(p->ov[0]) * (size_t)(p->noverrides - i - 1));
				memset(&p->ov[--p->noverrides], 0, sizeof(p->ov[0]));
			}
			return EXIT_OK;
		}
		if (i < 0) {
			if (p->noverrides >= PM_OVERRIDES_MAX)
				return pm_refuse(EXIT_NO_CGROUP, "cgroup path %s: already %d overrides, the most the enforcer holds",
						 r->cgroup, PM_OVERRIDES_MAX);
			i = p->noverrides++;
			memset(&p->ov[i], 0, sizeof(p->ov[i]));
			p->ov[i].depth = (unsigned char)r->depth;
			memcpy(p->ov[i].comp, r->comp, sizeof(r->comp));
		}
		/* the workload last named for the path; a bare path keeps it */
		if (r->label[0])
			snprintf(p->ov[i].label, sizeof(p->ov[i].label), "%s", r->label);
		/* the levels it names; the others follow the machine's */
		lv = &p->ov[i].own;
		for (int o = 0; o < PM_NOPS; o++)
			if (r->set[o])
				p->ov[i].set |= 1U << o;
	}
	for (int o = 0; o < PM_NOPS; o++)
		if (r->set[o])
			lv->level[o] = (unsigned char)r->level[o];
	lv->permissive = (unsigned char)r->permissive;
	return EXIT_OK;
}

/* Is the cgroup an override names there now?  1, 0, -1 unknown (no
 * mount of the v2 root to look in). */
static int cgroup_present(const struct pm_override *ov)
{
	char path[PATH_MAX], rel[PM_DEPTH_MAX * PM_NAME_MAX + 1];
	struct stat st;

	pm_path_join(ov, rel, sizeof(rel));
	if (pm_cgroup_dir(rel, path, sizeof(path)))
		return -1;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *presence(const struct pm_override *ov)
{
	switch (cgroup_present(ov)) {
	case 1:
		return "live";
	case 0:
		return "not present: applies when created";
	default:
		return "presence unknown: no mount of the cgroup-v2 root here";
	}
}

static void print_policy(const struct pm_policy *p)
{
	char buf[160], path[PM_DEPTH_MAX * PM_NAME_MAX + 1];

	pm_levels_text(buf, sizeof(buf), &p->machine);
	printf("machine:    %s\n", buf);
	for (int i = 0; i < p->noverrides; i++) {
		char label[PM_LABEL_MAX * 4 + 8] = "";

		pm_levels_text(buf, sizeof(buf), &p->ov[i].lv);
		pm_path_join(&p->ov[i], path, sizeof(path));
		if (p->ov[i].label[0]) {
			strcpy(label, " [");
			pm_escape(label + 2, sizeof(label) - 3, p->ov[i].label,
				  strnlen(p->ov[i].label, sizeof(p->ov[i].label)));
			strcat(label, "]");
		}
		printf("cgroup:     %s%s: %s (%s)\n", path, label, buf, presence(&p->ov[i]));
	}
}

static int show(void)
{
	struct pm_state st;
	unsigned long long n[PM_C_NR];
	int rc = EXIT_OK;

	if (pm_state_open(&st)) {
		printf("enforcer:   not loaded (%s absent)\n", PM_PIN_DIR);
		return EXIT_OK;
	}
	if (st.degraded) {
		printf("enforcer:   degraded: missing %s; procmem enforce --config FILE (or any level) reloads it\n",
		       st.missing);
		rc = EXIT_FINDING;
	} else {
		printf("enforcer:   loaded, pinned under %s, complete\n", PM_PIN_DIR);
	}
	printf("hooks:     ");
	for (int i = 0; i < PM_NHOOKS; i++)
		if (st.linked & (1U << i))
			printf(" %s", pm_hook_names[i]);
	printf("%s\n", st.have_cfg && (st.cfg.flags & PM_F_RECORD) ? " (opener records on)" : "");
	if (st.have_policy)
		print_policy(&st.pol);
	if (st.map[PM_MAP_COUNTERS] >= 0 && !pm_counters(st.map[PM_MAP_COUNTERS], n)) {
		long files = 0;
		__u64 key, next;

		for (int v = PM_V_DENIED; v <= PM_NVERDICTS; v++) {
			int k = v % PM_NVERDICTS;	/* denied, would_deny, allowed */
			char kind[24];

			snprintf(kind, sizeof(kind), "%s:", verdict_name(k, VN_KEY));
			printf("%-11s open_read %llu open_write %llu write %llu\n", kind,
			       n[PM_C_DECIDED(k, 0)], n[PM_C_DECIDED(k, 1)], n[PM_C_DECIDED(k, 2)]);
		}
		printf("dropped:    denied %llu would-deny %llu allowed %llu (ring buffer full)\n",
		       n[PM_C_DROPPED(PM_V_DENIED)], n[PM_C_DROPPED(PM_V_WOULD_DENY)],
		       n[PM_C_DROPPED(PM_V_ALLOWED)]);
		printf("limited:    denied %llu would-deny %llu (over a bucket's event rate)\n",
		       n[PM_C_LIMITED(PM_V_DENIED)], n[PM_C_LIMITED(PM_V_WOULD_DENY)]);
		if (st.map[PM_MAP_FILES] >= 0)
			for (int err = bpf_map_get_next_key(st.map[PM_MAP_FILES], NULL, &next); !err;
			     err = bpf_map_get_next_key(st.map[PM_MAP_FILES], &key, &next)) {
				key = next;
				files++;
			}
		printf("files:      %ld open mem files with opener records, %llu not recorded (map full)\n",
		       files, n[PM_C_FILES_FULL]);
	}
	pm_state_close(&st);
	return rc;
}

/* The policy pinned now, to change (all always when there is none). */
static void current_policy(struct pm_policy *p)
{
	struct pm_state st;

	memset(p, 0, sizeof(*p));
	if (!pm_state_open(&st) && st.have_policy)
		*p = st.pol;
	pm_state_close(&st);
}

/* Puts @p in force; call with pm_lock() held. */
static int put_in_force(const struct pm_policy *p, const char *what)
{
	char buf[160];
	int rc = pm_apply(p);

	if (rc)
		return rc;
	pm_levels_text(buf, sizeof(buf), &p->machine);
	printf("procmem: enforcing %s%s\n", buf, what);
	return EXIT_OK;
}

/* A line of the config, "FILE:LINE", named a scope @prev named too. */
static void named_again(const char *scope, const char *prev, const char *now)
{
	if (prev[0] && strncmp(prev, now, strcspn(now, ":") + 1))
		fprintf(stderr, "procmem: %s: %s also set in %s: the later line's levels win, the ones it does not name stay\n",
			now, scope, prev);
}

/*
 * One config file's lines composed into @p: each line that is not blank
 * or a comment is the options of one `procmem enforce` (levels,
 * --permissive, one scope).  Every line is checked, and a bad one said,
 * before the caller applies anything.  EXIT_OK or the first refusal.
 */
static int config_file(const char *file, struct pm_policy *p, struct origins *o)
{
	char line[PM_DEPTH_MAX * PM_NAME_MAX + 1024], *words[32], at[PATH_MAX + 16];
	struct request r;
	int rc = EXIT_OK, lineno = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return pm_refuse(EXIT_USAGE, "cannot read %s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		int n = 1, lr = EXIT_OK, i;

		lineno++;
		snprintf(at, sizeof(at), "%s:%d", file, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			lr = pm_usage_error("enforce", "line longer than %zu bytes", sizeof(line) - 2);
			while (fgets(line, sizeof(line), f) && !strchr(line, '\n'))
				;
			goto bad;
		}
		words[0] = (char *)file;
		for (char *w = strtok(line, " \t\n"); w && n < 31; w = strtok(NULL, " \t\n")) {
			if (w[0] == '#')
				break;
			words[n++] = w;
		}
		words[n] = NULL;
		if (n == 1)
			continue;
		lr = parse(n, words, &r, 1);
		if (lr == -1 || (lr == EXIT_OK && r.show_only))
			lr = pm_usage_error("enforce", "a config line needs levels or --permissive");
		if (lr == EXIT_OK)
			lr = preflight(&r);
		if (lr == EXIT_OK)
			lr = compose(p, &r);
		if (lr == EXIT_OK && !r.cgroup) {
			named_again("the machine", o->machine, at);
			snprintf(o->machine, sizeof(o->machine), "%s", at);
		} else if (lr == EXIT_OK && (i = find_override(p, &r)) >= 0) {
			char path[PM_DEPTH_MAX * PM_NAME_MAX + 1], name[sizeof(path) + 8];

			pm_path_join(&p->ov[i], path, sizeof(path));
			snprintf(name, sizeof(name), "cgroup %s", path);
			named_again(name, o->ov[i], at);
			snprintf(o->ov[i], sizeof(o->ov[i]), "%s", at);
		}
bad:
		if (lr) {
			fprintf(stderr, "procmem: %s: bad line\n", at);
			if (rc == EXIT_OK)
				rc = lr;
		}
	}
	fclose(f);
	return rc;
}

static int conf_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".conf");
}

/* Byte order, whatever the locale: 10-a.conf before 9-b.conf. */
static int bytewise(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * FILE's drop-in directory: FILE with ".conf" replaced by ".d"
 * (enforce.conf: enforce.d), else FILE ".d".  Its *.conf files, in byte
 * order, composed after FILE.  A directory that is not there is none.
 */
static int config_dropins(const char *file, struct pm_policy *p, struct origins *o)
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	size_t n = strlen(file);
	struct dirent **names;
	int rc = EXIT_OK, k;

	if (n > 5 && !strcmp(file + n - 5, ".conf"))
		n -= 5;
	snprintf(dir, sizeof(dir), "%.*s.d", (int)n, file);
	k = scandir(dir, &names, conf_name, bytewise);
	if (k < 0)
		return errno == ENOENT ? EXIT_OK :
		       pm_refuse(EXIT_USAGE, "cannot read %s: %s", dir, strerror(errno));
	for (int i = 0; i < k; i++) {
		int fr;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		fr = config_file(path, p, o);
		if (fr && rc == EXIT_OK)
			rc = fr;
		free(names[i]);
	}
	free(names);
	return rc;
}

static void say_change(const char *line, void *arg)
{
	(void)arg;
	printf("procmem: changed: %s\n", line);
}

/*
 * --config FILE: FILE, then its drop-ins, composed in order from a
 * policy of all `always` (a later line naming a scope an earlier file
 * named changes the levels it names, said on stderr); the result is put
 * in force at once, and what changed from the policy before is said.
 * Every line of every file is checked before anything is applied.
 */
static int enforce_config(const char *file, int check)
{
	static struct origins o;
	static struct pm_policy p, prev;
	struct request r;
	int rc, lock;

	checking = check;
	memset(&p, 0, sizeof(p));
	memset(&o, 0, sizeof(o));
	rc = config_file(file, &p, &o);
	if (rc != EXIT_USAGE || access(file, F_OK) == 0) {
		int dr = config_dropins(file, &p, &o);

		if (rc == EXIT_OK)
			rc = dr;
	}
	if (rc) {
		fprintf(stderr, "procmem: %s: nothing applied\n", file);
		return rc;
	}
	if (check) {
		char buf[160];

		pm_policy_finish(&p);
		pm_levels_text(buf, sizeof(buf), &p.machine);
		printf("procmem: %s: checked: %s and %d cgroup overrides\n", file, buf, p.noverrides);
		return EXIT_OK;
	}
	memset(&r, 0, sizeof(r));
	rc = preflight(&r);	/* a file of comments only was checked by no line */
	if (rc)
		return rc;
	lock = pm_lock();
	if (lock < 0)
		return pm_refuse(EXIT_BPF, "cannot lock /run/procmem.lock: %s", strerror(errno));
	current_policy(&prev);
	pm_policy_finish(&p);
	rc = put_in_force(&p, p.noverrides ? " and cgroup overrides (procmem enforce shows them)" : "");
	close(lock);
	if (rc == EXIT_OK && !pm_policy_diff(&prev, &p, say_change, NULL))
		printf("procmem: changed: nothing\n");
	return rc;
}

int cmd_enforce(int argc, char **argv)
{
	static struct pm_policy p;
	struct request r;
	char what[PM_DEPTH_MAX * PM_NAME_MAX + 256];
	int rc = parse(argc, argv, &r, 0), lock;

	if (rc == -1) {
		enforce_help();
		return EXIT_OK;
	}
	if (rc)
		return rc;
	if (r.config) {
		if (geteuid() != 0 && !r.check)
			return pm_refuse(EXIT_NOT_ROOT, "enforce needs root (CAP_SYS_ADMIN and CAP_BPF)");
		return enforce_config(r.config, r.check);
	}
	rc = preflight(&r);
	if (rc)
		return rc;
	if (pm_bpffs())
		return pm_refuse(EXIT_BPF, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
	if (r.show_only)
		return show();
	lock = pm_lock();
	if (lock < 0)
		return pm_refuse(EXIT_BPF, "cannot lock /run/procmem.lock: %s", strerror(errno));
	if (r.off && !r.cgroup) {
		pm_unpin_dir(PM_PIN_DIR);
		pm_sweep();
		close(lock);
		if (enforcer_loaded())
			return pm_refuse(EXIT_BPF, "cannot remove %s", PM_PIN_DIR);
		printf("procmem: enforcer off\n");
		return EXIT_OK;
	}
	/* read, changed and put back under the lock: no other change is lost */
	current_policy(&p);
	rc = compose(&p, &r);
	if (rc) {
		close(lock);
		return rc;
	}
	pm_policy_finish(&p);
	what[0] = 0;
	if (r.cgroup) {
		int i = find_override(&p, &r);

		if (i >= 0) {
			char buf[160], path[PM_DEPTH_MAX * PM_NAME_MAX + 1];

			pm_levels_text(buf, sizeof(buf), &p.ov[i].lv);
			pm_path_join(&p.ov[i], path, sizeof(path));
			snprintf(what, sizeof(what), "; cgroup %s: %s%s", path, buf,
				 cgroup_present(&p.ov[i]) == 1 ? "" : " (not present yet)");
		} else {
			snprintf(what, sizeof(what), "; no override for %s", r.cgroup);
		}
	}
	rc = put_in_force(&p, what);
	close(lock);
	return rc;
}
