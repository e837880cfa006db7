// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance of /proc/PID/mem to its access policy.
 *
 * Every accessor (FIXTURE_VARIANT) tries every operation (TEST_F) on a
 * target process and the outcome is compared with one table, expected[],
 * indexed by the policy in force: the operation whose level is set and
 * that level, all other operations being at "always".  The policy in force
 * is given by the environment, PM_OP=force|open_read|open_write|write and
 * PM_LEVEL=always|self|ptrace|never (default: force always), because it is
 * what the test sets, not what the kernel says.  The stock kernel's
 * proc_mem.force_override is the "force" rows: stock and patched kernels
 * are held to the same expectations there.
 *
 * Outcomes: '+' success (and the data read or written is checked),
 * 'A' EACCES, 'I' EIO, '-' not applicable; anything else is a failure.
 * On a kernel with /proc/sys/kernel/proc_mem/ (the patched one), every
 * expected policy denial must also add exactly one to the counter of
 * PM_OP, /proc/sys/kernel/proc_mem/denied/PM_OP, and nothing to the
 * others; a patched kernel without those files fails.  With
 * PM_PERMISSIVE=1 (proc_mem.permissive=1) every case must behave as under
 * "always" and each denial of PM_LEVEL be counted as a would-deny instead.
 * With PM_SHOW=1 every measured outcome is also logged, one line
 * "outcome ACCESSOR OPERATION GOT WANT DENY" each (DENY: the row's
 * outcome, WANT with permissive mode's "always" in its place), for
 * tests/conformance/demo and tests/enforcer/guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "scm.h"

enum accessor {
	SELF, TRACER, PARENT, INHERIT, OTHERUID, DEPUTY, TRACERFD, NR_ACCESSORS
};
enum operation {
	OPEN_RO,	/* open O_RDONLY */
	OPEN_RW,	/* open O_RDWR */
	RD_RW,		/* read a read-write page */
	WR_RW,		/* write a read-write page */
	RD_NONE,	/* read a PROT_NONE page */
	WR_RO,		/* write a read-only page */
	WR_TEXT,	/* write the target's read-only executable text */
	WR_DETACH,	/* tracer: open while attached, detach, write text */
	WR_EXEC,	/* tracer: open while attached, the target execs, write */
	WR_EXIT,	/* tracer: open while attached, the target exits, write */
	RD_UNMAPPED,	/* read an address no mapping covers */
	WR_UNMAPPED,	/* write an address no mapping covers */
	NR_OPERATIONS
};

/*
 * The expected outcome per (policy, accessor, operation).  Accessors:
 * self      the target on /proc/self/mem;
 * tracer    its active ptracer (PTRACE_SEIZE), same uid;
 * parent    its same-uid parent, not attached;
 * inherit   its child, through fds the target opened on /proc/self/mem;
 * otheruid  a process of another uid (the ptrace access check refuses it);
 * deputy    the target itself, through an fd that its same-uid parent (not
 *           a tracer) opened on /proc/TARGET/mem with the operation's flags
 *           and handed to it over SCM_RIGHTS;
 * tracerfd  the same, but the fd was opened by the target's active ptracer
 *           (PTRACE_SEIZE, left running and attached).
 * Columns are the operations in enum order:
 *   open_ro open_rw rd_rw wr_rw rd_none wr_ro wr_text wr_detach wr_exec wr_exit
 *   rd_unmapped wr_unmapped
 *
 * deputy: the open is the parent's, so the open_* rows are the parent's
 * (open_read/open_write at self, ptrace and never refuse it).  The access
 * is the target's, on its own mm, but `self` counts the opener, not only
 * the writer: the fd was opened by a task that neither used the target's
 * mm nor traced it, so write=self refuses every write ('A' on wr_rw,
 * wr_ro, wr_text) and force=self adds no FOLL_FORCE ('I' on rd_none,
 * wr_ro, wr_text), exactly as if the parent had accessed directly; at
 * ptrace and never the target is not its own tracer: refused as well.
 * So the deputy column is the parent column, row by row: handing the fd
 * to the target gains nothing (v1 let the deputy's writes through at
 * write=self and force=self).
 * tracerfd: the open is the tracer's (the tracer column); the access is
 * the target's, on its own mm, through an fd its tracer opened: `self`
 * admits it (write=self, force=self: '+'), `ptrace` does not (the target
 * is not its own tracer), so at ptrace and never it is refused like the
 * deputy.
 * wr_detach, wr_exec and wr_exit apply to the tracer only.  wr_exec and
 * wr_exit write through a tracer's fd whose target exec'd or exited: its
 * mm is gone, so there is nothing to decide and stock's answer holds at
 * every level: 0 bytes ('0', end of file: gdb takes it for "the process
 * is gone"), and no denial counted; only the open can be refused.
 * rd_unmapped and wr_unmapped access an address below mmap_min_addr, which
 * no mapping covers: EIO at every level, as on a stock kernel, where the
 * open and the write level let the access happen ('A' where they refuse
 * it).  FOLL_FORCE would not have cured it, so it is no force denial and
 * nothing is counted.  Counting, in general: an outcome that differs from
 * the "always" column's is one denial of PM_OP; an equal one is none.
 * A stock kernel has no `self`
 * level; its force_override=always|ptrace|never are held to the force
 * rows like ours.
 */
static const struct {
	const char *op, *level;
	const char *outcome[NR_ACCESSORS];
} expected[] = {
	/*  policy                   self            tracer          parent          inherit         otheruid        deputy          tracerfd */
	{ "open_read", "always",{ "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" } },
	{ "open_read", "self",  { "+++++++---II", "++++++++00II", "AAA+A++---AI", "+++++++---II", "AAAAAAA---AA", "AAA+A++---AI", "+++++++---II" } },
	{ "open_read", "ptrace",{ "AAA+A++---AI", "++++++++00II", "AAA+A++---AI", "AAA+A++---AI", "AAAAAAA---AA", "AAA+A++---AI", "+++++++---II" } },
	{ "open_read", "never", { "AAA+A++---AI", "AAA+A+++00AI", "AAA+A++---AI", "AAA+A++---AI", "AAAAAAA---AA", "AAA+A++---AI", "AAA+A++---AI" } },
	{ "open_write","always",{ "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" } },
	{ "open_write","self",  { "+++++++---II", "++++++++00II", "+A+A+AA---IA", "+++++++---II", "AAAAAAA---AA", "+A+A+AA---IA", "+++++++---II" } },
	{ "open_write","ptrace",{ "+A+A+AA---IA", "++++++++00II", "+A+A+AA---IA", "+A+A+AA---IA", "AAAAAAA---AA", "+A+A+AA---IA", "+++++++---II" } },
	{ "open_write","never", { "+A+A+AA---IA", "+A+A+AAAAAIA", "+A+A+AA---IA", "+A+A+AA---IA", "AAAAAAA---AA", "+A+A+AA---IA", "+A+A+AA---IA" } },
	{ "write",     "always",{ "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" } },
	{ "write",     "self",  { "+++++++---II", "+++++++A00II", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++++++---II" } },
	{ "write",     "ptrace",{ "+++A+AA---IA", "+++++++A00II", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++A+AA---IA" } },
	{ "write",     "never", { "+++A+AA---IA", "+++A+AAA00IA", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++A+AA---IA" } },
	{ "force",     "always",{ "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" } },
	{ "force",     "self",  { "+++++++---II", "+++++++I00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "+++++++---II" } },
	{ "force",     "ptrace",{ "++++III---II", "+++++++I00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "++++III---II" } },
	{ "force",     "never", { "++++III---II", "++++IIII00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "++++III---II" } },
};

static const char *const accessor_names[NR_ACCESSORS] = {
	"self", "tracer", "parent", "inherit", "otheruid", "deputy", "tracerfd",
};

static const char *const operation_names[NR_OPERATIONS] = {
	"open_ro", "open_rw", "rd_rw", "wr_rw", "rd_none", "wr_ro", "wr_text",
	"wr_detach", "wr_exec", "wr_exit", "rd_unmapped", "wr_unmapped",
};

#define RW_BYTE		0x11
#define RO_BYTE		0x22
#define NONE_BYTE	0x33
#define NEW_BYTE	0x5a
#define NOBODY		65534

/* A function of ours whose text the accessors overwrite; never called. */
static __attribute__((noinline, used, aligned(64))) int target_text(int x)
{
	return x * 3 + 1;
}

static bool permissive(void)
{
	const char *p = getenv("PM_PERMISSIVE");

	return p && !strcmp(p, "1");
}

static char expected_outcome(enum accessor acc, enum operation op,
			     const char *want_level)
{
	const char *want_op = getenv("PM_OP") ?: "force";
	size_t i;

	for (i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		if (!strcmp(expected[i].op, want_op) &&
		    !strcmp(expected[i].level, want_level))
			return expected[i].outcome[acc][op];
	fprintf(stderr, "no expectations for PM_OP=%s PM_LEVEL=%s\n",
		want_op, want_level);
	exit(KSFT_FAIL);
}

static char outcome_of(int err)
{
	return err == 0 ? '+' : err == EACCES ? 'A' : err == EIO ? 'I' :
	       err == ENODATA ? '0' : 'E';
}

#define SYS		"/proc/sys/kernel/proc_mem/"
#define NR_POLICY_OPS	4
static const char *const policy_ops[NR_POLICY_OPS] = {
	"open_read", "open_write", "write", "force",
};

/*
 * The kernel's denial counters (would-deny ones if @would), one file per
 * operation, SYS "denied/OP" and SYS "would_deny/OP", into @count: 1, or
 * 0 on a kernel without SYS (stock), or -1 if SYS exists but a counter
 * cannot be read (a patched kernel without the one-value files).
 */
static int denials(bool would, long long count[NR_POLICY_OPS])
{
	char path[96];
	int op;

	if (access(SYS, F_OK))
		return 0;
	for (op = 0; op < NR_POLICY_OPS; op++) {
		FILE *f;
		int n;

		snprintf(path, sizeof(path), SYS "%s/%s",
			 would ? "would_deny" : "denied", policy_ops[op]);
		f = fopen(path, "r");
		if (!f)
			return -1;
		n = fscanf(f, "%lld", &count[op]);
		fclose(f);
		if (n != 1)
			return -1;
	}
	return 1;
}

static int open_mem(pid_t pid, int flags)
{
	char path[64];
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/mem");
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

struct pages {
	unsigned char *rw, *ro, *none, *text, *hole;
};

/* Flags of the fd an operation needs, 0 for the open-only operations. */
static int op_flags(enum operation op)
{
	switch (op) {
	case OPEN_RO:
	case RD_RW:
	case RD_NONE:
	case RD_UNMAPPED:
		return O_RDONLY;
	case OPEN_RW:
		return O_RDWR;
	default:
		return O_WRONLY;
	}
}

static unsigned char *op_address(const struct pages *p, enum operation op)
{
	switch (op) {
	case RD_RW:
	case WR_RW:
		return p->rw;
	case RD_NONE:
		return p->none;
	case WR_RO:
		return p->ro;
	case RD_UNMAPPED:
	case WR_UNMAPPED:
		return p->hole;
	default:
		return p->text;
	}
}

/*
 * The access part of an operation, on an fd already open with op_flags():
 * 0 on success with the right data, else a positive errno (EBADMSG for
 * wrong data, ENODATA for 0 bytes: end of file).
 */
static int access_op(int fd, const struct pages *p, enum operation op)
{
	unsigned char *addr = op_address(p, op), byte = NEW_BYTE;
	ssize_t n;

	switch (op) {
	case OPEN_RO:
	case OPEN_RW:
		return 0;
	case RD_RW:
	case RD_NONE:
	case RD_UNMAPPED:
		n = pread(fd, &byte, 1, (off_t)(uintptr_t)addr);
		if (n != 1)
			return n < 0 ? errno : n ? EBADMSG : ENODATA;
		return byte == (op == RD_RW ? RW_BYTE : NONE_BYTE) ? 0 : EBADMSG;
	default:
		n = pwrite(fd, &byte, 1, (off_t)(uintptr_t)addr);
		return n == 1 ? 0 : n < 0 ? errno : n ? EBADMSG : ENODATA;
	}
}

/* Open and access, as one process: 0 or a positive errno. */
static int open_and_access(pid_t pid, const struct pages *p, enum operation op)
{
	int fd = open_mem(pid, op_flags(op)), err;

	if (fd < 0)
		return -fd;
	err = access_op(fd, p, op);
	close(fd);
	return err;
}

/* Run fn in a child and return what it exits with. */
static int in_child(int (*fn)(pid_t, const struct pages *, enum operation),
		    pid_t pid, const struct pages *p, enum operation op,
		    uid_t uid)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		if (uid && setresuid(uid, uid, uid))
			_exit(EPERM);
		_exit(fn(pid, p, op));
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return ECHILD;
	return WEXITSTATUS(status);
}

/* inherit: the target opens its own mem, a child of it does the access. */
static int inherited_access(pid_t unused, const struct pages *p,
			    enum operation op)
{
	int fd = open_mem(0, op_flags(op)), status;
	pid_t child;

	(void)unused;
	if (fd < 0)
		return -fd;
	if (op == OPEN_RO || op == OPEN_RW)
		return 0;
	child = fork();
	if (child == 0)
		_exit(access_op(fd, p, op));
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return ECHILD;
	return WEXITSTATUS(status);
}

/*
 * wr_exec, wr_exit: the tracer opens the stopped target's mem, then the
 * target execs (told through @sock; PTRACE_O_TRACEEXEC stops it when the
 * exec is done) or is killed and reaped, and the tracer writes through
 * the old fd.
 */
static int tracer_stale_write(pid_t *pid, const struct pages *p,
			      enum operation op, int sock)
{
	int fd = open_mem(*pid, O_WRONLY), err, status;

	if (fd < 0)
		return -fd;
	if (op == WR_EXEC) {
		if (ptrace(PTRACE_SETOPTIONS, *pid, 0, PTRACE_O_TRACEEXEC) ||
		    ptrace(PTRACE_CONT, *pid, 0, 0) || write(sock, "x", 1) != 1 ||
		    waitpid(*pid, &status, 0) != *pid || !WIFSTOPPED(status)) {
			close(fd);
			return ECHILD;
		}
	} else {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
		*pid = -1;
	}
	err = access_op(fd, p, WR_TEXT);
	close(fd);
	return err;
}

static int tracer_detached_write(pid_t pid, const struct pages *p)
{
	int fd = open_mem(pid, O_WRONLY), err;

	if (fd < 0)
		return -fd;
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		err = errno;
	else
		err = access_op(fd, p, WR_TEXT);
	close(fd);
	return err;
}

FIXTURE(mem) {
	struct pages p;
	pid_t target;
	int report[2];	/* target -> test: result of the target's access */
	int sock[2];	/* test -> target: the fd of deputy and tracerfd */
};

FIXTURE_VARIANT(mem) {
	enum accessor accessor;
};

FIXTURE_VARIANT_ADD(mem, self) { .accessor = SELF };
FIXTURE_VARIANT_ADD(mem, tracer) { .accessor = TRACER };
FIXTURE_VARIANT_ADD(mem, parent) { .accessor = PARENT };
FIXTURE_VARIANT_ADD(mem, inherit) { .accessor = INHERIT };
FIXTURE_VARIANT_ADD(mem, otheruid) { .accessor = OTHERUID };
FIXTURE_VARIANT_ADD(mem, deputy) { .accessor = DEPUTY };
FIXTURE_VARIANT_ADD(mem, tracerfd) { .accessor = TRACERFD };

FIXTURE_SETUP(mem)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	unsigned char *map = mmap(NULL, 3 * pagesz, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, map);
	self->p.rw = map;
	self->p.ro = map + pagesz;
	self->p.none = map + 2 * pagesz;
	self->p.text = (unsigned char *)target_text;
	/* below mmap_min_addr (4096 at least): no mapping can cover it */
	self->p.hole = (unsigned char *)(uintptr_t)pagesz;
	memset(self->p.rw, RW_BYTE, pagesz);
	memset(self->p.ro, RO_BYTE, pagesz);
	memset(self->p.none, NONE_BYTE, pagesz);
	ASSERT_EQ(0, mprotect(self->p.ro, pagesz, PROT_READ));
	ASSERT_EQ(0, mprotect(self->p.none, pagesz, PROT_NONE));
	ASSERT_EQ(0, pipe(self->report));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, self->sock));
	self->target = -1;
}

FIXTURE_TEARDOWN(mem)
{
	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
}

/*
 * Start the target.  For self and inherit it performs the operation
 * itself and writes the result to the report pipe; for deputy and
 * tracerfd it does so on the fd it receives (nothing to do if none comes:
 * the open was refused); either way it then waits to be killed, so that
 * its memory can be checked.
 */
static void start_target(struct _test_data_mem *self, enum accessor acc,
			 enum operation op)
{
	self->target = fork();
	if (self->target == 0) {
		int err = 0;

		if (acc == SELF)
			err = open_and_access(0, &self->p, op);
		else if (acc == INHERIT)
			err = inherited_access(0, &self->p, op);
		else if (acc == DEPUTY || acc == TRACERFD) {
			int fd = recv_fd(self->sock[1]);

			err = fd < 0 ? -1 : access_op(fd, &self->p, op);
		}
		if (write(self->report[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		if (op == WR_EXEC) {	/* a new mm, when the tracer says */
			char c;

			if (read(self->sock[1], &c, 1) == 1)
				execl("/bin/sleep", "sleep", "1000", (char *)NULL);
			_exit(1);
		}
		for (;;)
			pause();
	}
}

/*
 * deputy and tracerfd: open the target's mem here and hand the fd over;
 * the result of the target's access, or the open's errno.
 */
static int hand_over(struct _test_data_mem *self, enum operation op)
{
	int fd = open_mem(self->target, op_flags(op)), err;

	if (fd >= 0) {
		send_fd(self->sock[0], fd);
		close(fd);
	} else if (write(self->sock[0], "", 1) != 1) {	/* no fd: go on */
		return ECHILD;
	}
	if (read(self->report[0], &err, sizeof(err)) != sizeof(err))
		return ECHILD;
	return fd < 0 ? -fd : err;
}

/* Did the write land?  Read the target's byte from outside. */
static int written(struct _test_data_mem *self, enum operation op)
{
	unsigned char byte = 0;
	struct iovec local = { &byte, 1 };
	struct iovec remote = { op_address(&self->p, op), 1 };

	if (process_vm_readv(self->target, &local, 1, &remote, 1, 0) != 1)
		return 0;
	return byte == NEW_BYTE;
}

static void run_case(struct __test_metadata *_metadata,
		     struct _test_data_mem *self, enum accessor acc,
		     enum operation op)
{
	const char *level = getenv("PM_LEVEL") ?: "always";
	const char *policy_op = getenv("PM_OP") ?: "force";
	char deny = expected_outcome(acc, op, level), want = deny, got;
	long long before[NR_POLICY_OPS], after[NR_POLICY_OPS];
	int counters = denials(permissive(), before), err = 0, status, i;

	if (permissive())
		want = expected_outcome(acc, op, "always");

	if (want == '-')
		SKIP(return, "%s does not apply to this accessor",
		     operation_names[op]);

	ASSERT_LE(0, counters) {
		TH_LOG("%s exists, but not the counters %sdenied/OP",
		       SYS, permissive() ? "would_" : "");
	}
	start_target(self, acc, op);
	ASSERT_LT(0, self->target);
	if (acc == TRACERFD)
		ASSERT_EQ(0, ptrace(PTRACE_SEIZE, self->target, 0, 0));
	if (acc != DEPUTY && acc != TRACERFD)
		ASSERT_EQ((ssize_t)sizeof(err),
			  read(self->report[0], &err, sizeof(err)));

	switch (acc) {
	case TRACER:
		ASSERT_EQ(0, ptrace(PTRACE_SEIZE, self->target, 0, 0));
		ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, self->target, 0, 0));
		ASSERT_EQ(self->target, waitpid(self->target, &status, 0));
		if (op == WR_DETACH)
			err = tracer_detached_write(self->target, &self->p);
		else if (op == WR_EXEC || op == WR_EXIT)
			err = tracer_stale_write(&self->target, &self->p, op,
						 self->sock[0]);
		else
			err = open_and_access(self->target, &self->p, op);
		break;
	case PARENT:
		err = open_and_access(self->target, &self->p, op);
		break;
	case OTHERUID:
		err = in_child(open_and_access, self->target, &self->p, op,
			       NOBODY);
		break;
	case DEPUTY:
	case TRACERFD:
		err = hand_over(self, op);
		break;
	default:	/* SELF and INHERIT: done by the target already */
		break;
	}

	got = outcome_of(err);
	if (got == '+' && op_flags(op) == O_WRONLY && !written(self, op))
		got = 'W';	/* the write said yes, but nothing changed */
	if (getenv("PM_SHOW"))
		TH_LOG("outcome %s %s %c %c %c", accessor_names[acc],
		       operation_names[op], got, want, deny);
	EXPECT_EQ(want, got) {
		TH_LOG("%s: want '%c', got '%c' (errno %d: %s)",
		       operation_names[op], want, got, err, strerror(err));
	}

	/*
	 * Each denial by the policy is counted once, as PM_OP's (not the uid
	 * check, and never as another operation's).
	 */
	if (!counters)
		return;
	ASSERT_EQ(1, denials(permissive(), after));
	for (i = 0; i < NR_POLICY_OPS; i++) {
		long long want_n = !strcmp(policy_ops[i], policy_op) &&
				   (deny == 'A' || deny == 'I') &&
				   deny != expected_outcome(acc, op, "always");

		EXPECT_EQ(want_n, after[i] - before[i]) {
			TH_LOG("%s: %s%s/%s went %lld -> %lld, want +%lld",
			       operation_names[op], SYS,
			       permissive() ? "would_deny" : "denied",
			       policy_ops[i], before[i], after[i], want_n);
		}
	}
}

TEST_F(mem, open_ro) { run_case(_metadata, self, variant->accessor, OPEN_RO); }
TEST_F(mem, open_rw) { run_case(_metadata, self, variant->accessor, OPEN_RW); }
TEST_F(mem, rd_rw) { run_case(_metadata, self, variant->accessor, RD_RW); }
TEST_F(mem, wr_rw) { run_case(_metadata, self, variant->accessor, WR_RW); }
TEST_F(mem, rd_none) { run_case(_metadata, self, variant->accessor, RD_NONE); }
TEST_F(mem, wr_ro) { run_case(_metadata, self, variant->accessor, WR_RO); }
TEST_F(mem, wr_text) { run_case(_metadata, self, variant->accessor, WR_TEXT); }
TEST_F(mem, wr_detach) { run_case(_metadata, self, variant->accessor, WR_DETACH); }
TEST_F(mem, wr_exec) { run_case(_metadata, self, variant->accessor, WR_EXEC); }
TEST_F(mem, wr_exit) { run_case(_metadata, self, variant->accessor, WR_EXIT); }
TEST_F(mem, rd_unmapped) { run_case(_metadata, self, variant->accessor, RD_UNMAPPED); }
TEST_F(mem, wr_unmapped) { run_case(_metadata, self, variant->accessor, WR_UNMAPPED); }

TEST_HARNESS_MAIN
