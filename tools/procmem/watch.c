// SPDX-License-Identifier: GPL-2.0
/*
 * procmem watch: mem file accesses as they are decided, from the
 * enforcer's ring buffers (denials and would-denies; with --all the
 * allowed accesses too, from a ring of their own) or, on the patched
 * kernel without the enforcer, from its tracepoint proc_mem_deny.
 * Events lost are reported per verdict: those a full ring dropped and
 * those over a bucket's event rate.  A watch holds the maps it reads and
 * nothing else (no program, no link: procmem enforce --off detaches
 * whatever watches), and ends when the enforcer it reads is unloaded or
 * replaced.  An event names the scope that decided it by the policy of
 * its generation: the watch keeps the last policies it saw.
 */
#include "procmem.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

#define POLICIES	4	/* generations a watch remembers */

struct watch {
	int json;
	long count, seen;
	long long mono_to_real;		/* ns to add to a ktime */
	int policy_fd;			/* the policy map, read again as it changes */
	struct pm_policy pol[POLICIES];	/* the last ones seen, for the scope's path */
	int npol, next;
};

/* Remembers the policy in force now, if it is a generation not seen. */
static void policy_seen(struct watch *w)
{
	static struct pm_policy p;
	__u32 zero = 0;

	if (w->policy_fd < 0 || bpf_map_lookup_elem(w->policy_fd, &zero, &p))
		return;
	for (int i = 0; i < w->npol; i++)
		if (w->pol[i].gen == p.gen)
			return;
	w->pol[w->next] = p;
	w->next = (w->next + 1) % POLICIES;
	if (w->npol < POLICIES)
		w->npol++;
}

static const struct pm_policy *policy_of(struct watch *w, unsigned int gen)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < w->npol; i++)
			if (w->pol[(w->next + POLICIES - 1 - i) % POLICIES].gen == gen)
				return &w->pol[(w->next + POLICIES - 1 - i) % POLICIES];
		if (!pass)
			policy_seen(w);
	}
	return NULL;
}

static const char *const verdicts[] = { "allowed", "denied", "would-deny" };

static void text_str(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f || s[i] == ' ' ? '?' : s[i]);
}

/* One access, from either source; -1 (or NULL): the source lacks it. */
struct access {
	long long ts_ns;		/* CLOCK_MONOTONIC */
	const char *op, *level, *verdict, *scope;
	long long gen;			/* the policy's generation */
	int permissive, tracer;
	long long pid, tid, uid, target_pid, target_tid, cgroup;
	const char *comm, *target_comm;
};

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
		printf(" tracer %d%s\n", a->tracer, a->permissive ? " permissive" : "");
	}
	fflush(stdout);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct watch *w = ctx;
	const struct pm_event *e = data;
	char comm[17], tcomm[17], scope[PM_DEPTH_MAX * PM_NAME_MAX + 64] = "machine";
	const struct pm_policy *pol;
	struct access a;

	/* libbpf 1.1 goes on after a positive return: stop printing. */
	if (size < sizeof(*e) || (w->count && w->seen >= w->count))
		return 0;
	snprintf(comm, sizeof(comm), "%.16s", e->comm);
	snprintf(tcomm, sizeof(tcomm), "%.16s", e->target_comm);
	pol = e->scope >= 0 && e->scope != PM_OVERRIDES_MAX ? policy_of(w, e->gen) : NULL;
	if (e->scope == PM_OVERRIDES_MAX)
		snprintf(scope, sizeof(scope), "strictest (cgroup too deep)");
	else if (pol && e->scope < pol->noverrides)
		pm_path_join(&pol->ov[e->scope], scope, sizeof(scope));
	else if (e->scope >= 0)
		snprintf(scope, sizeof(scope), "override %d of policy generation %u (no longer known)",
			 e->scope, e->gen);
	a = (struct access){
		.ts_ns = (long long)e->ts_ns, .op = op_names[e->op % PM_NOPS],
		.level = level_name((enum level)(e->level & 3)),
		.verdict = verdicts[e->verdict % 3], .permissive = e->permissive,
		.tracer = e->tracer, .pid = e->pid, .tid = e->tid, .uid = e->uid,
		.target_pid = e->target_pid, .target_tid = e->target_tid,
		.cgroup = (long long)e->cgroup_id, .scope = scope, .gen = e->gen,
		.comm = comm, .target_comm = tcomm,
	};
	print_access(w, &a);
	w->seen++;
	return w->count && w->seen >= w->count ? 1 : 0;
}

/* Events lost since the last report, per verdict: @d dropped (ring
 * full), @l limited (over a bucket's rate). */
static void report_drops(const struct watch *w, const unsigned long long *d,
			 const unsigned long long *l, int before)
{
	if (w->json) {
		struct json_object *o = json_object_new_object();
		struct json_object *dj = json_object_new_object(), *lj = json_object_new_object();

		pm_jset(dj, "denied", json_object_new_uint64(d[PM_V_DENIED]));
		pm_jset(dj, "would-deny", json_object_new_uint64(d[PM_V_WOULD_DENY]));
		pm_jset(dj, "allowed", json_object_new_uint64(d[PM_V_ALLOWED]));
		pm_jset(lj, "denied", json_object_new_uint64(l[PM_V_DENIED]));
		pm_jset(lj, "would-deny", json_object_new_uint64(l[PM_V_WOULD_DENY]));
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

/* Reports the events lost since @seen (PM_C_NR counters), then moves it on. */
static void drops_since(const struct watch *w, int cfd, unsigned long long *seen, int before)
{
	unsigned long long n[PM_C_NR], d[PM_NVERDICTS], l[PM_NVERDICTS], any = 0;

	if (pm_counters(cfd, n))
		return;
	for (int v = 0; v < PM_NVERDICTS; v++) {
		d[v] = n[PM_C_DROPPED(v)] - seen[PM_C_DROPPED(v)];
		l[v] = n[PM_C_LIMITED(v)] - seen[PM_C_LIMITED(v)];
		any |= d[v] | l[v];
	}
	if (any)
		report_drops(w, d, l, before);
	memcpy(seen, n, sizeof(n));
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
		unsigned long long d[PM_NVERDICTS] = { 0, lost, 0 }, l[PM_NVERDICTS] = { 0 };

		report_drops(w, d, l, 0);
	} else if (rc < 0) {
		fprintf(stderr, "procmem: watch: a tracepoint line that does not parse\n");
	} else if (rc > 0) {
		a = (struct access){
			.ts_ns = r.ts_ns, .op = r.op, .level = r.level,
			.verdict = r.permissive ? "would-deny" : "denied",
			.permissive = r.permissive, .tracer = r.tracer,
			.pid = r.pid, .tid = -1, .uid = r.uid,
			.target_pid = r.target_pid, .target_tid = -1,
			.cgroup = -1, .scope = NULL, .gen = -1,
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
		return pm_refuse(EXIT_NORUN, "%s", err);
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
	struct watch w = { .policy_fd = -1 };
	struct ring_buffer *rb = NULL;
	struct timespec mono, real;
	struct pm_state st;
	struct stat dir, now;
	unsigned long long seen[PM_C_NR] = { 0 };
	int all = 0, lfd, err = 0, rc = EXIT_OK, fd[PM_NMAPS];

	rc = parse_watch(argc, argv, &w, &all);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (geteuid() != 0)
		return pm_refuse(EXIT_NOT_ROOT, "watch needs root");
	pm_bpffs();
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	w.mono_to_real = (real.tv_sec - mono.tv_sec) * 1000000000LL +
			 (real.tv_nsec - mono.tv_nsec);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!enforcer_loaded()) {
		if (tp_available())
			return watch_tracepoint(&w);
		return pm_refuse(EXIT_NORUN, "the enforcer is not loaded (procmem enforce) "
				 "and this kernel has no proc_mem tracepoint");
	}
	/*
	 * A ring buffer has one reader: two watchers would each see part of
	 * the events.  The lock is on the pin directory, so it lives as long
	 * as this enforcer does.
	 */
	lfd = open(PM_PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lfd < 0)
		return pm_refuse(EXIT_NORUN, "cannot open %s: %s", PM_PIN_DIR, strerror(errno));
	if (flock(lfd, LOCK_EX | LOCK_NB)) {
		err = errno;
		close(lfd);
		if (err == EWOULDBLOCK)
			return pm_refuse(EXIT_NORUN, "another procmem watch is reading the events");
		return pm_refuse(EXIT_NORUN, "cannot lock %s: %s", PM_PIN_DIR, strerror(err));
	}
	if (pm_state_open(&st) || st.map[PM_MAP_DENIALS] < 0 || st.map[PM_MAP_ACCESSES] < 0 ||
	    st.map[PM_MAP_COUNTERS] < 0 || st.map[PM_MAP_CONFIG] < 0 || fstat(lfd, &dir)) {
		pm_state_close(&st);
		close(lfd);
		return pm_refuse(EXIT_NORUN, "cannot open the pinned maps: %s", strerror(errno));
	}
	/* the maps read, and nothing else: no program, no link held */
	for (int i = 0; i < PM_NMAPS; i++) {
		fd[i] = -1;
		if (i == PM_MAP_DENIALS || i == PM_MAP_ACCESSES || i == PM_MAP_COUNTERS ||
		    i == PM_MAP_POLICY) {
			fd[i] = st.map[i];
			st.map[i] = -1;
		}
	}
	pm_state_close(&st);
	w.policy_fd = fd[PM_MAP_POLICY];
	policy_seen(&w);
	/* nobody read the rings before: say what they lost first */
	drops_since(&w, fd[PM_MAP_COUNTERS], seen, 1);
	rb = ring_buffer__new(fd[PM_MAP_DENIALS], on_event, &w, NULL);
	if (rb && all && ring_buffer__add(rb, fd[PM_MAP_ACCESSES], on_event, &w))
		err = -errno;
	if (!rb || err || (all && pm_watch_allowed(1))) {
		rc = pm_refuse(EXIT_NORUN, "cannot read the ring buffers: %s", strerror(errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && !(w.count && w.seen >= w.count)) {
		err = ring_buffer__poll(rb, 500);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		drops_since(&w, fd[PM_MAP_COUNTERS], seen, 0);
		policy_seen(&w);
		/* the enforcer unloaded (or replaced by a repair): nothing to read */
		if (stat(PM_PIN_DIR, &now) || now.st_ino != dir.st_ino || now.st_dev != dir.st_dev) {
			ring_buffer__poll(rb, 0);
			fprintf(stderr, "procmem: watch: the enforcer it read was unloaded (%s %s)\n",
				PM_PIN_DIR, access(PM_PIN_DIR, F_OK) ? "removed" : "replaced");
			all = 0;	/* its wish went with it */
			break;
		}
	}
	if (err)
		rc = pm_refuse(EXIT_NORUN, "ring buffer: %s", strerror(-err));
out:
	if (all)
		pm_watch_allowed(0);
	ring_buffer__free(rb);
	for (int i = 0; i < PM_NMAPS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	close(lfd);
	return rc;
}
