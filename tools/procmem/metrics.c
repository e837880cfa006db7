// SPDX-License-Identifier: GPL-2.0
/*
 * procmem metrics: the /proc/PID/mem policy of this machine in the
 * Prometheus text exposition format, for a fleet's monitoring.
 *
 *   procmem metrics [--textfile DIR] [--no-status] [--timeout S]
 *
 * What it exports: the kernel's levels and its denial counters (the
 * series' sysctls), the BPF LSM enforcer's state (absent, complete or
 * degraded), its levels per scope (the machine, each cgroup override)
 * and its decision counters, and the verdict of `procmem status` (its
 * judgement, assess(), run here: its probes are real accesses, so under
 * a restrictive policy each run adds its own denials to the counters).
 * --textfile writes DIR/procmem.prom atomically (a temporary file in
 * DIR, then rename) for node-exporter's textfile collector.
 */
#include "procmem.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROM_FILE "procmem.prom"

/* procmem status's verdicts, by its exit status. */
static const char *const status_names[] = { "ok", "mismatch", "probe-failed" };

static void metrics_help(FILE *f)
{
	fputs("usage: procmem metrics [--textfile DIR] [--no-status] [--timeout SECONDS]\n"
	      "\n"
	      "The /proc/PID/mem policy in the Prometheus text format: the kernel's\n"
	      "levels and denial counters, the BPF LSM enforcer's state, levels per\n"
	      "scope and decision counters, and procmem status's verdict (its probes\n"
	      "run each time; --no-status leaves them and the verdict out).\n"
	      "\n"
	      "  --textfile DIR  write DIR/" PROM_FILE " atomically (node-exporter's\n"
	      "                  textfile collector) instead of standard output\n"
	      "  --no-status     do not run procmem status\n"
	      "  --timeout S     give up status's probes after S seconds (30)\n"
	      "\n"
	      "exit status: 0 written, 2 usage, 3 the file could not be written\n", f);
}

/* A label value: backslash, double quote and newline escaped. */
static void label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One 0/1 sample per level: 1 for @lv (none if unknown). */
static void levels(FILE *f, const char *name, const char *op, const char *scope,
		   enum level lv)
{
	for (int l = LV_ALWAYS; l < NLEVELS; l++) {
		fprintf(f, "%s{op=\"%s\",level=\"%s\"", name, op, level_name((enum level)l));
		if (scope) {
			fputs(",scope=", f);
			label(f, scope);
		}
		fprintf(f, "} %d\n", lv == l);
	}
}

static void kernel_metrics(FILE *f, const struct config *c)
{
	int counted = 0;

	family(f, "procmem_kernel_info", "gauge",
	       "The running kernel and its /proc/PID/mem controls (patched: this series, stock: force_override only, none).");
	fputs("procmem_kernel_info{release=", f);
	label(f, c->release);
	fprintf(f, ",controls=\"%s\"} 1\n", kind_name(c->kind));

	family(f, "procmem_kernel_level", "gauge",
	       "The level the kernel holds per operation: 1 for the level in force (all 0: not known).");
	for (int o = 0; o < NOPS; o++)
		levels(f, "procmem_kernel_level", op_names[o], NULL, c->configured[o]);

	family(f, "procmem_kernel_permissive", "gauge",
	       "1 if the kernel's permissive mode is on: its levels are logged, not enforced.");
	fprintf(f, "procmem_kernel_permissive %d\n", c->permissive ? 1 : 0);

	for (int o = 0; o < NOPS; o++)
		counted |= c->denied[o][0] >= 0 || c->denied[o][1] >= 0;
	if (!c->have_sysctl || !counted)
		return;
	family(f, "procmem_kernel_decisions_total", "counter",
	       "Accesses the kernel denied, or would have denied in permissive mode, per operation (since boot).");
	for (int o = 0; o < NOPS; o++)
		for (int v = 0; v < 2; v++)
			if (c->denied[o][v] >= 0)
				fprintf(f, "procmem_kernel_decisions_total{op=\"%s\",verdict=\"%s\"} %ld\n",
					op_names[o], verdict_name(v ? PM_V_WOULD_DENY : PM_V_DENIED, VN_KEY),
					c->denied[o][v]);
}

/* The enforcer's levels in one scope (in force: an override's own
 * levels, the machine's for those it does not name). */
static void enforcer_levels(FILE *f, const char *scope, const struct pm_levels *lv)
{
	for (int o = 0; o < PM_NOPS; o++)
		levels(f, "procmem_enforcer_level", op_names[o], scope,
		       level_of(lv->level[o]));
}

static void enforcer_permissive(FILE *f, const char *scope, const struct pm_levels *lv)
{
	fputs("procmem_enforcer_permissive{scope=", f);
	label(f, scope);
	fprintf(f, "} %d\n", lv->permissive ? 1 : 0);
}

/* @emit for the machine's scope, then for each cgroup override's. */
static void per_scope(FILE *f, const struct pm_policy *pol,
		      void (*emit)(FILE *f, const char *scope, const struct pm_levels *lv))
{
	char path[PM_DEPTH_MAX * PM_NAME_MAX + 1];

	emit(f, "machine", &pol->machine);
	for (int i = 0; i < pol->noverrides; i++) {
		pm_path_join(&pol->ov[i], path, sizeof(path));
		emit(f, path, &pol->ov[i].lv);
	}
}

/* One scope's denials and would-denies (slot @slot of the counters). */
static void scope_counts(FILE *f, const char *scope, const char *workload,
			 const unsigned long long *n, unsigned int slot)
{
	for (int v = PM_V_DENIED; v <= PM_V_WOULD_DENY; v++)
		for (int o = 0; o < PM_NOPS; o++) {
			fputs("procmem_enforcer_scope_decisions_total{scope=", f);
			label(f, scope);
			if (workload && workload[0]) {
				fputs(",workload=", f);
				label(f, workload);
			}
			fprintf(f, ",op=\"%s\",verdict=\"%s\"} %llu\n", op_names[o],
				verdict_name(v, VN_KEY), n[PM_C_SCOPE(slot, v, o)]);
		}
}

/* Denials per scope: the machine, each override (by its slot), and
 * cgroups too deep to walk (the strictest levels); bounded by the
 * overrides the policy holds. */
static void per_scope_counts(FILE *f, const struct pm_policy *pol, const unsigned long long *n)
{
	char path[PM_DEPTH_MAX * PM_NAME_MAX + 1], workload[PM_LABEL_MAX];

	family(f, "procmem_enforcer_scope_decisions_total", "counter",
	       "Mem file accesses the enforcer denied (or would deny) per scope: the machine, a cgroup override (with its workload where procmem was given one), or cgroups too deep to walk (strictest); since the override was made.");
	scope_counts(f, "machine", NULL, n, PM_SLOT_MACHINE);
	for (int i = 0; i < pol->noverrides; i++) {
		if (pol->ov[i].slot >= PM_OVERRIDES_MAX)
			continue;
		pm_path_join(&pol->ov[i], path, sizeof(path));
		snprintf(workload, sizeof(workload), "%.*s", PM_LABEL_MAX - 1, pol->ov[i].label);
		scope_counts(f, path, workload, n, pol->ov[i].slot);
	}
	if (pol->noverrides)
		scope_counts(f, "strictest (cgroup too deep)", NULL, n, PM_SLOT_STRICTEST);
}

static void enforcer_metrics(FILE *f)
{
	static const char *const states[] = { "absent", "complete", "degraded" };
	struct enforcer e;
	static struct pm_state st;
	unsigned long long n[PM_C_NR];
	int state, have_n = 0;

	/* enforcer_read checks the pins and asks the programs for a verdict */
	enforcer_read(&e);
	state = !e.loaded ? 0 : e.error[0] ? 2 : 1;
	family(f, "procmem_enforcer_state", "gauge",
	       "The BPF LSM enforcer (procmem enforce): 1 for its state (degraded: a pin is missing or its self-check failed).");
	for (int s = 0; s < 3; s++)
		fprintf(f, "procmem_enforcer_state{state=\"%s\"} %d\n", states[s], s == state);
	family(f, "procmem_enforcer_active", "gauge",
	       "1 if the enforcer is loaded, complete, and its programs decided procmem's own probe accesses as its policy says.");
	fprintf(f, "procmem_enforcer_active %d\n", state == 1);
	if (!e.loaded)
		return;
	if (pm_state_open(&st)) {
		pm_state_close(&st);
		return;
	}
	if (st.have_policy) {
		family(f, "procmem_enforcer_level", "gauge",
		       "The level the enforcer holds per operation and scope (the machine, or a cgroup path): 1 for the level in force.");
		per_scope(f, &st.pol, enforcer_levels);
		family(f, "procmem_enforcer_permissive", "gauge",
		       "1 if the enforcer only logs in this scope.");
		per_scope(f, &st.pol, enforcer_permissive);
		family(f, "procmem_enforcer_overrides", "gauge",
		       "Cgroup overrides in the enforcer's policy.");
		fprintf(f, "procmem_enforcer_overrides %d\n", st.pol.noverrides);
		family(f, "procmem_enforcer_policy_generation", "gauge",
		       "The generation of the enforcer's policy: it changes with every change of the policy.");
		fprintf(f, "procmem_enforcer_policy_generation %u\n", st.pol.gen);
	}
	if (st.map[PM_MAP_COUNTERS] >= 0 && !pm_counters(st.map[PM_MAP_COUNTERS], n))
		have_n = 1;
	if (have_n && st.have_policy)
		per_scope_counts(f, &st.pol, n);
	pm_state_close(&st);
	if (!have_n)
		return;
	family(f, "procmem_enforcer_decisions_total", "counter",
	       "Mem file accesses the enforcer decided, per operation and verdict (since it was loaded).");
	for (int o = 0; o < PM_NOPS; o++)
		for (int v = 0; v < PM_NVERDICTS; v++)
			fprintf(f, "procmem_enforcer_decisions_total{op=\"%s\",verdict=\"%s\"} %llu\n",
				op_names[o], verdict_name(v, VN_KEY), n[PM_C_DECIDED(v, o)]);
	family(f, "procmem_enforcer_events_dropped_total", "counter",
	       "Events the enforcer could not report: its ring buffer was full.");
	for (int v = 0; v < PM_NVERDICTS; v++)
		fprintf(f, "procmem_enforcer_events_dropped_total{verdict=\"%s\"} %llu\n",
			verdict_name(v, VN_KEY), n[PM_C_DROPPED(v)]);
	family(f, "procmem_enforcer_events_limited_total", "counter",
	       "Events the enforcer did not report: over a bucket's event rate (a uid, or a user namespace's owner).");
	for (int v = PM_V_DENIED; v < PM_NVERDICTS; v++)
		fprintf(f, "procmem_enforcer_events_limited_total{verdict=\"%s\"} %llu\n",
			verdict_name(v, VN_KEY), n[PM_C_LIMITED(v)]);
	family(f, "procmem_enforcer_files", "gauge",
	       "Open mem files with an opener record.");
	fprintf(f, "procmem_enforcer_files %ld\n", e.files);
	family(f, "procmem_enforcer_files_unrecorded_total", "counter",
	       "Mem files opened without an opener record: the map was full.");
	fprintf(f, "procmem_enforcer_files_unrecorded_total %llu\n", n[PM_C_FILES_FULL]);
}

/*
 * procmem status's verdict: its judgement (assess()), run here, the
 * verdict its exit status gives (0 ok, 1 mismatch, 3 probe-failed;
 * anything else counts as probe-failed).  Returns the status_names index.
 */
static int status_verdict(int timeout)
{
	static struct status s;
	int rc = assess(&s, timeout);

	return rc == EXIT_OK ? 0 : rc == EXIT_FINDING ? 1 : 2;
}

/* Writes @len bytes of @buf to DIR/procmem.prom through a temporary
 * file in DIR and a rename, so the collector never reads half a file. */
static int write_textfile(const char *dir, const char *buf, size_t len)
{
	char tmp[4096], dst[4096];
	size_t off = 0;
	int fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, PROM_FILE) >= sizeof(tmp) ||
	    (size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, PROM_FILE) >= sizeof(dst)) {
		fprintf(stderr, "procmem: metrics: %s: path too long\n", dir);
		return EXIT_NORUN;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "procmem: metrics: cannot create a file in %s: %s\n", dir,
			strerror(errno));
		return EXIT_NORUN;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	/* node-exporter runs as its own user: the file is world-readable */
	if (off < len || fchmod(fd, 0644) || fsync(fd) || close(fd) || rename(tmp, dst)) {
		fprintf(stderr, "procmem: metrics: cannot write %s: %s\n", dst, strerror(errno));
		unlink(tmp);
		return EXIT_NORUN;
	}
	return EXIT_OK;
}

int cmd_metrics(int argc, char **argv)
{
	enum { O_TEXTFILE = 256, O_NO_STATUS, O_TIMEOUT };
	static const struct option opts[] = {
		{ "textfile", required_argument, NULL, O_TEXTFILE },
		{ "no-status", no_argument, NULL, O_NO_STATUS },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	int c, with_status = 1, timeout = 30, rc = EXIT_OK;
	struct config cfg;
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_TEXTFILE:
			dir = optarg;
			break;
		case O_NO_STATUS:
			with_status = 0;
			break;
		case O_TIMEOUT: {
			long t;

			if (pm_parse_long(optarg, 1, 3600, &t))
				return pm_usage_error("metrics",
						      "--timeout takes 1 to 3600 seconds, not '%s'",
						      optarg);
			timeout = (int)t;
			break;
		}
		case 'h':
			metrics_help(stdout);
			return EXIT_OK;
		default:
			return pm_opt_error("metrics", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("metrics", "unexpected argument '%s'", argv[optind]);
	if (dir && (stat(dir, &sb) || !S_ISDIR(sb.st_mode))) {
		fprintf(stderr, "procmem: metrics: %s is not a directory\n", dir);
		return EXIT_NORUN;
	}

	f = open_memstream(&buf, &len);
	if (!f) {
		fprintf(stderr, "procmem: metrics: %s\n", strerror(errno));
		return EXIT_NORUN;
	}
	config_read(&cfg);
	kernel_metrics(f, &cfg);
	enforcer_metrics(f);
	if (with_status) {
		int v = status_verdict(timeout);

		family(f, "procmem_status", "gauge",
		       "procmem status's verdict (its probes measured against the configured policy): 1 for the one it gave.");
		for (int s = 0; s < 3; s++)
			fprintf(f, "procmem_status{verdict=\"%s\"} %d\n", status_names[s], s == v);
	}
	if (fclose(f)) {
		fprintf(stderr, "procmem: metrics: %s\n", strerror(errno));
		free(buf);
		return EXIT_NORUN;
	}
	if (dir) {
		rc = write_textfile(dir, buf, len);
	} else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		fprintf(stderr, "procmem: metrics: cannot write: %s\n", strerror(errno));
		rc = EXIT_NORUN;
	}
	free(buf);
	return rc;
}
