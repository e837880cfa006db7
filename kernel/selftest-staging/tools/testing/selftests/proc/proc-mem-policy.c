// SPDX-License-Identifier: GPL-2.0
/*
 * The access policy of /proc/PID/mem.
 *
 * Four operations on /proc/PID/mem each have a level, always < self <
 * ptrace < never:
 *
 *   open_read   open() for reading                 refused with EACCES
 *   open_write  open() for writing                 refused with EACCES
 *   write       each write(), by the writing task  refused with EACCES
 *   force       FOLL_FORCE on each access          refused: EIO on a
 *                                                  read-only or PROT_NONE page
 *
 * "always" lets through whoever passed the ptrace access check at open,
 * "ptrace" only the active ptracer of the task the file names, "self" the
 * same and a task on its own address space (for write and force, through a
 * file that the task itself or its tracer opened), "never" nobody.
 *
 * Every actor (a FIXTURE_VARIANT of "mem") performs every action (a TEST_F)
 * on a target process, and the outcome is compared with one table,
 * expected[]: the outcome of each action by each actor with one operation
 * at each level, the others at "always".  When several operations are
 * restricted, the first one that refuses decides, in the order in which
 * the kernel checks them: open_read, open_write, write, force.
 *
 * The levels are global and can only be tightened at runtime, so this test
 * does not choose them, it reads them:
 *
 * - From the sysctls /proc/sys/kernel/proc_mem/{open_read,open_write,write,
 *   force,permissive} (CONFIG_PROC_MEM_SYSCTL).  The table is checked at
 *   those levels, and so are the rules of the sysctls, without changing
 *   any level: a looser level is refused with EPERM, garbage with EINVAL,
 *   a write without CAP_SYS_ADMIN with EPERM, permissive mode cannot be
 *   entered, and a refused write changes nothing.  This runs on any boot,
 *   any number of times; boot with proc_mem.* parameters to test other
 *   levels.
 *
 * - Without those sysctls (CONFIG_PROC_MEM_SYSCTL=n, or a kernel whose only
 *   knob is proc_mem.force_override=) from the environment, as the kernel
 *   was booted: PROC_MEM_POLICY_LEVELS=OP=LEVEL[,OP=LEVEL...], for example
 *   "force=ptrace"; operations not named are at "always", and
 *   "permissive=1" says that proc_mem.permissive=1 was given.  With neither
 *   the table is skipped.  With both, the sysctls must say the same (test
 *   "levels"), which checks the boot parameters.
 *
 * With PROC_MEM_POLICY_WALK=1 the test then walks the policy up (fixture
 * "walk"): it leaves permissive mode if it is on, and raises force, write,
 * open_write and open_read in turn to self, ptrace and never, checking the
 * sysctls and the whole table at each step.  This is destructive: every
 * level stays at "never" until the next boot, so walk in a throwaway VM.
 *
 * In permissive mode (proc_mem.permissive=1) every action must succeed as
 * under "always".  Where the counters /proc/sys/kernel/proc_mem/denied/OP
 * and .../would_deny/OP exist, each action refused by the policy must add
 * exactly one denial to the operation that refused it, and nothing else;
 * in permissive mode one would-deny to each operation that would have
 * refused (an open refused by open_read is not checked for open_write).
 *
 * Run it as root: the otheruid actor and the sysctl tests change
 * credentials, and the sysctls need CAP_SYS_ADMIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define SYSCTL_DIR	"/proc/sys/kernel/proc_mem"
#define NOBODY		65534

enum op { OP_OPEN_READ, OP_OPEN_WRITE, OP_WRITE, OP_FORCE, NR_OPS };
enum level { LV_ALWAYS, LV_SELF, LV_PTRACE, LV_NEVER, NR_LEVELS };

enum actor {
	BY_SELF,	/* the target, on /proc/self/mem */
	BY_TRACER,	/* its ptracer (seized and stopped), same uid */
	BY_PARENT,	/* its parent, same uid, not tracing it */
	BY_INHERIT,	/* a child of the target, through the target's fd */
	BY_DEPUTY,	/* the target, through an fd its parent opened */
	BY_HANDED,	/* the target, through an fd its tracer opened */
	BY_LEADER,	/* the tracer, after the target's main thread exited */
	BY_OTHERUID,	/* a process of another uid */
	NR_ACTORS
};

enum action {
	OPEN_RO,	/* open O_RDONLY */
	OPEN_RW,	/* open O_RDWR */
	RD_RW,		/* read a read-write page */
	WR_RW,		/* write a read-write page */
	RD_NONE,	/* read a PROT_NONE page */
	WR_RO,		/* write a read-only page */
	WR_TEXT,	/* write the target's read-only text */
	WR_DETACH,	/* tracer: open while attached, detach, write text */
	NR_ACTIONS
};

static const char *const op_names[NR_OPS] = {
	"open_read", "open_write", "write", "force",
};

static const char *const level_names[NR_LEVELS] = {
	"always", "self", "ptrace", "never",
};

static const char *const actor_names[NR_ACTORS] = {
	"self", "tracer", "parent", "inherit", "deputy", "handed", "leader",
	"otheruid",
};

static const char *const action_names[NR_ACTIONS] = {
	"open_ro", "open_rw", "rd_rw", "wr_rw", "rd_none", "wr_ro", "wr_text",
	"wr_detach",
};

/*
 * expected[actor][op][level]: the outcome of every action, in the order of
 * enum action, by @actor when @op is at @level and every other operation
 * at "always".  '+' success (what is read or written is checked), 'A'
 * EACCES, 'I' EIO, '-' does not apply.
 *
 * deputy: the parent (not a tracer) opens the file and passes it to the
 * target over SCM_RIGHTS, and the target reads or writes its own memory
 * through it.  "self" is tied to the opener, so the deputy gets no more
 * than the parent would.  handed: the same with the tracer as opener.
 * leader: the tracer of every thread opens the file while the target's
 * main thread lives; the main thread exits (SYS_exit) and the access is
 * made while another thread runs on.
 */
static const char *const expected[NR_ACTORS][NR_OPS][NR_LEVELS] = {
	/*		   always      self        ptrace      never */
	[BY_SELF] = {
		[OP_OPEN_READ]	= { "+++++++-", "+++++++-", "AAA+A++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+++++++-", "+A+A+AA-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++++++-", "+++A+AA-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "+++++++-", "++++III-", "++++III-" },
	},
	[BY_TRACER] = {
		[OP_OPEN_READ]	= { "++++++++", "++++++++", "++++++++", "AAA+A+++" },
		[OP_OPEN_WRITE]	= { "++++++++", "++++++++", "++++++++", "+A+A+AAA" },
		[OP_WRITE]	= { "++++++++", "+++++++A", "+++++++A", "+++A+AAA" },
		[OP_FORCE]	= { "++++++++", "+++++++I", "+++++++I", "++++IIII" },
	},
	[BY_PARENT] = {
		[OP_OPEN_READ]	= { "+++++++-", "AAA+A++-", "AAA+A++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+A+A+AA-", "+A+A+AA-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++A+AA-", "+++A+AA-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "++++III-", "++++III-", "++++III-" },
	},
	[BY_INHERIT] = {
		[OP_OPEN_READ]	= { "+++++++-", "+++++++-", "AAA+A++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+++++++-", "+A+A+AA-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++A+AA-", "+++A+AA-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "++++III-", "++++III-", "++++III-" },
	},
	[BY_DEPUTY] = {
		[OP_OPEN_READ]	= { "+++++++-", "AAA+A++-", "AAA+A++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+A+A+AA-", "+A+A+AA-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++A+AA-", "+++A+AA-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "++++III-", "++++III-", "++++III-" },
	},
	[BY_HANDED] = {
		[OP_OPEN_READ]	= { "+++++++-", "+++++++-", "+++++++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+++++++-", "+++++++-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++++++-", "+++A+AA-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "+++++++-", "++++III-", "++++III-" },
	},
	[BY_LEADER] = {
		[OP_OPEN_READ]	= { "+++++++-", "+++++++-", "+++++++-", "AAA+A++-" },
		[OP_OPEN_WRITE]	= { "+++++++-", "+++++++-", "+++++++-", "+A+A+AA-" },
		[OP_WRITE]	= { "+++++++-", "+++++++-", "+++++++-", "+++A+AA-" },
		[OP_FORCE]	= { "+++++++-", "+++++++-", "+++++++-", "++++III-" },
	},
	[BY_OTHERUID] = {
		[OP_OPEN_READ]	= { "AAAAAAA-", "AAAAAAA-", "AAAAAAA-", "AAAAAAA-" },
		[OP_OPEN_WRITE]	= { "AAAAAAA-", "AAAAAAA-", "AAAAAAA-", "AAAAAAA-" },
		[OP_WRITE]	= { "AAAAAAA-", "AAAAAAA-", "AAAAAAA-", "AAAAAAA-" },
		[OP_FORCE]	= { "AAAAAAA-", "AAAAAAA-", "AAAAAAA-", "AAAAAAA-" },
	},
};

struct policy {
	enum level level[NR_OPS];
	bool permissive;
};

/*
 * The outcome of @action by @who under @pol.  Where the policy refuses,
 * @deny[op] is set for each operation that refuses (would refuse, in
 * permissive mode) and is counted: in enforcing mode only the first.
 */
static char outcome(const struct policy *pol, enum actor who,
		    enum action action, int deny[NR_OPS])
{
	char base = expected[who][OP_FORCE][LV_ALWAYS][action], want = base;
	int op;

	memset(deny, 0, NR_OPS * sizeof(*deny));
	if (base != '+')
		return base;
	for (op = 0; op < NR_OPS; op++) {
		char c = expected[who][op][pol->level[op]][action];

		if (c == '+')
			continue;
		deny[op] = 1;
		if (!pol->permissive)
			return c;
		/* one refused open is one would-deny */
		if (op == OP_OPEN_READ)
			op++;
	}
	return want;
}

static int parse_level(const char *name)
{
	int lv;

	for (lv = 0; lv < NR_LEVELS; lv++)
		if (!strcmp(name, level_names[lv]))
			return lv;
	return -1;
}

static int parse_op(const char *name)
{
	int op;

	for (op = 0; op < NR_OPS; op++)
		if (!strcmp(name, op_names[op]))
			return op;
	return -1;
}

static bool have_sysctls(void)
{
	return !access(SYSCTL_DIR "/force", F_OK);
}

/* Read a sysctl of ours, without its newline: 0 or -errno. */
static int sysctl_read(const char *name, char *buf, size_t size)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSCTL_DIR "/%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Write @val to a sysctl of ours in one write(): 0 or -errno. */
static int sysctl_write(const char *name, const char *val)
{
	char path[128];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), SYSCTL_DIR "/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(val))
		err = -EMSGSIZE;
	close(fd);
	return err;
}

/* The policy the sysctls say: 0, or -errno if one cannot be read. */
static int sysctl_policy(struct policy *pol)
{
	char buf[32];
	int op, lv, err;

	memset(pol, 0, sizeof(*pol));
	for (op = 0; op < NR_OPS; op++) {
		err = sysctl_read(op_names[op], buf, sizeof(buf));
		if (err)
			return err;
		lv = parse_level(buf);
		if (lv < 0)
			return -EBADMSG;
		pol->level[op] = lv;
	}
	err = sysctl_read("permissive", buf, sizeof(buf));
	if (err)
		return err;
	if (strcmp(buf, "0") && strcmp(buf, "1"))
		return -EBADMSG;
	pol->permissive = !strcmp(buf, "1");
	return 0;
}

/* The policy PROC_MEM_POLICY_LEVELS says: 0, 1 if unset, or -EINVAL. */
static int env_policy(struct policy *pol)
{
	const char *env = getenv("PROC_MEM_POLICY_LEVELS");
	char *copy, *item, *save = NULL, *val;
	int err = 0, op, lv;

	memset(pol, 0, sizeof(*pol));
	if (!env)
		return 1;
	copy = strdup(env);
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !err;
	     item = strtok_r(NULL, ",", &save)) {
		val = strchr(item, '=');
		if (!val) {
			err = -EINVAL;
			break;
		}
		*val++ = '\0';
		op = parse_op(item);
		lv = parse_level(val);
		if (!strcmp(item, "permissive") && (!strcmp(val, "0") ||
						    !strcmp(val, "1")))
			pol->permissive = !strcmp(val, "1");
		else if (op >= 0 && lv >= 0)
			pol->level[op] = lv;
		else
			err = -EINVAL;
	}
	free(copy);
	return err;
}

/* The policy in force: KSFT_PASS, or KSFT_SKIP/KSFT_FAIL and why. */
static int get_policy(struct policy *pol, const char **why)
{
	int err;

	if (have_sysctls()) {
		err = sysctl_policy(pol);
		*why = "cannot read the levels from " SYSCTL_DIR;
		return err ? KSFT_FAIL : KSFT_PASS;
	}
	err = env_policy(pol);
	*why = "bad PROC_MEM_POLICY_LEVELS";
	if (err > 0)
		*why = "no " SYSCTL_DIR " and no PROC_MEM_POLICY_LEVELS: levels unknown";
	return err > 0 ? KSFT_SKIP : err ? KSFT_FAIL : KSFT_PASS;
}

/*
 * The counters: 0 denied, 1 would_deny.  False on a kernel without them
 * (without the sysctls, or with another layout).
 */
static bool read_counters(unsigned long long c[2][NR_OPS])
{
	static const char *const kind[2] = { "denied", "would_deny" };
	char name[32], buf[32], *end;
	int k, op;

	for (k = 0; k < 2; k++) {
		for (op = 0; op < NR_OPS; op++) {
			snprintf(name, sizeof(name), "%s/%s", kind[k],
				 op_names[op]);
			if (sysctl_read(name, buf, sizeof(buf)))
				return false;
			c[k][op] = strtoull(buf, &end, 10);
			if (end == buf || *end)
				return false;
		}
	}
	return true;
}

#define RW_BYTE		0x11
#define RO_BYTE		0x22
#define NONE_BYTE	0x33
#define NEW_BYTE	0x5a

/* A function of ours whose text the actors overwrite; never called. */
static int target_text(int x)
{
	return x * 3 + 1;
}

struct target {
	unsigned char *rw, *ro, *none, *text;
	long pagesz;
	pid_t pid;	/* the target process */
	pid_t tid;	/* a thread of it that keeps its mm */
	int report[2];	/* target -> test: an int, result or tid */
	int go[2];	/* test -> target: the leader may exit */
	int sock[2];	/* test -> target: SCM_RIGHTS */
};

static int action_flags(enum action action)
{
	switch (action) {
	case OPEN_RO:
	case RD_RW:
	case RD_NONE:
		return O_RDONLY;
	case OPEN_RW:
		return O_RDWR;
	default:
		return O_WRONLY;
	}
}

static unsigned char *action_address(const struct target *t,
				     enum action action)
{
	switch (action) {
	case RD_RW:
	case WR_RW:
		return t->rw;
	case RD_NONE:
		return t->none;
	case WR_RO:
		return t->ro;
	default:
		return t->text;
	}
}

/* Open /proc/PID/mem (PID 0: /proc/self/mem): an fd or -errno. */
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

/*
 * The access of @action through @fd: 0 on success with the right data,
 * else -errno (-EBADMSG for wrong data or a short access).
 */
static int access_mem(const struct target *t, int fd, enum action action)
{
	unsigned char *addr = action_address(t, action), byte = NEW_BYTE;
	off_t off = (off_t)(uintptr_t)addr;
	ssize_t n;

	switch (action) {
	case OPEN_RO:
	case OPEN_RW:
		return 0;
	case RD_RW:
	case RD_NONE:
		n = pread(fd, &byte, 1, off);
		if (n != 1)
			return n < 0 ? -errno : -EBADMSG;
		return byte == (action == RD_RW ? RW_BYTE : NONE_BYTE) ?
		       0 : -EBADMSG;
	default:
		n = pwrite(fd, &byte, 1, off);
		return n == 1 ? 0 : n < 0 ? -errno : -EBADMSG;
	}
}

static int open_and_access(const struct target *t, pid_t pid,
			   enum action action)
{
	int fd = open_mem(pid, action_flags(action)), err;

	if (fd < 0)
		return fd;
	err = access_mem(t, fd, action);
	close(fd);
	return err;
}

/* Wait for a child that exits with -errno, 0 or a count: return that. */
static int wait_child(pid_t child)
{
	int status;

	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -ECHILD;
	return (signed char)WEXITSTATUS(status);
}

/* Send @fd, or the -errno @err of a failed open, over @sock. */
static int send_fd(int sock, int fd, int err)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &err, sizeof(err) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (fd >= 0) {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == sizeof(err) ? 0 : -1;
}

/* Receive what send_fd() sent: an fd or -errno. */
static int recv_fd(int sock)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	int err = 0, fd;
	struct iovec iov = { &err, sizeof(err) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	struct cmsghdr *cmsg;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != sizeof(err))
		return -EBADMSG;
	if (err)
		return err;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_level != SOL_SOCKET ||
	    cmsg->cmsg_type != SCM_RIGHTS)
		return -EBADMSG;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* inherit: the target opens its own mem, a child of it accesses. */
static int inherited_access(const struct target *t, enum action action)
{
	int fd = open_mem(0, action_flags(action)), err;
	pid_t child;

	if (fd < 0)
		return fd;
	child = fork();
	if (child == 0)
		_exit(access_mem(t, fd, action));
	err = wait_child(child);
	close(fd);
	return err;
}

/* deputy, handed: the target accesses through an fd it is given. */
static int received_access(const struct target *t, enum action action)
{
	int fd = recv_fd(t->sock[1]), err;

	if (fd < 0)
		return fd;
	err = access_mem(t, fd, action);
	close(fd);
	return err;
}

static void report(const struct target *t, int val)
{
	if (write(t->report[1], &val, sizeof(val)) != sizeof(val))
		_exit(1);
}

static void *worker(void *arg)
{
	report(arg, syscall(SYS_gettid));
	for (;;)
		pause();
	return NULL;
}

/* leader: start a thread, and exit the main thread when told. */
static void leader_main(struct target *t)
{
	pthread_t thread;
	char go;

	if (pthread_create(&thread, NULL, worker, t))
		_exit(1);
	if (read(t->go[0], &go, 1) != 1)
		_exit(1);
	syscall(SYS_exit, 0);
}

static void target_main(struct target *t, enum actor who,
			enum action action)
{
	int err = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	switch (who) {
	case BY_SELF:
		err = open_and_access(t, 0, action);
		break;
	case BY_INHERIT:
		err = inherited_access(t, action);
		break;
	case BY_DEPUTY:
	case BY_HANDED:
		err = received_access(t, action);
		break;
	case BY_LEADER:
		leader_main(t);
		break;
	default:
		break;
	}
	report(t, err);
	for (;;)
		pause();
}

static bool is_zombie(pid_t pid)
{
	char path[64], buf[256], *state;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	state = strrchr(buf, ')');
	return state && state[1] == ' ' && state[2] == 'Z';
}

static void seize(struct __test_metadata *_metadata, pid_t tid, bool stop)
{
	int status;

	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));
	if (!stop)
		return;
	ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, tid, 0, 0));
	ASSERT_EQ(tid, waitpid(tid, &status, __WALL));
	ASSERT_TRUE(WIFSTOPPED(status));
}

static int read_report(struct __test_metadata *_metadata, struct target *t)
{
	int val = -1;

	ASSERT_EQ((ssize_t)sizeof(val), read(t->report[0], &val, sizeof(val)));
	return val;
}

/* The part of the actors outside the target: 0 or -errno. */
static int act(struct __test_metadata *_metadata, struct target *t,
	       enum actor who, enum action action)
{
	int flags = action_flags(action), fd, err, i;
	pid_t child;

	switch (who) {
	case BY_TRACER:
		seize(_metadata, t->pid, true);
		if (action != WR_DETACH)
			return open_and_access(t, t->pid, action);
		fd = open_mem(t->pid, flags);
		if (fd < 0)
			return fd;
		err = ptrace(PTRACE_DETACH, t->pid, 0, 0) ? -errno :
		      access_mem(t, fd, action);
		close(fd);
		return err;
	case BY_PARENT:
		return open_and_access(t, t->pid, action);
	case BY_OTHERUID:
		child = fork();
		if (child == 0) {
			if (setresgid(NOBODY, NOBODY, NOBODY) ||
			    setresuid(NOBODY, NOBODY, NOBODY))
				_exit(-ECHILD);
			_exit(open_and_access(t, t->pid, action));
		}
		return wait_child(child);
	case BY_HANDED:
	case BY_DEPUTY:
		if (who == BY_HANDED)
			seize(_metadata, t->pid, false);
		fd = open_mem(t->pid, flags);
		ASSERT_EQ(0, send_fd(t->sock[0], fd, fd < 0 ? fd : 0));
		if (fd >= 0)
			close(fd);
		return read_report(_metadata, t);
	case BY_LEADER:
		t->tid = read_report(_metadata, t);
		seize(_metadata, t->pid, false);
		seize(_metadata, t->tid, false);
		fd = open_mem(t->pid, flags);
		ASSERT_EQ(1, write(t->go[1], "g", 1));
		for (i = 0; i < 10000 && !is_zombie(t->pid); i++)
			usleep(1000);
		ASSERT_TRUE(is_zombie(t->pid)) {
			TH_LOG("the main thread of %d did not exit", t->pid);
		}
		if (fd < 0)
			return fd;
		err = access_mem(t, fd, action);
		close(fd);
		return err;
	default:	/* self, inherit: done by the target */
		return read_report(_metadata, t);
	}
}

static void target_start(struct __test_metadata *_metadata, struct target *t,
			 enum actor who, enum action action)
{
	unsigned char *map;

	memset(t, 0, sizeof(*t));
	t->pid = -1;
	t->pagesz = sysconf(_SC_PAGESIZE);
	map = mmap(NULL, 3 * t->pagesz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	t->rw = map;
	t->ro = map + t->pagesz;
	t->none = map + 2 * t->pagesz;
	t->text = (unsigned char *)target_text;
	memset(t->rw, RW_BYTE, t->pagesz);
	memset(t->ro, RO_BYTE, t->pagesz);
	memset(t->none, NONE_BYTE, t->pagesz);
	ASSERT_EQ(0, mprotect(t->ro, t->pagesz, PROT_READ));
	ASSERT_EQ(0, mprotect(t->none, t->pagesz, PROT_NONE));
	ASSERT_EQ(0, pipe2(t->report, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(t->go, O_CLOEXEC));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0,
				t->sock));
	t->pid = fork();
	ASSERT_LE(0, t->pid);
	if (t->pid == 0)
		target_main(t, who, action);
	t->tid = t->pid;
}

/* Kill the target and reap it, and its threads if they were traced. */
static void target_stop(struct target *t)
{
	pid_t pid;
	int i;

	if (t->pid > 0) {
		kill(t->pid, SIGKILL);
		do
			pid = waitpid(-1, NULL, __WALL);
		while (pid > 0 && pid != t->pid);
	}
	for (i = 0; i < 2; i++) {
		close(t->report[i]);
		close(t->go[i]);
		close(t->sock[i]);
	}
	munmap(t->rw, 3 * t->pagesz);
}

/* Did the write land?  Read the target's byte from outside. */
static bool written(const struct target *t, enum action action)
{
	unsigned char byte = 0;
	struct iovec local = { &byte, 1 };
	struct iovec remote = { action_address(t, action), 1 };

	return process_vm_readv(t->tid, &local, 1, &remote, 1, 0) == 1 &&
	       byte == NEW_BYTE;
}

/* One action by one actor, checked against expected[] and the counters. */
static void run_case(struct __test_metadata *_metadata,
		     const struct policy *pol, enum actor who,
		     enum action action)
{
	unsigned long long before[2][NR_OPS], after[2][NR_OPS];
	int deny[NR_OPS], err, op, k;
	struct target t;
	bool counted;
	char want, got;

	want = outcome(pol, who, action, deny);
	counted = read_counters(before);
	target_start(_metadata, &t, who, action);
	err = act(_metadata, &t, who, action);
	got = err == 0 ? '+' : err == -EACCES ? 'A' : err == -EIO ? 'I' : 'E';
	if (got == '+' && action_flags(action) == O_WRONLY &&
	    !written(&t, action))
		got = 'W';	/* the write said yes, but nothing changed */
	target_stop(&t);

	EXPECT_EQ(want, got) {
		TH_LOG("%s %s: want '%c', got '%c' (%d: %s)",
		       actor_names[who], action_names[action], want, got,
		       err, strerror(-err));
	}
	if (!counted || !read_counters(after))
		return;
	for (k = 0; k < 2; k++) {
		for (op = 0; op < NR_OPS; op++) {
			unsigned long long n = after[k][op] - before[k][op];
			unsigned long long w = k == pol->permissive ? deny[op] : 0;

			EXPECT_EQ(w, n) {
				TH_LOG("%s %s: %s/%s went up by %llu, not %llu",
				       actor_names[who],
				       action_names[action],
				       k ? "would_deny" : "denied",
				       op_names[op], n, w);
			}
		}
	}
}

/* Every action by every actor. */
static void run_table(struct __test_metadata *_metadata,
		      const struct policy *pol)
{
	int actor, action, deny[NR_OPS];

	for (actor = 0; actor < NR_ACTORS; actor++) {
		if (actor == BY_OTHERUID && geteuid())
			continue;
		for (action = 0; action < NR_ACTIONS; action++)
			if (outcome(pol, actor, action, deny) != '-')
				run_case(_metadata, pol, actor, action);
	}
}

static bool same_policy(const struct policy *a, const struct policy *b)
{
	return !memcmp(a->level, b->level, sizeof(a->level)) &&
	       a->permissive == b->permissive;
}

/*
 * Write @val to sysctl @name and expect @want (0 or -errno) and, if it is
 * refused, that the policy did not change.
 */
static void expect_write(struct __test_metadata *_metadata, const char *name,
			 const char *val, int want)
{
	struct policy before, after;
	int err;

	ASSERT_EQ(0, sysctl_policy(&before));
	err = sysctl_write(name, val);
	ASSERT_EQ(0, sysctl_policy(&after));
	EXPECT_EQ(want, err) {
		TH_LOG("%s <- \"%s\": want %s, got %s", name, val,
		       strerror(-want), strerror(-err));
	}
	if (want)
		EXPECT_TRUE(same_policy(&before, &after)) {
			TH_LOG("%s <- \"%s\" was refused but changed the policy",
			       name, val);
		}
}

/* Why the sysctls cannot be tested, or NULL if they can. */
static const char *sysctls_untestable(void)
{
	if (!have_sysctls())
		return "no " SYSCTL_DIR;
	return geteuid() ? "writing the sysctls needs root" : NULL;
}

/* The sysctls read level names, and what PROC_MEM_POLICY_LEVELS says. */
TEST(levels)
{
	struct policy sys, env;
	int err, op;

	err = env_policy(&env);
	ASSERT_LE(0, err) {
		TH_LOG("bad PROC_MEM_POLICY_LEVELS");
	}
	if (!have_sysctls()) {
		if (err)
			SKIP(return, "no " SYSCTL_DIR
			     " and no PROC_MEM_POLICY_LEVELS");
		SKIP(return, "no " SYSCTL_DIR
		     ": levels from PROC_MEM_POLICY_LEVELS");
	}
	ASSERT_EQ(0, sysctl_policy(&sys));
	for (op = 0; op < NR_OPS; op++)
		TH_LOG("%s=%s", op_names[op], level_names[sys.level[op]]);
	TH_LOG("permissive=%d", sys.permissive);
	if (err == 0)
		EXPECT_TRUE(same_policy(&sys, &env)) {
			TH_LOG("PROC_MEM_POLICY_LEVELS=%s disagrees",
			       getenv("PROC_MEM_POLICY_LEVELS"));
		}
}

/* Writing the level in force is accepted and changes nothing. */
TEST(sysctl_same_level)
{
	const char *why = sysctls_untestable();
	struct policy pol, now;
	char val[16];
	int op;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sysctl_policy(&pol));
	for (op = 0; op < NR_OPS; op++) {
		expect_write(_metadata, op_names[op],
			     level_names[pol.level[op]], 0);
		snprintf(val, sizeof(val), "%s\n", level_names[pol.level[op]]);
		expect_write(_metadata, op_names[op], val, 0);
	}
	ASSERT_EQ(0, sysctl_policy(&now));
	EXPECT_TRUE(same_policy(&pol, &now));
}

/* A looser level is refused with EPERM. */
TEST(sysctl_looser_level)
{
	const char *why = sysctls_untestable();
	struct policy pol;
	int op, lv, n = 0;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sysctl_policy(&pol));
	for (op = 0; op < NR_OPS; op++) {
		for (lv = 0; lv < (int)pol.level[op]; lv++, n++)
			expect_write(_metadata, op_names[op], level_names[lv],
				     -EPERM);
	}
	if (!n)
		SKIP(return, "every level is at always: nothing is looser");
}

/* Anything but a level name is refused with EINVAL. */
TEST(sysctl_garbage)
{
	const char *why = sysctls_untestable();
	static const char *const garbage[] = {
		"Never", "NEVER", "3", "-1", "nev", "never x", "never\nx",
		"always never", "alwaysalwaysalwaysalways",
	};
	size_t i;
	int op;

	if (why)
		SKIP(return, "%s", why);
	for (op = 0; op < NR_OPS; op++)
		for (i = 0; i < ARRAY_SIZE(garbage); i++)
			expect_write(_metadata, op_names[op], garbage[i],
				     -EINVAL);
	expect_write(_metadata, "permissive", "2", -EINVAL);
	expect_write(_metadata, "permissive", "-1", -EINVAL);
}

/* Drop CAP_SYS_ADMIN from the effective set: 0 or -1. */
static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(SYS_capset, &hdr, data);
}

/*
 * In a child: write the value in force of every sysctl without
 * CAP_SYS_ADMIN (@nobody false: still uid 0) or as another uid; exit with
 * the number of writes that did not fail with @want.
 */
static int unprivileged_writes(bool nobody, int want)
{
	struct policy pol;
	int op, bad = 0;
	pid_t child;

	if (sysctl_policy(&pol))
		return -EBADMSG;
	child = fork();
	if (child)
		return wait_child(child);
	if (nobody ? setresuid(NOBODY, NOBODY, NOBODY) : drop_cap_sys_admin())
		_exit(-ECHILD);
	for (op = 0; op < NR_OPS; op++)
		bad += sysctl_write(op_names[op],
				    level_names[pol.level[op]]) != want;
	bad += sysctl_write("permissive", pol.permissive ? "1" : "0") != want;
	_exit(bad);
}

/*
 * Only CAP_SYS_ADMIN may write: root without it gets EPERM, another uid
 * is stopped by the file mode (EACCES).
 */
TEST(sysctl_unprivileged)
{
	const char *why = sysctls_untestable();

	if (why)
		SKIP(return, "%s", why);
	EXPECT_EQ(0, unprivileged_writes(false, -EPERM));
	EXPECT_EQ(0, unprivileged_writes(true, -EACCES));
}

/* Permissive mode can be left, not entered, at runtime. */
TEST(sysctl_permissive)
{
	const char *why = sysctls_untestable();
	struct policy pol;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sysctl_policy(&pol));
	if (pol.permissive) {
		/* leaving it is left to the walk */
		expect_write(_metadata, "permissive", "1", 0);
	} else {
		expect_write(_metadata, "permissive", "1", -EPERM);
		expect_write(_metadata, "permissive", "1\n", -EPERM);
		expect_write(_metadata, "permissive", "0", 0);
	}
}

FIXTURE(mem) {
	struct policy pol;
};

FIXTURE_VARIANT(mem) {
	enum actor who;
};

FIXTURE_VARIANT_ADD(mem, self) { .who = BY_SELF };
FIXTURE_VARIANT_ADD(mem, tracer) { .who = BY_TRACER };
FIXTURE_VARIANT_ADD(mem, parent) { .who = BY_PARENT };
FIXTURE_VARIANT_ADD(mem, inherit) { .who = BY_INHERIT };
FIXTURE_VARIANT_ADD(mem, deputy) { .who = BY_DEPUTY };
FIXTURE_VARIANT_ADD(mem, handed) { .who = BY_HANDED };
FIXTURE_VARIANT_ADD(mem, leader) { .who = BY_LEADER };
FIXTURE_VARIANT_ADD(mem, otheruid) { .who = BY_OTHERUID };

FIXTURE_SETUP(mem)
{
	const char *why;
	int ret = get_policy(&self->pol, &why);

	ASSERT_NE(KSFT_FAIL, ret) {
		TH_LOG("%s", why);
	}
	if (ret == KSFT_SKIP)
		SKIP(return, "%s", why);
	if (variant->who == BY_OTHERUID && geteuid())
		SKIP(return, "otheruid needs root");
}

FIXTURE_TEARDOWN(mem)
{
}

static void mem_case(struct __test_metadata *_metadata,
		     const struct policy *pol, enum actor who,
		     enum action action)
{
	int deny[NR_OPS];

	if (outcome(pol, who, action, deny) == '-')
		SKIP(return, "%s does not apply to %s", action_names[action],
		     actor_names[who]);
	run_case(_metadata, pol, who, action);
}

#define MEM_CASE(action) mem_case(_metadata, &self->pol, variant->who, action)

TEST_F(mem, open_ro) { MEM_CASE(OPEN_RO); }
TEST_F(mem, open_rw) { MEM_CASE(OPEN_RW); }
TEST_F(mem, rd_rw) { MEM_CASE(RD_RW); }
TEST_F(mem, wr_rw) { MEM_CASE(WR_RW); }
TEST_F(mem, rd_none) { MEM_CASE(RD_NONE); }
TEST_F(mem, wr_ro) { MEM_CASE(WR_RO); }
TEST_F(mem, wr_text) { MEM_CASE(WR_TEXT); }
TEST_F(mem, wr_detach) { MEM_CASE(WR_DETACH); }

/* The walk: each step tightens one sysctl, in this order. */
FIXTURE(walk) {
	struct policy pol;
};

FIXTURE_VARIANT(walk) {
	const char *sysctl;
	const char *value;
};

FIXTURE_VARIANT_ADD(walk, permissive_off) { "permissive", "0" };
FIXTURE_VARIANT_ADD(walk, force_self) { "force", "self" };
FIXTURE_VARIANT_ADD(walk, force_ptrace) { "force", "ptrace" };
FIXTURE_VARIANT_ADD(walk, force_never) { "force", "never" };
FIXTURE_VARIANT_ADD(walk, write_self) { "write", "self" };
FIXTURE_VARIANT_ADD(walk, write_ptrace) { "write", "ptrace" };
FIXTURE_VARIANT_ADD(walk, write_never) { "write", "never" };
FIXTURE_VARIANT_ADD(walk, open_write_self) { "open_write", "self" };
FIXTURE_VARIANT_ADD(walk, open_write_ptrace) { "open_write", "ptrace" };
FIXTURE_VARIANT_ADD(walk, open_write_never) { "open_write", "never" };
FIXTURE_VARIANT_ADD(walk, open_read_self) { "open_read", "self" };
FIXTURE_VARIANT_ADD(walk, open_read_ptrace) { "open_read", "ptrace" };
FIXTURE_VARIANT_ADD(walk, open_read_never) { "open_read", "never" };

FIXTURE_SETUP(walk)
{
	const char *walk = getenv("PROC_MEM_POLICY_WALK");
	const char *why = sysctls_untestable();

	if (!walk || strcmp(walk, "1"))
		SKIP(return,
		     "PROC_MEM_POLICY_WALK=1 walks the levels up (for a throwaway VM)");
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sysctl_policy(&self->pol));
}

FIXTURE_TEARDOWN(walk)
{
}

static void walk_permissive_off(struct __test_metadata *_metadata,
				struct policy *pol)
{
	if (!pol->permissive)
		SKIP(return, "not in permissive mode");
	expect_write(_metadata, "permissive", "0\n", 0);
	ASSERT_EQ(0, sysctl_policy(pol));
	ASSERT_FALSE(pol->permissive);
	expect_write(_metadata, "permissive", "1", -EPERM);
	run_table(_metadata, pol);
}

TEST_F_TIMEOUT(walk, step, 600)
{
	int op = parse_op(variant->sysctl);
	int lv = parse_level(variant->value);
	char val[16];

	if (!strcmp(variant->sysctl, "permissive")) {
		walk_permissive_off(_metadata, &self->pol);
		return;
	}
	ASSERT_LE(0, op);
	ASSERT_LE(0, lv);
	if ((int)self->pol.level[op] > lv)
		SKIP(return, "%s is already %s", op_names[op],
		     level_names[self->pol.level[op]]);
	snprintf(val, sizeof(val), "%s\n", variant->value);
	expect_write(_metadata, variant->sysctl, val, 0);
	ASSERT_EQ(0, sysctl_policy(&self->pol));
	ASSERT_EQ(lv, self->pol.level[op]);
	while (lv-- > 0)
		expect_write(_metadata, variant->sysctl, level_names[lv],
			     -EPERM);
	run_table(_metadata, &self->pol);
}

TEST_HARNESS_MAIN
