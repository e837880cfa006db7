// SPDX-License-Identifier: GPL-2.0
/*
 * Observed mem file accesses, for procmem advise: proc_mem:proc_mem_deny
 * tracepoint lines (patched kernel) and `procmem watch --json` lines
 * (BPF LSM enforcer), read from files, or observed live for a while (the
 * tracepoint, or the enforcer's events through events.c).
 */
#include "procmem.h"

#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void record(struct records *r, const char *comm, int op, int self, int tracer)
{
	r->records++;
	r->fn(r->ctx, comm[0] ? comm : "?", op, self, tracer);
}

static long jnum(struct json_object *o, const char *key, long dflt)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return dflt;
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		return (long)json_object_get_int64(v);
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v);
	return dflt;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A procmem watch --json line: an access, or the events lost. */
static void json_record(struct records *r, const char *line)
{
	static const char *const kinds[] = { "dropped", "limited" };
	char why[160];
	struct json_object *v = pm_json_parse(line, strlen(line), why, sizeof(why)), *d;
	int o;

	if (!json_object_is_type(v, json_type_object)) {
		r->unparsed++;
		json_object_put(v);
		return;
	}
	if (json_object_object_get_ex(v, "dropped", NULL)) {
		/* per verdict: events the ring dropped and those limited */
		for (int k = 0; k < 2; k++)
			if (json_object_object_get_ex(v, kinds[k], &d) &&
			    json_object_is_type(d, json_type_object)) {
				json_object_object_foreach(d, key, n) {
					(void)key;
					r->dropped += (long)json_object_get_int64(n);
				}
			}
	} else if (jstr(v, "op") && (o = op_index(jstr(v, "op"))) >= 0) {
		const char *c = jstr(v, "comm");

		record(r, c ? c : "?", o, jnum(v, "pid", -1) == jnum(v, "target_pid", -2),
		       (int)jnum(v, "tracer", 0));
	} else {
		r->unparsed++;
	}
	json_object_put(v);
}

/* One line: the tracepoint's (trace_pipe) or procmem watch --json's. */
void records_line(struct records *r, const char *line)
{
	struct tp_record t;
	unsigned long lost;
	int o;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '\n' || *line == '#')
		return;
	if (*line == '{') {
		json_record(r, line);
		return;
	}
	switch (tp_parse(line, &t, &lost)) {
	case 1:
		if ((o = op_index(t.op)) >= 0) {
			record(r, t.comm, o, t.pid == t.target_pid, t.tracer);
			return;
		}
		r->unparsed++;
		return;
	case 0:
		r->dropped += (long)lost;
		if (!lost && (strstr(line, "proc_mem_deny:") || strstr(line, "\"op\"")))
			r->unparsed++;
		return;
	default:
		r->unparsed++;
	}
}

int records_read(struct records *st, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	char line[4096];

	if (!f) {
		fprintf(stderr, "procmem: advise: cannot read %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		records_line(st, line);
	if (f != stdin)
		fclose(f);
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]), "records from %s", file);
	return 0;
}

/* SIGINT or SIGTERM ends --observe early; the advice is still given. */
static volatile sig_atomic_t obs_stop;

static void on_stop(int sig)
{
	(void)sig;
	obs_stop = 1;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int on_line(void *st, char *line)
{
	records_line(st, line);
	return 0;
}

/* Reads lines from fd for @ms milliseconds or until end of file (or,
 * if @stoppable, SIGINT/SIGTERM); each line to records_line. */
static void pump(struct records *st, int fd, long long ms, int stoppable)
{
	struct linebuf l = { .len = 0 };
	long long end = now_ms() + ms;

	for (;;) {
		long long left = end - now_ms();
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (left <= 0 || (stoppable && obs_stop))
			break;
		if (poll(&p, 1, (int)(left > 200 ? 200 : left)) <= 0)
			continue;
		if (lines_read(&l, fd, on_line, st) < 0)
			break;
	}
	if (l.len)
		records_line(st, l.buf);
}

/* The patched kernel: a tracefs instance of our own with the tracepoint. */
static int observe_tracepoint(struct records *st, int secs)
{
	char inst[128], err[256];
	long before[NOPS][2], after[NOPS][2];
	long long t0;
	int fd, have;

	fd = tp_open("advise", inst, sizeof(inst), err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "procmem: advise: %s\n", err);
		return -1;
	}
	have = !read_denied(before);
	t0 = now_ms();
	fprintf(stderr, "procmem: advise: observing for %d s (tracepoint proc_mem:proc_mem_deny)\n", secs);
	pump(st, fd, secs * 1000LL, 1);
	have = have && !read_denied(after);
	/* What the kernel buffered until now is read too. */
	pump(st, fd, 300, 0);
	tp_close(fd, inst);
	st->have_counters = have;
	for (int o = 0; o < NOPS && have; o++)
		st->counters[o] = after[o][0] - before[o][0] + after[o][1] - before[o][1];
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]),
			 "tracepoint proc_mem:proc_mem_deny for %lld s%s", (now_ms() - t0 + 500) / 1000,
			 obs_stop ? " (ended by a signal)" : "");
	return 0;
}

/* An observation through events.c: until @end, then what is on its way. */
struct observe {
	struct records *r;
	int secs;
	long long t0, end;
	int tail;			/* the observation ended: reading what is on its way */
};

static int obs_access(void *ctx, const struct access *a)
{
	struct observe *ob = ctx;
	int o = op_index(a->op);

	if (o < 0)
		ob->r->unparsed++;
	else
		record(ob->r, a->comm ? a->comm : "?", o, a->pid == a->target_pid, a->tracer != 0);
	return 0;
}

/* per verdict: events the ring dropped and those limited */
static void obs_lost(void *ctx, const unsigned long long *d, const unsigned long long *l,
		     int before)
{
	struct observe *ob = ctx;

	(void)before;
	for (int v = 0; v < PM_NVERDICTS; v++)
		ob->r->dropped += (long)(d[v] + (v == PM_V_ALLOWED ? 0 : l[v]));
}

static void obs_started(void *ctx)
{
	struct observe *ob = ctx;

	ob->t0 = now_ms();
	ob->end = ob->t0 + ob->secs * 1000LL;
	fprintf(stderr, "procmem: advise: observing for %d s (procmem watch)\n", ob->secs);
}

static int obs_more(void *ctx)
{
	struct observe *ob = ctx;

	if (!ob->tail && (now_ms() >= ob->end || obs_stop)) {
		ob->tail = 1;
		ob->end = now_ms() + 600;	/* what is on its way */
	}
	return !ob->tail || now_ms() < ob->end;
}

/* A stock kernel with the enforcer: its events, as procmem watch --all reads them. */
static int observe_watch(struct records *st, int secs)
{
	struct observe ob = { .r = st, .secs = secs };
	struct events ev = { .access = obs_access, .lost = obs_lost, .started = obs_started,
			     .more = obs_more, .ctx = &ob };
	int rc = events_run(&ev, 1);

	if (rc) {
		fprintf(stderr, "procmem: advise: procmem watch failed (status %d)\n", rc);
		return -1;
	}
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]),
			 "procmem watch (BPF LSM enforcer) for %lld s%s", (now_ms() - ob.t0 + 500) / 1000,
			 obs_stop ? " (ended by a signal)" : "");
	return 0;
}

int records_observe(struct records *r, int secs, int tracepoint)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return tracepoint ? observe_tracepoint(r, secs) : observe_watch(r, secs);
}
