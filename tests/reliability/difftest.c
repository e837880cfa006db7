// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized differential test of the /proc/PID/mem policy against the
 * model (model.c), in a patched guest.
 *
 *   difftest --cmdline SEED         the boot parameters for SEED
 *   difftest [--mutate] SEED STEPS  in a guest booted with them: STEPS
 *                                   random steps, each a case or a sysctl
 *                                   write, checked against the model
 *   difftest --sleeper FD           (internal: what a target execs)
 *
 * The seed decides the boot levels (through every parameter name and
 * synonym) and permissive mode, then a sequence of cases (accessor
 * relation, open mode, access, page protection) and of sysctl writes,
 * which only tighten, so levels climb during a boot.  Every case checks
 * the result, the bytes of the target afterwards and the denial counters;
 * every sysctl write its result and all levels.  On the first mismatch the
 * step, the state and the command that replays the seed are printed.
 * --mutate runs a deliberately wrong model, to show the test can fail.
 */
#include "kselftest.h"
#include "denials.h"
#include "model.h"
#include "scm.h"
#include "sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYS PM_SYS
_Static_assert(PM_NR_OPS == M_NR_OPS, "tests/lib/denials.h: the policy's operations");
#define NOBODY 65534
#define NEW_BYTE 0x5a
#define RES_BADDATA 99	/* access succeeded, wrong bytes */
#define RES_ERRNO 100	/* + errno: an unexpected error */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int pick(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* ---- the boot parameters of a seed ---- */

static const char *const level_spellings[M_NR_LEVELS][2] = {
	{ "always", "off" }, { "self", "self" }, { "ptrace", "ptracer" },
	{ "never", "all" },
};

/*
 * Fills @s with the boot state of @seed and @out (of @size bytes) with its
 * boot parameters.
 */
static void boot_state(uint64_t seed, struct m_state *s, char *out, size_t size)
{
	static const char *const params[M_NR_OPS][2] = {
		{ "restrict_open_read", "restrict_open_read" },
		{ "restrict_open_write", "restrict_open_write" },
		{ "restrict_write", "restrict_write" },
		{ "force_override", "restrict_foll_force" },
	};
	static const enum m_level weighted[] = {
		M_ALWAYS, M_ALWAYS, M_ALWAYS, M_ALWAYS, M_SELF, M_SELF,
		M_PTRACE, M_PTRACE, M_NEVER,
	};
	size_t len = 0;
	int op;

	rng_state = seed;
	out[0] = '\0';
	memset(s, 0, sizeof(*s));
	for (op = 0; op < M_NR_OPS; op++) {
		s->level[op] = weighted[pick(sizeof(weighted) / sizeof(weighted[0]))];
		if (s->level[op] == M_ALWAYS && pick(2))
			continue;	/* the Kconfig default */
		len += (size_t)snprintf(out + len, size - len, "%sproc_mem.%s=%s",
					len ? " " : "", params[op][pick(2)],
					level_spellings[s->level[op]][pick(2)]);
		if (len >= size)
			exit(2);
	}
	s->permissive = pick(3) == 0;
	if (s->permissive)
		snprintf(out + len, size - len, "%sproc_mem.permissive=1",
			 len ? " " : "");
}

/* ---- the kernel's side ---- */

/* The counters, one 64-bit value per file: SYS "denied/OP", "would_deny/OP". */
static int kernel_counters(long denied[M_NR_OPS], long would[M_NR_OPS])
{
	long long c[2][PM_NR_OPS];
	int op;

	if (read_denials(c))
		return -1;
	for (op = 0; op < M_NR_OPS; op++) {
		denied[op] = (long)c[0][op];
		would[op] = (long)c[1][op];
	}
	return 0;
}

/* The kernel's levels and permissive mode, as its sysctls show them. */
static int kernel_levels(struct m_state *k)
{
	char buf[64];
	int op;

	for (op = 0; op < M_NR_OPS; op++) {
		int level;

		if (sysctl_read(m_op_names[op], buf, sizeof(buf)))
			return -1;
		level = m_parse_level(buf);
		if (level < 0)
			return -1;
		k->level[op] = (enum m_level)level;
	}
	if (sysctl_read("permissive", buf, sizeof(buf)))
		return -1;
	k->permissive = atoi(buf) != 0;
	return 0;
}

/* ---- the target's pages ---- */

static const unsigned char initial[P_NR] = { 0x11, 0x22, 0x33, 0x44, 0x55 };
static unsigned char *page[P_NR];
static long page_size;

static void map_pages(void)
{
	static const int prot[P_NR] = {
		PROT_READ | PROT_WRITE, PROT_READ, PROT_NONE,
		PROT_READ | PROT_EXEC, PROT_READ,
	};
	char path[] = "/tmp/difftest.XXXXXX";
	unsigned char *buf;
	int p, fd;

	page_size = sysconf(_SC_PAGESIZE);
	for (p = 0; p < P_SHARED_RO; p++) {
		page[p] = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page[p] == MAP_FAILED)
			exit(2);
		memset(page[p], initial[p], page_size);
		if (mprotect(page[p], page_size, prot[p]))
			exit(2);
	}
	/* A shared mapping of a read-only fd: no VM_MAYWRITE. */
	buf = malloc(page_size);
	fd = mkstemp(path);
	if (!buf || fd < 0)
		exit(2);
	memset(buf, initial[P_SHARED_RO], page_size);
	if (write(fd, buf, page_size) != page_size)
		exit(2);
	close(fd);
	free(buf);
	fd = open(path, O_RDONLY);
	unlink(path);
	page[P_SHARED_RO] = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (fd < 0 || page[P_SHARED_RO] == MAP_FAILED)
		exit(2);
	close(fd);
}

static const int open_flags[MODE_NR] = { O_RDONLY, O_WRONLY, O_RDWR };

static int open_mem(pid_t pid, enum m_mode mode)
{
	char path[64];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/mem");
	return open(path, open_flags[mode] | O_CLOEXEC);
}

static int open_result(int err)
{
	return err == EACCES ? RES_OPEN_EACCES : RES_ERRNO + err;
}

/* The access of a case on an open fd: a result code. */
static int do_access(int fd, const struct m_case *c)
{
	unsigned char byte = NEW_BYTE;
	off_t off = (off_t)(uintptr_t)page[c->prot];
	ssize_t n;

	if (c->access == ACC_NONE)
		return RES_OK;
	if (c->access == ACC_READ)
		n = pread(fd, &byte, 1, off);
	else
		n = pwrite(fd, &byte, 1, off);
	if (n == 0)
		return RES_EOF;
	if (n < 0)
		return errno == EACCES ? RES_EACCES : errno == EIO ? RES_EIO :
		       errno == EBADF ? RES_EBADF : RES_ERRNO + errno;
	if (c->access == ACC_READ && byte != initial[c->prot])
		return RES_BADDATA;
	return RES_OK;
}

static int open_and_access(pid_t pid, const struct m_case *c)
{
	int fd = open_mem(pid, c->mode), res;

	if (fd < 0)
		return open_result(errno);
	res = do_access(fd, c);
	close(fd);
	return res;
}

/* ---- the target ---- */

static void xwrite(int fd, const void *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len)
		_exit(3);
}

static void xread(int fd, void *buf, size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		_exit(3);
}

/*
 * The target: runs the commands of the harness ('s' a case on itself,
 * 'c' a case through an fd its child inherits, 'd' the access of a case
 * through the fd the harness sends next, 'x' exec, 'q' show its bytes and
 * exit).  @cmd is a unix socket, for 'd'.
 */
static void target(int cmd, int res)
{
	struct m_case c;
	char op, arg[16];
	unsigned char bytes[P_NR];
	int r, fd, p, status;
	pid_t child;

	for (;;) {
		xread(cmd, &op, 1);
		switch (op) {
		case 's':
			xread(cmd, &c, sizeof(c));
			r = open_and_access(0, &c);
			xwrite(res, &r, sizeof(r));
			break;
		case 'c':
			xread(cmd, &c, sizeof(c));
			fd = open_mem(0, c.mode);
			if (fd < 0) {
				r = open_result(errno);
			} else {
				child = fork();
				if (child == 0)
					_exit(do_access(fd, &c));
				close(fd);
				r = RES_ERRNO;
				if (child > 0 && waitpid(child, &status, 0) == child &&
				    WIFEXITED(status))
					r = WEXITSTATUS(status);
			}
			xwrite(res, &r, sizeof(r));
			break;
		case 'd':
			xread(cmd, &c, sizeof(c));
			fd = recv_fd(cmd);
			r = fd < 0 ? RES_ERRNO : do_access(fd, &c);
			if (fd >= 0)
				close(fd);
			xwrite(res, &r, sizeof(r));
			break;
		case 'x':
			snprintf(arg, sizeof(arg), "%d", res);
			execl("/proc/self/exe", "difftest", "--sleeper", arg,
			      (char *)NULL);
			_exit(3);
		default:
			for (p = 0; p < P_NR; p++) {
				mprotect(page[p], page_size, PROT_READ);
				bytes[p] = *page[p];
			}
			xwrite(res, bytes, P_NR);
			_exit(0);
		}
	}
}

static _Noreturn void sleeper(const char *fd)
{
	int r = 0;

	xwrite(atoi(fd), &r, sizeof(r));
	for (;;)
		pause();
}

/* ---- one case on the kernel ---- */

static int detach(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) ||
	    waitpid(pid, &status, __WALL) != pid ||
	    ptrace(PTRACE_DETACH, pid, 0, 0))
		return -1;
	return 0;
}

struct outcome {
	int result;
	unsigned char bytes[P_NR];	/* the target's bytes at the end */
	bool have_bytes;
};

static void kernel_run(const struct m_case *c, struct outcome *o)
{
	int cmd[2], res[2], fd = -1, status;
	pid_t pid, helper;
	char op;

	memset(o, 0, sizeof(*o));
	o->result = RES_ERRNO;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, cmd) || pipe(res))
		exit(2);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (pid == 0) {
		close(cmd[1]);
		close(res[0]);
		target(cmd[0], res[1]);
	}
	close(cmd[0]);
	close(res[1]);

	switch (c->rel) {
	case R_SELF:
	case R_INHERIT:
		op = c->rel == R_SELF ? 's' : 'c';
		xwrite(cmd[1], &op, 1);
		xwrite(cmd[1], c, sizeof(*c));
		xread(res[0], &o->result, sizeof(o->result));
		break;
	case R_PARENT:
		o->result = open_and_access(pid, c);
		break;
	case R_DEPUTY:
	case R_TRACERFD:
		/* we open, the target accesses through the fd we send */
		if (c->rel == R_TRACERFD && ptrace(PTRACE_SEIZE, pid, 0, 0))
			break;
		fd = open_mem(pid, c->mode);
		if (fd < 0) {
			o->result = open_result(errno);
		} else {
			op = 'd';
			xwrite(cmd[1], &op, 1);
			xwrite(cmd[1], c, sizeof(*c));
			send_fd(cmd[1], fd);
			close(fd);
			xread(res[0], &o->result, sizeof(o->result));
		}
		if (c->rel == R_TRACERFD && detach(pid))
			o->result = RES_ERRNO;
		break;
	case R_TRACER:
	case R_DETACHED:
	case R_EXECED:
		if (ptrace(PTRACE_SEIZE, pid, 0, 0))
			break;
		fd = open_mem(pid, c->mode);
		if (fd < 0) {
			o->result = open_result(errno);
		} else if (c->rel == R_TRACER) {
			o->result = do_access(fd, c);
		} else if (c->rel == R_DETACHED) {
			if (!detach(pid))
				o->result = do_access(fd, c);
		} else {
			op = 'x';
			xwrite(cmd[1], &op, 1);
			xread(res[0], &o->result, sizeof(o->result));
			o->result = do_access(fd, c);
		}
		if (fd >= 0)
			close(fd);
		if (c->rel == R_TRACER && detach(pid))
			o->result = RES_ERRNO;
		break;
	default:
		helper = fork();
		if (helper == 0) {
			if (setresgid(NOBODY, NOBODY, NOBODY) ||
			    setresuid(NOBODY, NOBODY, NOBODY))
				_exit(RES_ERRNO);
			_exit(open_and_access(pid, c));
		}
		if (helper > 0 && waitpid(helper, &status, 0) == helper &&
		    WIFEXITED(status))
			o->result = WEXITSTATUS(status);
		break;
	}

	if (c->rel == R_EXECED) {
		kill(pid, SIGKILL);
	} else {
		op = 'q';
		xwrite(cmd[1], &op, 1);
		o->have_bytes = read(res[0], o->bytes, P_NR) == P_NR;
	}
	close(cmd[1]);
	close(res[0]);
	waitpid(pid, &status, __WALL);
}

/* ---- the run ---- */

static uint64_t seed;
static long steps, cases, writes;

static const char *result_name(int r, char *buf, size_t size)
{
	if (r >= 0 && r < RES_NR)
		return m_result_names[r];
	if (r == RES_BADDATA)
		return "bad data";
	snprintf(buf, size, "%s", strerror(r - RES_ERRNO));
	return buf;
}

static void describe(const struct m_state *s)
{
	int op;

	printf("#   model: ");
	for (op = 0; op < M_NR_OPS; op++)
		printf("%s=%s(denied %ld would %ld) ", m_op_names[op],
		       m_level_names[s->level[op]], s->denied[op], s->would[op]);
	printf("permissive=%d\n", s->permissive);
}

static int fail(const struct m_state *s, const char *what)
{
	char params[256];
	struct m_state b;

	boot_state(seed, &b, params, sizeof(params));
	ksft_test_result_fail("difftest seed %" PRIu64 ": step %ld: %s\n", seed, steps, what);
	describe(s);
	ksft_print_msg("replay: lab/vm --kernel patched --cmdline '%s' -- "
		       "build/reliability/difftest %s%" PRIu64 " %ld\n", params,
		       m_mutate ? "--mutate " : "", seed, steps);
	return 1;
}

static int check_levels(const struct m_state *s, const char *after)
{
	struct m_state k;
	char what[160];
	int op;

	if (kernel_levels(&k))
		return fail(s, "cannot read the sysctls");
	for (op = 0; op < M_NR_OPS; op++)
		if (k.level[op] != s->level[op]) {
			snprintf(what, sizeof(what), "after %s: kernel %s=%s, model %s",
				 after, m_op_names[op], m_level_names[k.level[op]],
				 m_level_names[s->level[op]]);
			return fail(s, what);
		}
	if (k.permissive != s->permissive) {
		snprintf(what, sizeof(what), "after %s: kernel permissive=%d",
			 after, k.permissive);
		return fail(s, what);
	}
	return 0;
}

static int sysctl_step(struct m_state *s)
{
	static const char *const spellings[] = {
		"always", "self", "ptrace", "never", "off", "ptracer", "all",
	};
	char value[16], what[160];
	int op = (int)pick(M_NR_OPS), want, got;
	struct stat st;

	/* v3: force stays __ro_after_init (its sysctl is 0444): write it
	 * only where it is writable (6.1's v2) */
	if (op == M_FORCE && !stat(SYS "force", &st) && !(st.st_mode & 0222))
		op = M_WRITE;

	writes++;
	if (pick(8) == 0) {
		int val = (int)pick(2);

		want = m_sysctl_permissive(s, val);
		got = sysctl_write("permissive", val ? "1" : "0");
		snprintf(value, sizeof(value), "%d", val);
		op = -1;
	} else {
		snprintf(value, sizeof(value), "%s%s",
			 spellings[pick(sizeof(spellings) / sizeof(spellings[0]))],
			 pick(2) ? "\n" : "");
		want = m_sysctl_level(s, (enum m_op)op, value);
		got = sysctl_write(m_op_names[op], value);
	}
	value[strcspn(value, "\n")] = '\0';
	snprintf(what, sizeof(what), "%s := '%s'", op < 0 ? "permissive" : m_op_names[op],
		 value);
	if (want != got) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s: kernel %s, model %s", what,
			 got ? strerror(-got) : "ok", want ? strerror(-want) : "ok");
		return fail(s, msg);
	}
	return check_levels(s, what);
}

static int case_step(struct m_state *s, const long base_d[], const long base_w[])
{
	static const enum m_rel rels[] = {
		R_SELF, R_SELF, R_TRACER, R_TRACER, R_PARENT, R_PARENT,
		R_INHERIT, R_INHERIT, R_DETACHED, R_DETACHED, R_EXECED,
		R_DEPUTY, R_DEPUTY, R_TRACERFD, R_OTHERUID,
	};
	struct m_case c = {
		.rel = rels[pick(sizeof(rels) / sizeof(rels[0]))],
		.mode = (enum m_mode)pick(MODE_NR),
		.access = (enum m_access)pick(ACC_NR),
		.prot = (enum m_prot)pick(P_NR),
	};
	long d[M_NR_OPS], w[M_NR_OPS];
	char what[256];
	struct outcome o;
	enum m_result want;
	int op;

	/* Mostly an access the fd's mode allows; now and then EBADF. */
	if (pick(6) && c.access == ACC_READ && c.mode == MODE_WRONLY)
		c.mode = MODE_RDWR;
	if (pick(6) && c.access == ACC_WRITE && c.mode == MODE_RDONLY)
		c.mode = MODE_RDWR;
	cases++;
	want = m_run(s, &c);
	kernel_run(&c, &o);
	snprintf(what, sizeof(what), "%s %s %s %s page: ", m_rel_names[c.rel],
		 m_mode_names[c.mode], m_access_names[c.access],
		 m_prot_names[c.prot]);
	if (o.result != (int)want) {
		char buf[64];

		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 "kernel %s, model %s", result_name(o.result, buf, sizeof(buf)),
			 m_result_names[want]);
		return fail(s, what);
	}
	if (c.rel != R_EXECED) {
		for (int p = 0; p < P_NR; p++) {
			unsigned char expect = initial[p];

			if (want == RES_OK && c.access == ACC_WRITE && p == (int)c.prot)
				expect = NEW_BYTE;
			if (!o.have_bytes || o.bytes[p] != expect) {
				snprintf(what + strlen(what), sizeof(what) - strlen(what),
					 "%s page holds %#x, want %#x", m_prot_names[p],
					 o.have_bytes ? o.bytes[p] : 0, expect);
				return fail(s, what);
			}
		}
	}
	if (kernel_counters(d, w))
		return fail(s, "cannot read the denial counters");
	for (op = 0; op < M_NR_OPS; op++)
		if (d[op] - base_d[op] != s->denied[op] ||
		    w[op] - base_w[op] != s->would[op]) {
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 "%s counters: kernel %ld %ld, model %ld %ld",
				 m_op_names[op], d[op] - base_d[op], w[op] - base_w[op],
				 s->denied[op], s->would[op]);
			return fail(s, what);
		}
	return 0;
}

int main(int argc, char **argv)
{
	long base_d[M_NR_OPS], base_w[M_NR_OPS], count;
	char params[256];
	struct m_state s;
	int a = 1, op;

	if (argc == 3 && !strcmp(argv[1], "--sleeper"))
		sleeper(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--cmdline")) {
		boot_state(strtoull(argv[2], NULL, 0), &s, params, sizeof(params));
		printf("%s\n", params);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--mutate")) {
		m_mutate = true;
		a++;
	}
	if (argc - a != 2) {
		fprintf(stderr, "usage: difftest --cmdline SEED | [--mutate] SEED STEPS\n");
		return 2;
	}
	seed = strtoull(argv[a], NULL, 0);
	count = atol(argv[a + 1]);
	ksft_print_header();	/* and stdout line-buffered */
	ksft_set_plan(1);
	boot_state(seed, &s, params, sizeof(params));
	map_pages();
	if (check_levels(&s, "boot") || kernel_counters(base_d, base_w))
		return 1;
	for (steps = 1; steps <= count; steps++) {
		if (pick(25) == 0 ? sysctl_step(&s) : case_step(&s, base_d, base_w))
			return 1;
	}
	ksft_test_result_pass("difftest seed %" PRIu64 ": %ld cases and %ld sysctl writes match the model\n",
			      seed, cases, writes);
	printf("#   end state: ");
	for (op = 0; op < M_NR_OPS; op++)
		printf("%s=%s ", m_op_names[op], m_level_names[s.level[op]]);
	printf("permissive=%d\n", s.permissive);
	ksft_finished();
}
