// SPDX-License-Identifier: GPL-2.0
/*
 * Measure the /proc/PID/mem policy with safe probes on our own processes.
 *
 * A forked prober P maps three pages (read-write, read-only, PROT_NONE)
 * and forks a target T that inherits them and then obeys commands over a
 * socket.  Each operation is tried by three accessors:
 *   self    T on /proc/self/mem (its own mm),
 *   other   P on /proc/T/mem while not tracing T,
 *   tracer  P on /proc/T/mem while it is T's active ptracer (T stopped).
 * An operation needing an open file uses whatever file could be opened
 * (an fd opened by the tracer is passed to T or kept after detaching), so
 * that write and force are measured even when open_write is restricted.
 * force is measured by writing a read-only page (EIO when FOLL_FORCE is
 * withheld) or, when writing is refused, by reading the PROT_NONE page.
 * Every write is verified by reading the target's memory another way.
 */
#include "procmem.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { PG_RW, PG_RO, PG_NONE, NPAGES };
static const unsigned char fill[NPAGES] = { 0x11, 0x22, 0x33 };

enum { SLOT_R, SLOT_W };
enum t_op { T_OPEN, T_RECV, T_PWRITE, T_PREAD, T_PEEK, T_QUIT };

struct tcmd {
	int op, slot, flags;
	uintptr_t addr;
	unsigned char val;
};

struct treply {
	int err;
	int val;		/* byte at addr after the command, -1 unknown */
};

struct ctx {
	struct probes *p;
	unsigned char *pages;
	long pagesz;
	pid_t t;
	int sock;
	int t_fd[2];		/* T holds a read / write fd on its own mem */
	const char *wsrc, *rsrc;	/* who opened the file used, if not */
				/* the accessor itself ("" if it did) */
	int counters;		/* before[] holds the denial counters */
	long before[NOPS][2];
};

const char *outcome_name(enum outcome o)
{
	switch (o) {
	case PR_ALLOWED: return verdict_name(PM_V_ALLOWED, VN_TEXT);
	case PR_DENIED: return verdict_name(PM_V_DENIED, VN_TEXT);
	case PR_ERROR: return "error";
	default: return "-";
	}
}

/* Before each probe: the kernel's denial counters, where it has them. */
static void snap(struct ctx *c)
{
	c->counters = read_denied(c->before) == 0;
}

/* Records a probe's outcome, and how it moved the op's denial counters. */
static void set(struct ctx *c, int op, int rel, enum outcome o, int err,
		const char *fmt, const char *what)
{
	struct probe_result *r = &c->p->r[op][rel];
	long now[NOPS][2];
	int n;

	r->out = o;
	r->err = err;
	if (c->counters && (o == PR_ALLOWED || o == PR_DENIED) &&
	    read_denied(now) == 0) {
		r->counted = 1;
		r->d_denied = now[op][0] - c->before[op][0];
		r->d_would = now[op][1] - c->before[op][1];
	}
	n = snprintf(r->how, sizeof(r->how), fmt, what);
	if (err && n >= 0 && (size_t)n < sizeof(r->how))
		snprintf(r->how + n, sizeof(r->how) - (size_t)n, ": %s", strerror(err));
}

/* Each (op, rel) writes its own byte value at its own offset. */
static uintptr_t addr_of(const struct ctx *c, int page, int op, int rel)
{
	return (uintptr_t)(c->pages + page * c->pagesz + (op * NRELS + rel) * 16);
}

static unsigned char val_of(int op, int rel)
{
	return (unsigned char)(0xa0 + op * NRELS + rel);
}

/* ---- the target ---- */

static int recv_cmd(int sock, struct tcmd *cmd, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { cmd, sizeof(*cmd) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*cmd))
		return -1;
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return 0;
}

static void target_main(int sock)
{
	int fds[2] = { -1, -1 };
	struct tcmd cmd = { 0 };
	int passed;

	while (recv_cmd(sock, &cmd, &passed) == 0) {
		struct treply rep = { 0, -1 };
		unsigned char b;
		ssize_t n;

		switch (cmd.op) {
		case T_OPEN:
			fds[cmd.slot] = open("/proc/self/mem", cmd.flags | O_CLOEXEC);
			rep.err = fds[cmd.slot] < 0 ? errno : 0;
			break;
		case T_RECV:
			fds[cmd.slot] = passed;
			rep.err = passed < 0 ? EBADF : 0;
			break;
		case T_PWRITE:
			n = pwrite(fds[cmd.slot], &cmd.val, 1, (off_t)cmd.addr);
			rep.err = n == 1 ? 0 : n < 0 ? errno : EIO;
			rep.val = *(volatile unsigned char *)cmd.addr;
			break;
		case T_PREAD:
			n = pread(fds[cmd.slot], &b, 1, (off_t)cmd.addr);
			rep.err = n == 1 ? 0 : n < 0 ? errno : EIO;
			rep.val = n == 1 ? b : -1;
			break;
		case T_PEEK:
			rep.val = *(volatile unsigned char *)cmd.addr;
			break;
		default:
			_exit(0);
		}
		if (send(sock, &rep, sizeof(rep), MSG_NOSIGNAL) != sizeof(rep))
			break;
	}
	_exit(0);
}

/* Sends one command (and fd, if >= 0) to T; EPIPE if T is gone. */
static struct treply tcall(struct ctx *c, int op, int slot, int flags,
			   uintptr_t addr, unsigned char val, int fd)
{
	struct tcmd cmd = { op, slot, flags, addr, val };
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &cmd, sizeof(cmd) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct treply rep = { EPIPE, -1 };

	memset(cbuf, 0, sizeof(cbuf));
	if (fd >= 0) {
		struct cmsghdr *cm;

		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	if (sendmsg(c->sock, &m, MSG_NOSIGNAL) != (ssize_t)sizeof(cmd))
		return rep;
	if (recv(c->sock, &rep, sizeof(rep), MSG_WAITALL) != sizeof(rep)) {
		rep.err = EPIPE;
		rep.val = -1;
	}
	return rep;
}

/* ---- accesses by each accessor ---- */

/* The byte at addr in T, read without /proc/PID/mem. */
static int peek(struct ctx *c, int rel, uintptr_t addr)
{
	if (rel == REL_TRACER) {
		long word;

		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, c->t, (void *)addr, NULL);
		return errno ? -1 : (int)(word & 0xff);
	}
	return tcall(c, T_PEEK, 0, 0, addr, 0, -1).val;
}

/* pwrite one byte through fd (a slot of T for self); returns errno, and
 * in *after the byte found at addr afterwards. */
static int acc_write(struct ctx *c, int rel, int fd, uintptr_t addr,
		     unsigned char v, int *after)
{
	ssize_t n;

	if (rel == REL_SELF) {
		struct treply rep = tcall(c, T_PWRITE, SLOT_W, 0, addr, v, -1);
		*after = rep.val;
		return rep.err;
	}
	n = pwrite(fd, &v, 1, (off_t)addr);
	if (n != 1) {
		*after = -1;
		return n < 0 ? errno : EIO;
	}
	*after = peek(c, rel, addr);
	return 0;
}

static int acc_read(struct ctx *c, int rel, int fd, uintptr_t addr, int *got)
{
	unsigned char b;
	ssize_t n;

	if (rel == REL_SELF) {
		struct treply rep = tcall(c, T_PREAD, SLOT_R, 0, addr, 0, -1);
		*got = rep.val;
		return rep.err;
	}
	n = pread(fd, &b, 1, (off_t)addr);
	*got = n == 1 ? b : -1;
	return n == 1 ? 0 : n < 0 ? errno : EIO;
}

/* ---- the probes ---- */

static enum outcome open_outcome(int err)
{
	return !err ? PR_ALLOWED : err == EACCES ? PR_DENIED : PR_ERROR;
}

static int probe_open(struct ctx *c, int rel, int pid, int write)
{
	char path[64];
	int op = write ? OP_OPEN_WRITE : OP_OPEN_READ;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	snap(c);
	fd = open(path, (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	set(c, op, rel, open_outcome(err), err, "open(/proc/T/mem, %s)",
	    write ? "O_WRONLY" : "O_RDONLY");
	return fd;
}

static void probe_self_open(struct ctx *c, int write)
{
	int op = write ? OP_OPEN_WRITE : OP_OPEN_READ;
	struct treply rep;

	snap(c);
	rep = tcall(c, T_OPEN, write ? SLOT_W : SLOT_R,
		    write ? O_WRONLY : O_RDONLY, 0, 0, -1);
	set(c, op, REL_SELF, open_outcome(rep.err), rep.err,
	    "open(/proc/self/mem, %s)", write ? "O_WRONLY" : "O_RDONLY");
	c->t_fd[write ? SLOT_W : SLOT_R] = !rep.err;
}

/* write: one byte to the read-write page. */
static void probe_write(struct ctx *c, int rel, int wfd)
{
	uintptr_t a = addr_of(c, PG_RW, OP_WRITE, rel);
	unsigned char v = val_of(OP_WRITE, rel);
	int after, err;

	snap(c);
	if (wfd < 0) {
		set(c, OP_WRITE, rel, PR_NOT_RUN, 0, "%s",
		    "not run: no file open for writing");
		return;
	}
	err = acc_write(c, rel, wfd, a, v, &after);
	if (!err && after != v)
		set(c, OP_WRITE, rel, PR_ERROR, 0, "%s",
		    "write to read-write page returned 1 but memory is unchanged");
	else
		set(c, OP_WRITE, rel, open_outcome(err), err,
		    "pwrite to read-write page%s", c->wsrc);
}

/* force: write the read-only page; if writing is refused, read the
 * PROT_NONE page.  EIO means FOLL_FORCE was withheld. */
static void probe_force(struct ctx *c, int rel, int wfd, int rfd)
{
	int after, err = EACCES;

	snap(c);
	if (wfd >= 0) {
		uintptr_t a = addr_of(c, PG_RO, OP_FORCE, rel);
		unsigned char v = val_of(OP_FORCE, rel);

		err = acc_write(c, rel, wfd, a, v, &after);
		if (!err && after != v) {
			set(c, OP_FORCE, rel, PR_ERROR, 0, "%s",
			    "write to read-only page returned 1 but memory is unchanged");
			return;
		}
		if (!err) {
			set(c, OP_FORCE, rel, PR_ALLOWED, 0,
			    "pwrite to read-only page%s", c->wsrc);
			return;
		}
		if (err != EACCES) {
			set(c, OP_FORCE, rel, err == EIO ? PR_DENIED : PR_ERROR,
			    err, "pwrite to read-only page%s", c->wsrc);
			return;
		}
	}
	/* No writing allowed: read the PROT_NONE page instead. */
	if (rfd < 0) {
		set(c, OP_FORCE, rel, PR_NOT_RUN, 0, "%s",
		    "not run: no file that may write or read");
		return;
	}
	err = acc_read(c, rel, rfd, addr_of(c, PG_NONE, OP_FORCE, rel), &after);
	if (!err && after != fill[PG_NONE])
		set(c, OP_FORCE, rel, PR_ERROR, 0, "%s",
		    "read of PROT_NONE page returned wrong data");
	else
		set(c, OP_FORCE, rel, !err ? PR_ALLOWED : err == EIO ?
		    PR_DENIED : PR_ERROR, err, "pread of PROT_NONE page%s", c->rsrc);
}

static int trace_start(struct ctx *c)
{
	int st;

	if (ptrace(PTRACE_SEIZE, c->t, NULL, NULL) < 0) {
		snprintf(c->p->fatal, sizeof(c->p->fatal),
			 "cannot ptrace our own child (PTRACE_SEIZE: %s)",
			 strerror(errno));
		return -1;
	}
	if (ptrace(PTRACE_INTERRUPT, c->t, NULL, NULL) < 0 ||
	    waitpid(c->t, &st, __WALL) != c->t || !WIFSTOPPED(st)) {
		snprintf(c->p->fatal, sizeof(c->p->fatal),
			 "cannot stop our traced child: %s", strerror(errno));
		return -2;	/* still traced: P is no "other" any more */
	}
	return 0;
}

/* Marks the probes of rel from op on as failed, for why. */
static void fail_probes(struct ctx *c, int rel, int from, const char *why)
{
	for (int op = from; op < NOPS; op++)
		set(c, op, rel, PR_ERROR, 0, "%s", why);
}

#define BY_TRACER " (file opened by the tracer)"
#define BY_OTHER " (file opened by a non-tracer)"

static void prober(struct probes *p)
{
	struct ctx c = { .p = p, .t_fd = { 0, 0 }, .wsrc = "", .rsrc = "" };
	int rfd_o, wfd_o, rfd_t = -1, wfd_t = -1, traced;
	int sv[2];
	pid_t me = getpid();

	c.pagesz = sysconf(_SC_PAGESIZE);
	c.pages = mmap(NULL, NPAGES * c.pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.pages == MAP_FAILED ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(p->fatal, sizeof(p->fatal), "setup: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < NPAGES; i++)
		memset(c.pages + i * c.pagesz, fill[i], c.pagesz);
	if (mprotect(c.pages + PG_RO * c.pagesz, c.pagesz, PROT_READ) ||
	    mprotect(c.pages + PG_NONE * c.pagesz, c.pagesz, PROT_NONE)) {
		snprintf(p->fatal, sizeof(p->fatal), "mprotect: %s", strerror(errno));
		return;
	}
	/* Dumpable, so that /proc/T/mem passes the ptrace access check. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	c.t = fork();
	if (c.t < 0) {
		snprintf(p->fatal, sizeof(p->fatal), "fork: %s", strerror(errno));
		return;
	}
	if (c.t == 0) {
		close(sv[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != me)
			_exit(0);
		target_main(sv[1]);
	}
	close(sv[1]);
	c.sock = sv[0];
	p->ran = 1;

	/* Opens: self, then other, then tracer. */
	probe_self_open(&c, 0);
	probe_self_open(&c, 1);
	rfd_o = probe_open(&c, REL_OTHER, c.t, 0);
	wfd_o = probe_open(&c, REL_OTHER, c.t, 1);
	traced = trace_start(&c);
	if (traced == -2) {
		kill(c.t, SIGKILL);
		waitpid(c.t, NULL, __WALL);
		for (int rel = 0; rel < NRELS; rel++)
			fail_probes(&c, rel, rel == REL_TRACER ? 0 : OP_WRITE, p->fatal);
		return;
	}
	if (traced == 0) {
		rfd_t = probe_open(&c, REL_TRACER, c.t, 0);
		wfd_t = probe_open(&c, REL_TRACER, c.t, 1);
		c.wsrc = wfd_t >= 0 ? "" : BY_OTHER;
		c.rsrc = rfd_t >= 0 ? "" : BY_OTHER;
		probe_write(&c, REL_TRACER, wfd_t >= 0 ? wfd_t : wfd_o);
		probe_force(&c, REL_TRACER, wfd_t >= 0 ? wfd_t : wfd_o,
			    rfd_t >= 0 ? rfd_t : rfd_o);
		if (ptrace(PTRACE_DETACH, c.t, NULL, NULL) < 0) {
			snprintf(p->fatal, sizeof(p->fatal),
				 "PTRACE_DETACH: %s", strerror(errno));
			kill(c.t, SIGKILL);
			waitpid(c.t, NULL, __WALL);
			fail_probes(&c, REL_OTHER, OP_WRITE, p->fatal);
			fail_probes(&c, REL_SELF, OP_WRITE, p->fatal);
			return;
		}
	} else {
		fail_probes(&c, REL_TRACER, 0, p->fatal);
	}

	/* Not tracing T any more: P is just another process. */
	c.wsrc = wfd_o >= 0 ? "" : BY_TRACER;
	c.rsrc = rfd_o >= 0 ? "" : BY_TRACER;
	probe_write(&c, REL_OTHER, wfd_o >= 0 ? wfd_o : wfd_t);
	probe_force(&c, REL_OTHER, wfd_o >= 0 ? wfd_o : wfd_t,
		    rfd_o >= 0 ? rfd_o : rfd_t);

	/* T on its own mm, with a file P opened for it if T could not. */
	for (int s = SLOT_R; s <= SLOT_W; s++) {
		int fd_t = s == SLOT_R ? rfd_t : wfd_t;
		int fd = fd_t >= 0 ? fd_t : s == SLOT_R ? rfd_o : wfd_o;
		const char *by = fd_t >= 0 ? BY_TRACER : BY_OTHER;

		*(s == SLOT_R ? &c.rsrc : &c.wsrc) = "";
		if (!c.t_fd[s] && fd >= 0) {
			c.t_fd[s] = !tcall(&c, T_RECV, s, 0, 0, 0, fd).err;
			*(s == SLOT_R ? &c.rsrc : &c.wsrc) = by;
		}
	}
	probe_write(&c, REL_SELF, c.t_fd[SLOT_W] ? SLOT_W : -1);
	probe_force(&c, REL_SELF, c.t_fd[SLOT_W] ? SLOT_W : -1,
		    c.t_fd[SLOT_R] ? SLOT_R : -1);

	tcall(&c, T_QUIT, 0, 0, 0, 0, -1);
	waitpid(c.t, NULL, __WALL);
}

void probes_run(struct probes *p, int timeout_s)
{
	char *buf = (char *)p;
	size_t got = 0;
	int fd[2], st = 0;
	pid_t pid;
	struct timespec start, now;

	memset(p, 0, sizeof(*p));
	if (pipe2(fd, O_CLOEXEC) < 0) {
		snprintf(p->fatal, sizeof(p->fatal), "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(p->fatal, sizeof(p->fatal), "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pid == 0) {
		struct probes r;
		ssize_t n;

		setpgid(0, 0);
		close(fd[0]);
		memset(&r, 0, sizeof(r));
		prober(&r);
		n = write(fd[1], &r, sizeof(r));
		_exit(n == (ssize_t)sizeof(r) ? 0 : 1);
	}
	setpgid(pid, pid);
	close(fd[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (got < sizeof(*p)) {
		struct pollfd pfd = { fd[0], POLLIN, 0 };
		long left;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_s * 1000L - ((now.tv_sec - start.tv_sec) * 1000L +
					    (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			/* Our own process group: the prober and its target. */
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(fd[0]);
			memset(p, 0, sizeof(*p));
			snprintf(p->fatal, sizeof(p->fatal),
				 "probes did not finish within %d s", timeout_s);
			return;
		}
		n = read(fd[0], buf + got, sizeof(*p) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd[0]);
	waitpid(pid, &st, 0);
	if (got != sizeof(*p)) {
		memset(p, 0, sizeof(*p));
		if (WIFSIGNALED(st))
			snprintf(p->fatal, sizeof(p->fatal),
				 "probe process killed by signal %d", WTERMSIG(st));
		else
			snprintf(p->fatal, sizeof(p->fatal),
				 "probe process exited without a result");
	}
}

enum level probes_level(const struct probes *p, int op, const char **why)
{
	const struct probe_result *r = p->r[op];
	enum outcome s = r[REL_SELF].out, o = r[REL_OTHER].out;
	enum outcome t = r[REL_TRACER].out;

	*why = NULL;
	if (o == PR_ALLOWED) {
		if (s == PR_DENIED || t == PR_DENIED) {
			*why = "inconsistent: allowed to others, denied to self or tracer";
			return LV_UNKNOWN;
		}
		return LV_ALWAYS;
	}
	if (o != PR_DENIED) {
		*why = r[REL_OTHER].how;
		return LV_UNKNOWN;
	}
	if (s == PR_ALLOWED) {
		if (t == PR_DENIED) {
			*why = "inconsistent: allowed to self, denied to the tracer";
			return LV_UNKNOWN;
		}
		return LV_SELF;
	}
	if (s != PR_DENIED) {
		*why = r[REL_SELF].how;
		return LV_UNKNOWN;
	}
	if (t == PR_ALLOWED)
		return LV_PTRACE;
	if (t == PR_DENIED)
		return LV_NEVER;
	*why = r[REL_TRACER].how;
	return LV_UNKNOWN;
}

enum level probes_level_enforced(const struct probes *p, int op,
				 const char **why)
{
	static struct probes q;

	q = *p;
	for (int r = 0; r < NRELS; r++)
		if (q.r[op][r].out == PR_ALLOWED && q.r[op][r].d_would > 0)
			q.r[op][r].out = PR_DENIED;
	return probes_level(&q, op, why);
}
