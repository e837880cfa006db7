// SPDX-License-Identifier: GPL-2.0
/*
 * procmem watch: mem file accesses as they are decided (events.c reads
 * them: the enforcer's ring buffers, else the patched kernel's
 * tracepoint), one a line, in text or JSON, and the events lost.
 */
#include "procmem.h"

#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <time.h>

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

static void text_str(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f || s[i] == ' ' ? '?' : s[i]);
}

static struct json_object *jnum(long long v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

static void access_json(const struct access *a, const char *when, long long us)
{
	struct json_object *o = json_object_new_object();
	char t[64];

	snprintf(t, sizeof(t), "%s.%06lldZ", when, us);
	pm_jset(o, "time", json_object_new_string(t));
	pm_jset(o, "op", json_object_new_string(a->op));
	pm_jset(o, "level", json_object_new_string(a->level));
	pm_jset(o, "verdict", json_object_new_string(a->verdict));
	pm_jset(o, "permissive", json_object_new_int(a->permissive));
	pm_jset(o, "pid", jnum(a->pid));
	pm_jset(o, "tid", jnum(a->tid));
	pm_jset(o, "uid", jnum(a->uid));
	pm_jset(o, "comm", pm_jstr(a->comm));
	pm_jset(o, "cgroup", jnum(a->cgroup));
	pm_jset(o, "scope", pm_jstr(a->scope));
	pm_jset(o, "workload", pm_jstr(a->workload));
	pm_jset(o, "policy_gen", jnum(a->gen));
	pm_jset(o, "target_pid", jnum(a->target_pid));
	pm_jset(o, "target_tid", jnum(a->target_tid));
	pm_jset(o, "target_comm", pm_jstr(a->target_comm));
	pm_jset(o, "tracer", json_object_new_boolean(a->tracer));
	pm_json_print(o, 0);
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
		access_json(a, when, real % 1000000000 / 1000);
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
		printf(" tracer %d%s", a->tracer, a->permissive ? " permissive" : "");
		if (a->workload) {
			printf(" workload ");
			text_str(a->workload, PM_LABEL_MAX);
		}
		putchar('\n');
	}
	fflush(stdout);
}

/* Events lost since the last report, per verdict: @d dropped (ring
 * full), @l limited (over a bucket's rate). */
static void report_drops(const struct watch *w, const unsigned long long *d,
			 const unsigned long long *l, int before)
{
	if (w->json) {
		struct json_object *o = json_object_new_object();
		struct json_object *dj = json_object_new_object(), *lj = json_object_new_object();

		/* watch's keys are the verdicts' words (status's: VN_KEY) */
		static const int order[] = { PM_V_DENIED, PM_V_WOULD_DENY, PM_V_ALLOWED };

		for (int i = 0; i < 3; i++) {
			pm_jset(dj, verdict_name(order[i], VN_TEXT), json_object_new_uint64(d[order[i]]));
			if (order[i] != PM_V_ALLOWED)
				pm_jset(lj, verdict_name(order[i], VN_TEXT),
					json_object_new_uint64(l[order[i]]));
		}
		pm_jset(o, "dropped", dj);
		pm_jset(o, "limited", lj);
		pm_jset(o, "before_start", json_object_new_boolean(before));
		pm_json_print(o, 0);
	} else {
		printf("dropped:   denied %llu would-deny %llu allowed %llu (ring buffer full), "
		       "limited: denied %llu would-deny %llu (over a bucket's event rate)%s\n",
		       d[PM_V_DENIED], d[PM_V_WOULD_DENY], d[PM_V_ALLOWED],
		       l[PM_V_DENIED], l[PM_V_WOULD_DENY],
		       before ? " before this watch started" : "");
	}
	fflush(stdout);
}

/* events.c's callbacks */
static int on_access(void *ctx, const struct access *a)
{
	struct watch *w = ctx;

	print_access(w, a);
	w->seen++;
	return w->count && w->seen >= w->count;
}

static void on_lost(void *ctx, const unsigned long long *d, const unsigned long long *l,
		    int before)
{
	report_drops(ctx, d, l, before);
}

static void on_started(void *ctx)
{
	(void)ctx;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

static int more(void *ctx)
{
	(void)ctx;
	return !stop;
}

static int parse_watch(int argc, char **argv, struct watch *w, int *all)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "count", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			w->json = 1;
			break;
		case 'a':
			*all = 1;
			break;
		case 'c':
			if (pm_parse_long(optarg, 1, LONG_MAX, &w->count))
				return pm_usage_error("watch", "--count takes a positive number, not '%s'",
						      optarg);
			break;
		case 'h':
			fputs("usage: procmem watch [--json] [--count N] [--all]\n"
			      "Denials and would-denies of /proc/PID/mem accesses as they are decided.\n"
			      "  --json       one JSON object a line\n"
			      "  --count N    stop after N accesses\n"
			      "  --all        allowed accesses too (the enforcer only)\n"
			      "  -h, --help   this text\n"
			      "Exit status: 0, 2 usage, 3 nothing to watch (no enforcer, no proc_mem\n"
			      "tracepoint) or another watch is reading, 4 not root.\n", stdout);
			return -1;
		default:
			return pm_opt_error("watch", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("watch", "unexpected argument '%s'", argv[optind]);
	return EXIT_OK;
}

int cmd_watch(int argc, char **argv)
{
	struct watch w = { .json = 0 };
	struct events ev = { .access = on_access, .lost = on_lost, .started = on_started,
			     .more = more, .ctx = &w };
	struct timespec mono, real;
	int all = 0, rc;

	rc = parse_watch(argc, argv, &w, &all);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	w.mono_to_real = (real.tv_sec - mono.tv_sec) * 1000000000LL +
			 (real.tv_nsec - mono.tv_nsec);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return events_run(&ev, all);
}
