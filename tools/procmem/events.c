// SPDX-License-Identifier: GPL-2.0
/*
 * Mem file accesses as they are decided, for procmem watch and procmem
 * advise --observe: from the enforcer's ring buffers (denials and
 * would-denies; with @all the allowed accesses too, from a ring of their
 * own) or, on the patched kernel without the enforcer, from its
 * tracepoint proc_mem_deny.  Events lost are reported per verdict: those
 * a full ring dropped and those over a bucket's event rate.  A reader
 * holds the maps it reads and nothing else (no program, no link:
 * procmem enforce --off detaches whatever reads), and ends when the
 * enforcer it reads is unloaded or replaced.  An event names the scope
 * that decided it by the policy of its generation: the reader keeps the
 * last policies it saw.  Prints nothing but its refusals: each access
 * and each loss goes to the caller's callbacks.
 */
#include "procmem.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define POLICIES	4	/* generations a reader remembers */

struct reader {
	const struct events *ev;
	int done;			/* ev->access asked to stop */
	int policy_fd;			/* the policy map, read again as it changes */
	struct pm_policy pol[POLICIES];	/* the last ones seen, for the scope's path */
	int npol, next;
};

/* Remembers the policy in force now, if it is a generation not seen. */
static void policy_seen(struct reader *r)
{
	static struct pm_policy p;
	__u32 zero = 0;

	if (r->policy_fd < 0 || bpf_map_lookup_elem(r->policy_fd, &zero, &p))
		return;
	for (int i = 0; i < r->npol; i++)
		if (r->pol[i].gen == p.gen)
			return;
	r->pol[r->next] = p;
	r->next = (r->next + 1) % POLICIES;
	if (r->npol < POLICIES)
		r->npol++;
}

static const struct pm_policy *policy_of(struct reader *r, unsigned int gen)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < r->npol; i++)
			if (r->pol[(r->next + POLICIES - 1 - i) % POLICIES].gen == gen)
				return &r->pol[(r->next + POLICIES - 1 - i) % POLICIES];
		if (!pass)
			policy_seen(r);
	}
	return NULL;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct reader *r = ctx;
	const struct pm_event *e = data;
	char comm[17], tcomm[17], scope[PM_DEPTH_MAX * PM_NAME_MAX + 64] = "machine";
	char label[PM_LABEL_MAX] = "";
	const struct pm_policy *pol;
	struct access a;

	/* libbpf 1.1 goes on after a positive return: stop handing on. */
	if (size < sizeof(*e) || r->done)
		return 0;
	snprintf(comm, sizeof(comm), "%.16s", e->comm);
	snprintf(tcomm, sizeof(tcomm), "%.16s", e->target_comm);
	pol = e->scope >= 0 && e->scope != PM_OVERRIDES_MAX ? policy_of(r, e->gen) : NULL;
	if (e->scope == PM_OVERRIDES_MAX)
		snprintf(scope, sizeof(scope), "strictest (cgroup too deep)");
	else if (pol && e->scope < pol->noverrides) {
		pm_path_join(&pol->ov[e->scope], scope, sizeof(scope));
		snprintf(label, sizeof(label), "%.*s", PM_LABEL_MAX - 1, pol->ov[e->scope].label);
	}
	else if (e->scope >= 0)
		snprintf(scope, sizeof(scope), "override %d of policy generation %u (no longer known)",
			 e->scope, e->gen);
	a = (struct access){
		.ts_ns = (long long)e->ts_ns, .op = op_names[e->op % PM_NOPS],
		.level = level_name((enum level)(e->level % PM_NR_LEVELS)),
		.verdict = verdict_name(e->verdict % PM_NVERDICTS, VN_TEXT),
		.permissive = e->permissive,
		.tracer = e->tracer, .pid = e->pid, .tid = e->tid, .uid = e->uid,
		.target_pid = e->target_pid, .target_tid = e->target_tid,
		.cgroup = (long long)e->cgroup_id, .scope = scope, .gen = e->gen,
		.workload = label[0] ? label : NULL,
		.comm = comm, .target_comm = tcomm,
	};
	r->done = r->ev->access(r->ev->ctx, &a);
	return r->done ? 1 : 0;
}

/* Hands on the events lost since @seen (PM_C_NR counters), then moves it on. */
static void drops_since(const struct reader *r, int cfd, unsigned long long *seen, int before)
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
		r->ev->lost(r->ev->ctx, d, l, before);
	memcpy(seen, n, sizeof(n));
}

/* A trace_pipe line: an access handed on, or the events the buffer lost. */
static int tp_line(void *ctx, char *line)
{
	struct reader *r = ctx;
	unsigned long lost;
	struct tp_record t;
	struct access a;
	int rc = tp_parse(line, &t, &lost);

	if (rc == 0 && lost) {
		unsigned long long d[PM_NVERDICTS] = { 0, lost, 0 }, l[PM_NVERDICTS] = { 0 };

		r->ev->lost(r->ev->ctx, d, l, 0);
	} else if (rc < 0) {
		fprintf(stderr, "procmem: watch: a tracepoint line that does not parse\n");
	} else if (rc > 0) {
		a = (struct access){
			.ts_ns = t.ts_ns, .op = t.op, .level = t.level,
			.verdict = verdict_name(t.permissive ? PM_V_WOULD_DENY : PM_V_DENIED, VN_TEXT),
			.permissive = t.permissive, .tracer = t.tracer,
			.pid = t.pid, .tid = -1, .uid = t.uid,
			.target_pid = t.target_pid, .target_tid = -1,
			.cgroup = -1, .scope = NULL, .gen = -1,
			.comm = t.comm, .target_comm = t.target_comm,
		};
		r->done = r->ev->access(r->ev->ctx, &a);
	}
	return r->done;
}

/*
 * The patched kernel without the enforcer: its own tracepoint, which
 * fires on denials and (permissive) would-denies, not on allowed
 * accesses; it does not record tids or cgroups.
 */
static int read_tracepoint(struct reader *r)
{
	struct linebuf l = { .len = 0 };
	char inst[128], err[256];
	int fd;

	fd = tp_open("watch", inst, sizeof(inst), err, sizeof(err));
	if (fd < 0)
		return pm_refuse(EXIT_NORUN, "%s", err);
	fprintf(stderr, "procmem: watching the tracepoint proc_mem:proc_mem_deny "
		"(denials and would-denies only)\n");
	if (r->ev->started)
		r->ev->started(r->ev->ctx);
	while (!r->done && r->ev->more(r->ev->ctx)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 500) > 0 && lines_read(&l, fd, tp_line, r) < 0)
			break;
	}
	tp_close(fd, inst);
	return EXIT_OK;
}

/*
 * The pin directory, locked: a ring buffer has one reader, and two
 * would each see part of the events.  The lock is on the pin directory,
 * so it lives as long as this enforcer does.  The fd, or -1 refused.
 */
static int lock_pins(void)
{
	int lfd = open(PM_PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (lfd < 0) {
		pm_refuse(EXIT_NORUN, "cannot open %s: %s", PM_PIN_DIR, strerror(errno));
		return -1;
	}
	if (flock(lfd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		close(lfd);
		if (err == EWOULDBLOCK)
			pm_refuse(EXIT_NORUN, "another procmem watch is reading the events");
		else
			pm_refuse(EXIT_NORUN, "cannot lock %s: %s", PM_PIN_DIR, strerror(err));
		return -1;
	}
	return lfd;
}

/* The maps a reader reads into @fd (the others -1), and nothing else:
 * no program, no link held.  0, or -1 refused. */
static int open_maps(int lfd, int *fd, struct stat *dir)
{
	struct pm_state st;

	if (pm_state_open(&st) || st.map[PM_MAP_DENIALS] < 0 || st.map[PM_MAP_ACCESSES] < 0 ||
	    st.map[PM_MAP_COUNTERS] < 0 || st.map[PM_MAP_CONFIG] < 0 || fstat(lfd, dir)) {
		pm_state_close(&st);
		pm_refuse(EXIT_NORUN, "cannot open the pinned maps: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < PM_NMAPS; i++) {
		fd[i] = -1;
		if (i == PM_MAP_DENIALS || i == PM_MAP_ACCESSES || i == PM_MAP_COUNTERS ||
		    i == PM_MAP_POLICY) {
			fd[i] = st.map[i];
			st.map[i] = -1;
		}
	}
	pm_state_close(&st);
	return 0;
}

/* Reads the rings until the caller or the enforcer ends it; *all is
 * cleared when the enforcer went (its wish for allowed accesses with it). */
static int read_rings(struct reader *r, struct ring_buffer *rb, const int *fd,
		      const struct stat *dir, unsigned long long *seen, int *all)
{
	struct stat now;
	int err = 0;

	if (r->ev->started)
		r->ev->started(r->ev->ctx);
	while (!r->done && r->ev->more(r->ev->ctx)) {
		err = ring_buffer__poll(rb, 500);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		drops_since(r, fd[PM_MAP_COUNTERS], seen, 0);
		policy_seen(r);
		/* the enforcer unloaded (or replaced by a repair): nothing to read */
		if (stat(PM_PIN_DIR, &now) || now.st_ino != dir->st_ino || now.st_dev != dir->st_dev) {
			ring_buffer__poll(rb, 0);
			fprintf(stderr, "procmem: watch: the enforcer it read was unloaded (%s %s)\n",
				PM_PIN_DIR, access(PM_PIN_DIR, F_OK) ? "removed" : "replaced");
			*all = 0;
			break;
		}
	}
	return err ? pm_refuse(EXIT_NORUN, "ring buffer: %s", strerror(-err)) : EXIT_OK;
}

/* The enforcer's ring buffers, read by this reader alone. */
static int read_enforcer(struct reader *r, int all)
{
	struct ring_buffer *rb = NULL;
	struct stat dir;
	unsigned long long seen[PM_C_NR] = { 0 };
	int lfd, err = 0, rc, fd[PM_NMAPS];

	lfd = lock_pins();
	if (lfd < 0)
		return EXIT_NORUN;
	if (open_maps(lfd, fd, &dir)) {
		close(lfd);
		return EXIT_NORUN;
	}
	r->policy_fd = fd[PM_MAP_POLICY];
	policy_seen(r);
	/* nobody read the rings before: say what they lost first */
	drops_since(r, fd[PM_MAP_COUNTERS], seen, 1);
	rb = ring_buffer__new(fd[PM_MAP_DENIALS], on_event, r, NULL);
	if (rb && all && ring_buffer__add(rb, fd[PM_MAP_ACCESSES], on_event, r))
		err = -errno;
	if (!rb || err || (all && pm_watch_allowed(1)))
		rc = pm_refuse(EXIT_NORUN, "cannot read the ring buffers: %s", strerror(errno));
	else
		rc = read_rings(r, rb, fd, &dir, seen, &all);
	if (all)
		pm_watch_allowed(0);
	ring_buffer__free(rb);
	for (int i = 0; i < PM_NMAPS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	close(lfd);
	return rc;
}

int events_run(const struct events *ev, int all)
{
	struct reader r = { .ev = ev, .policy_fd = -1 };

	if (geteuid() != 0)
		return pm_refuse(EXIT_NOT_ROOT, "watch needs root");
	pm_bpffs();
	if (!enforcer_loaded()) {
		if (tp_available())
			return read_tracepoint(&r);
		return pm_refuse(EXIT_NORUN, "the enforcer is not loaded (procmem enforce) "
				 "and this kernel has no proc_mem tracepoint");
	}
	return read_enforcer(&r, all);
}
