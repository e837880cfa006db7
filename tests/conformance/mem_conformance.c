// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance of /proc/PID/mem to its access policy.
 *
 * Every accessor (FIXTURE_VARIANT) tries every operation (TEST_F) on a
 * target process (the tracer's own operations, which apply to no other
 * accessor, in FIXTURE(mem_tracer)), and the outcome is compared with one
 * table, expected[], indexed by the policy in force: the operation whose level is set and
 * that level, all other operations being at "always".  The policy in force
 * is given by the environment, PM_OP=force|open_read|open_write|write and
 * PM_LEVEL=always|self|ptrace|never (default: force always), because it is
 * what the test sets, not what the kernel says.  The stock kernel's
 * proc_mem.force_override is the "force" rows: stock and patched kernels
 * are held to the same expectations there.
 *
 * Outcomes: '+' success (and the data read or written is checked),
 * 'A' EACCES, 'I' EIO, '0' end of file; anything else is a failure ('-',
 * not applicable, is no case at all).
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
#include "denials.h"
#include "scm.h"
#include "sysctl.h"

/*
 * The table, expected[op][level][accessor][operation], and the names of
 * its enums: tests/conformance/expect.h, which tests/reliability/
 * model_table.c also includes to hold the model to it.
 */
#include "expect.h"

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

/* The policy in force, from PM_OP and PM_LEVEL: exit if the table has none. */
static void policy(enum policy_op *op, enum policy_level *level)
{
	const char *op_name = getenv("PM_OP") ?: "force";
	const char *level_name = getenv("PM_LEVEL") ?: "always";
	int o = expect_index(policy_op_names, NR_POLICY_OPS, op_name);
	int l = expect_index(level_names, NR_LEVELS, level_name);

	if (o < 0 || l < 0) {
		fprintf(stderr, "no expectations for PM_OP=%s PM_LEVEL=%s\n",
			op_name, level_name);
		exit(KSFT_FAIL);
	}
	*op = (enum policy_op)o;
	*level = (enum policy_level)l;
}

static char outcome_of(int err)
{
	return err == 0 ? '+' : err == EACCES ? 'A' : err == EIO ? 'I' :
	       err == ENODATA ? '0' : 'E';
}

#define SYS		PM_SYS
_Static_assert(PM_NR_OPS == NR_POLICY_OPS, "tests/lib/denials.h: the policy's operations");

/*
 * The kernel's denial counters (would-deny ones if @would), one file per
 * operation, SYS "denied/OP" and SYS "would_deny/OP", into @count: 1, or
 * 0 on a kernel without SYS (stock), or -1 if SYS exists but a counter
 * cannot be read (a patched kernel without the one-value files).
 */
static int denials(bool would, long long count[NR_POLICY_OPS])
{
	long long c[2][PM_NR_OPS];

	if (access(SYS, F_OK))
		return 0;
	if (read_denials(c))
		return -1;
	memcpy(count, c[would], sizeof(c[would]));
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

static void mem_prepare(struct __test_metadata *_metadata,
			struct _test_data_mem *self)
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

static void mem_cleanup(struct _test_data_mem *self)
{
	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
}

FIXTURE_SETUP(mem) { mem_prepare(_metadata, self); }
FIXTURE_TEARDOWN(mem) { mem_cleanup(self); }

/*
 * The tracer's own operations, which apply to no other accessor ('-' in
 * the table): a fixture of their own, so that an operation that does not
 * apply is no case at all rather than a skip (which means "could not run
 * here").
 */
FIXTURE(mem_tracer) {
	struct _test_data_mem m;
};

FIXTURE_SETUP(mem_tracer) { mem_prepare(_metadata, &self->m); }
FIXTURE_TEARDOWN(mem_tracer) { mem_cleanup(&self->m); }

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
	enum policy_op pop;
	enum policy_level level;
	long long before[NR_POLICY_OPS], after[NR_POLICY_OPS];
	int counters, err = 0, status, i;
	char deny, want, got;

	policy(&pop, &level);
	deny = want = expected[pop][level][acc][op];
	counters = denials(permissive(), before);

	if (permissive())
		want = expected[pop][PM_ALWAYS][acc][op];

	ASSERT_NE('-', want) {
		TH_LOG("the table says %s does not apply to %s, which is a case",
		       operation_names[op], accessor_names[acc]);
	}

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
		long long want_n = i == (int)pop &&
				   expect_denial(pop, level, acc, op);

		EXPECT_EQ(want_n, after[i] - before[i]) {
			TH_LOG("%s: %s%s/%s went %lld -> %lld, want +%lld",
			       operation_names[op], SYS,
			       permissive() ? "would_deny" : "denied",
			       policy_op_names[i], before[i], after[i], want_n);
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
TEST_F(mem, rd_unmapped) { run_case(_metadata, self, variant->accessor, RD_UNMAPPED); }
TEST_F(mem, wr_unmapped) { run_case(_metadata, self, variant->accessor, WR_UNMAPPED); }
TEST_F(mem_tracer, wr_detach) { run_case(_metadata, &self->m, TRACER, WR_DETACH); }
TEST_F(mem_tracer, wr_exec) { run_case(_metadata, &self->m, TRACER, WR_EXEC); }
TEST_F(mem_tracer, wr_exit) { run_case(_metadata, &self->m, TRACER, WR_EXIT); }

/*
 * --list-accessors, --list-ops, --list-policy-ops, --list-levels: the
 * table's accessors, operations, policy operations or levels, one a line
 * in enum order (for tests/conformance/demo, walk, run and
 * tests/enforcer/guest); anything else goes to the harness.
 */
int main(int argc, char **argv)
{
	static const struct {
		const char *option;
		const char *const *names;
		int n;
	} lists[] = {
		{ "--list-accessors", accessor_names, NR_ACCESSORS },
		{ "--list-ops", operation_names, NR_OPERATIONS },
		{ "--list-policy-ops", policy_op_names, NR_POLICY_OPS },
		{ "--list-levels", level_names, NR_LEVELS },
	};
	size_t l;
	int i;

	for (l = 0; argc == 2 && l < sizeof(lists) / sizeof(lists[0]); l++) {
		if (strcmp(argv[1], lists[l].option))
			continue;
		for (i = 0; i < lists[l].n; i++)
			printf("%s\n", lists[l].names[i]);
		return 0;
	}
	return test_harness_run(argc, argv);
}
