// SPDX-License-Identifier: GPL-2.0
/*
 * procmem: the patched kernel's proc_mem:proc_mem_deny tracepoint, read
 * from a tracefs instance of our own (so the global trace buffer and
 * other readers are left alone), for procmem watch and procmem advise.
 *
 * The event's text is
 *   op=%s level=%s permissive=%d target_pid=%d target_comm=%s pid=%d
 *   uid=%u comm=%s tracer=%d
 * and the two comms are any 15 bytes their tasks chose (PR_SET_NAME),
 * spaces and "key=" included.  No comm can hold a whole
 * " pid=N uid=N comm=" (18 bytes or more), so the parser takes the one
 * place where that sequence parses, not the first " comm=" it sees.
 */
#include "procmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define EVENT "events/proc_mem/proc_mem_deny"

int tp_available(void)
{
	if (access(TRACEFS "/instances", F_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	return !access(TRACEFS "/" EVENT, F_OK);
}

static int write_str(const char *dir, const char *file, const char *s)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

int tp_open(const char *tag, char *inst, size_t n, char *err, size_t errlen)
{
	char path[256];
	int fd;

	if (!tp_available()) {
		snprintf(err, errlen, "this kernel has no tracepoint proc_mem:proc_mem_deny");
		return -1;
	}
	snprintf(inst, n, TRACEFS "/instances/procmem-%s-%d", tag, (int)getpid());
	if (mkdir(inst, 0700)) {
		snprintf(err, errlen, "cannot create %s: %s", inst, strerror(errno));
		return -1;
	}
	/* Timestamps on CLOCK_MONOTONIC, as the enforcer's events. */
	write_str(inst, "trace_clock", "mono");
	if (write_str(inst, EVENT "/enable", "1")) {
		snprintf(err, errlen, "cannot enable the tracepoint proc_mem:proc_mem_deny: %s",
			 strerror(errno));
		rmdir(inst);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", inst);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		write_str(inst, EVENT "/enable", "0");
		rmdir(inst);
	}
	return fd;
}

void tp_close(int fd, const char *inst)
{
	close(fd);
	write_str(inst, EVENT "/enable", "0");
	rmdir(inst);
}

/* Copies the comm that ends at @end (at most 15 bytes). */
static int comm_to(const char *p, const char *end, char *out)
{
	if (end < p || end - p > 15)
		return -1;
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return 0;
}

/*
 * @tail without v3's " tgid=N tid=N fsuid=N target_tgid=N target_tid=N"
 * at its end (each key before its number, numbers only: no comm can end
 * the line), or @tail as it is when the line does not end so (v2).
 */
static const char *strip_ids(const char *p, const char *tail)
{
	static const char *const keys[] = {
		" target_tid=", " target_tgid=", " fsuid=", " tid=", " tgid=",
	};
	const char *q = tail;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *d = q;
		size_t len = strlen(keys[i]);

		while (d > p && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d == q || d - p < (long)len || strncmp(d - len, keys[i], len))
			return tail;
		q = d - len;
	}
	return q;
}

int tp_parse(const char *line, struct tp_record *r, unsigned long *lost)
{
	static const char tag[] = "proc_mem_deny: op=";
	const char *p, *q, *tail, *ts;
	unsigned long sec, usec;
	int n = 0;

	memset(r, 0, sizeof(*r));
	*lost = 0;
	/* trace_pipe's own line when the instance's buffer overflowed */
	if (sscanf(line, "CPU:%*d [LOST %lu EVENTS]", lost) == 1)
		return 0;
	*lost = 0;
	/* The prefix's comm (15 bytes) cannot hold the 18-byte tag. */
	p = strstr(line, tag);
	if (!p)
		return 0;
	/* "SECONDS.MICROSECONDS: " just before the tag. */
	for (ts = p - 2; ts > line && (ts[-1] == '.' || (ts[-1] >= '0' && ts[-1] <= '9')); ts--)
		;
	if (ts < p - 2 && sscanf(ts, "%lu.%lu:", &sec, &usec) == 2)
		r->ts_ns = (long long)sec * 1000000000LL + (long long)usec * 1000;
	p += strlen(tag) - strlen("op=");
	if (sscanf(p, "op=%15s level=%15s permissive=%d target_pid=%d target_comm=%n",
		   r->op, r->level, &r->permissive, &r->target_pid, &n) != 4 || !n)
		return -1;
	p += n;
	/* The end: " tracer=D", last in the line (v2), or followed by the
	 * ids series v3 appends, all numbers: strip those first. */
	tail = p + strlen(p);
	while (tail > p && (tail[-1] == '\n' || tail[-1] == '\r'))
		tail--;
	tail = strip_ids(p, tail);
	q = tail;
	while (q > p && q[-1] >= '0' && q[-1] <= '9')
		q--;
	if (q == tail || q - p < (long)strlen(" tracer=") ||
	    strncmp(q - strlen(" tracer="), " tracer=", strlen(" tracer=")))
		return -1;
	r->tracer = atoi(q);
	tail = q - strlen(" tracer=");
	/* The accessor's " pid=N uid=N comm=": its one parseable place. */
	for (q = p; (q = strstr(q, " pid=")) && q < tail; q++) {
		n = 0;
		if (sscanf(q, " pid=%d uid=%u comm=%n", &r->pid, &r->uid, &n) == 2 && n &&
		    !comm_to(p, q, r->target_comm) && !comm_to(q + n, tail, r->comm))
			return 1;
	}
	return -1;
}

int lines_read(struct linebuf *l, int fd, int (*fn)(void *ctx, char *line), void *ctx)
{
	ssize_t n = read(fd, l->buf + l->len, sizeof(l->buf) - 1 - l->len);
	char *line = l->buf, *nl;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	l->len += (size_t)n;
	l->buf[l->len] = '\0';
	while ((nl = strchr(line, '\n'))) {
		*nl = '\0';
		if (fn(ctx, line)) {
			line = nl + 1;
			break;
		}
		line = nl + 1;
	}
	l->len -= (size_t)(line - l->buf);
	memmove(l->buf, line, l->len + 1);
	if (l->len == sizeof(l->buf) - 1)	/* a line too long: dropped */
		l->len = 0;
	return 1;
}
