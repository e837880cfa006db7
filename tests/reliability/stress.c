// SPDX-License-Identifier: GPL-2.0
/*
 * Stress of /proc/PID/mem and its policy, bounded in time and count:
 *
 *   stress SECONDS MAXOPS [PROCMEM]
 *
 * Targets that create and end threads, exec themselves and exit (their
 * supervisors start new ones); tracers that attach, open, read, write and
 * detach, and use their fd after detaching; accessors that open, read and
 * write other targets' and their own memory and hand fds to children;
 * one process raising the sysctl levels step by step to "never" over the
 * run (leaving permissive mode halfway) while writing refused values.
 * Ends after SECONDS or MAXOPS operations with one TAP line and the
 * figures; fails if a worker hangs or dies of a signal, or if a
 * sysctl write the model of the levels says must pass is refused (or the
 * reverse).  The kernel log is checked by the caller (tests/reliability/guest).
 * With PROCMEM (a kernel without the series, the BPF LSM enforcer loaded),
 * the levels of open_read, open_write and write climb the same way through
 * `PROCMEM enforce`, which must take every level and refuse every bad one
 * with its usage status, 2 (tests/enforcer/guest).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "sysctl.h"

#define SYS PM_SYS
#define TARGETS 3
#define TRACERS 2
#define ACCESSORS 3
#define MAX_THREADS 4

enum counter {
	C_OPEN, C_OPEN_REFUSED, C_READ, C_WRITE, C_RW_FAILED, C_ATTACH,
	C_FD_PASSED, C_THREAD, C_EXEC, C_EXIT, C_SYSCTL, C_NR
};
static const char *const counter_names[C_NR] = {
	"opens", "refused opens", "reads", "writes", "failed reads/writes",
	"attaches", "fds passed", "threads", "execs", "exits", "sysctl writes",
};

struct shared {
	atomic_int stop;
	atomic_long count[C_NR];
	atomic_int pid[TARGETS];
	atomic_uintptr_t rw[TARGETS], ro[TARGETS];
	atomic_int sysctl_mismatch;
};

static struct shared *sh;
static unsigned int seed;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static void count(enum counter c)
{
	atomic_fetch_add(&sh->count[c], 1);
}

static long total(void)
{
	long t = 0;

	for (int c = 0; c < C_NR; c++)
		t += atomic_load(&sh->count[c]);
	return t;
}

static void map_shared(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		_exit(2);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (sh == MAP_FAILED)
		_exit(2);
}

/* ---- targets ---- */

static atomic_int live_threads;
static unsigned char *rw_page;

static void *thread_fn(void *arg)
{
	(void)arg;
	rw_page[1]++;
	usleep(rnd(2000));
	atomic_fetch_sub(&live_threads, 1);
	return NULL;
}

static _Noreturn void target(int slot, const char *shm)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *ro;
	unsigned int i, life;
	pthread_t t;

	map_shared(shm);
	seed = (unsigned int)getpid() ^ (unsigned int)time(NULL);
	rw_page = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rw_page == MAP_FAILED || ro == MAP_FAILED)
		_exit(2);
	atomic_store(&sh->rw[slot], (uintptr_t)rw_page);
	atomic_store(&sh->ro[slot], (uintptr_t)ro);
	atomic_store(&sh->pid[slot], getpid());
	life = 5 + rnd(40);
	for (i = 0; i < life && !atomic_load(&sh->stop); i++) {
		if (atomic_load(&live_threads) < MAX_THREADS) {
			atomic_fetch_add(&live_threads, 1);
			if (pthread_create(&t, NULL, thread_fn, NULL) == 0) {
				pthread_detach(t);
				count(C_THREAD);
			} else {
				atomic_fetch_sub(&live_threads, 1);
			}
		}
		usleep(rnd(3000));
	}
	if (!atomic_load(&sh->stop) && rnd(2)) {
		char arg[16];

		count(C_EXEC);
		snprintf(arg, sizeof(arg), "%d", slot);
		execl("/proc/self/exe", "stress", "--target", arg, shm, (char *)NULL);
	}
	count(C_EXIT);
	_exit(0);
}

/* Starts targets in @slot until told to stop. */
static _Noreturn void supervisor(int slot, const char *shm)
{
	char arg[16];
	int status;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%d", slot);
	while (!atomic_load(&sh->stop)) {
		pid = fork();
		if (pid == 0)
			execl("/proc/self/exe", "stress", "--target", arg, shm,
			      (char *)NULL);
		if (pid < 0)
			_exit(2);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		atomic_store(&sh->pid[slot], 0);
		if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
			_exit(3);	/* a target died of something else */
	}
	_exit(0);
}

/* ---- tracers and accessors ---- */

static int open_target(pid_t pid, int flags, bool thread)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if (thread) {	/* the newest thread's own file */
		const struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		dir = opendir(path);
		if (!dir)
			return -1;
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				snprintf(path, sizeof(path), "/proc/%d/task/%.16s/mem",
					 (int)pid, d->d_name);
		closedir(dir);
	}
	count(C_OPEN);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		count(C_OPEN_REFUSED);
	return fd;
}

static void rw_some(int fd, int slot, unsigned int n)
{
	unsigned char buf[64];
	ssize_t r;

	while (n--) {
		uintptr_t addr = atomic_load(rnd(2) ? &sh->rw[slot] : &sh->ro[slot]);
		if (rnd(2)) {
			count(C_READ);
			r = pread(fd, buf, 1 + rnd(sizeof(buf)), (off_t)addr);
		} else {
			count(C_WRITE);
			buf[0] = 0;
			r = pwrite(fd, buf, 1 + rnd(sizeof(buf)), (off_t)addr);
		}
		if (r <= 0)
			count(C_RW_FAILED);
	}
}

static void tracer(void)
{
	int fd, status;
	pid_t pid;

	while (!atomic_load(&sh->stop)) {
		int slot = (int)rnd(TARGETS);

		pid = atomic_load(&sh->pid[slot]);
		if (!pid || ptrace(PTRACE_SEIZE, pid, 0, 0)) {
			usleep(1000);
			continue;
		}
		count(C_ATTACH);
		fd = open_target(pid, rnd(3) ? O_RDWR : O_RDONLY, rnd(4) == 0);
		if (fd >= 0)
			rw_some(fd, slot, 1 + rnd(8));
		/*
		 * Stop it to detach.  It may have exited meanwhile: then, as
		 * its tracer, reap it, or its supervisor waits for us.
		 */
		ptrace(PTRACE_INTERRUPT, pid, 0, 0);
		if (waitpid(pid, &status, __WALL) == pid &&
		    !WIFEXITED(status) && !WIFSIGNALED(status))
			ptrace(PTRACE_DETACH, pid, 0, 0);
		if (fd >= 0) {
			rw_some(fd, slot, 1 + rnd(4));	/* after detaching */
			close(fd);
		}
	}
}

static void accessor(void)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int fd;
	pid_t pid, child;

	while (!atomic_load(&sh->stop)) {
		int slot = (int)rnd(TARGETS);

		pid = atomic_load(&sh->pid[slot]);
		if (!pid) {
			usleep(1000);
			continue;
		}
		fd = open_target(pid, modes[rnd(3)], rnd(4) == 0);
		if (fd < 0)
			continue;
		if (rnd(4) == 0) {	/* hand the fd to a child */
			count(C_FD_PASSED);
			child = fork();
			if (child == 0) {
				rw_some(fd, slot, 1 + rnd(8));
				_exit(0);
			}
			if (child > 0)
				waitpid(child, NULL, 0);
		} else {
			rw_some(fd, slot, 1 + rnd(8));
		}
		close(fd);
		if (rnd(8) == 0) {	/* our own memory, through our own file */
			fd = open_target(getpid(), O_RDWR, false);
			if (fd >= 0) {
				/* a read-only byte, rewritten with its value */
				const char *ro = counter_names[0];

				count(C_WRITE);
				if (pwrite(fd, ro, 1, (off_t)(uintptr_t)ro) <= 0)
					count(C_RW_FAILED);
				close(fd);
			}
		}
	}
}

/* ---- sysctls ---- */

/* sysctl_write(), counted */
static int sysctl_write_counted(const char *name, const char *value)
{
	int ret = sysctl_write(name, value);

	count(C_SYSCTL);
	return ret;
}

static void expect_write(const char *name, const char *value, int want)
{
	struct stat st;

	/* v3: force stays __ro_after_init, its sysctl is 0444: every write
	 * is refused at open (6.1's v2: writable) */
	if (!strcmp(name, "force") && !stat(SYS "force", &st) && !(st.st_mode & 0222))
		want = -EACCES;
	if (sysctl_write_counted(name, value) != want)
		atomic_fetch_add(&sh->sysctl_mismatch, 1);
}

/*
 * Raises every level to "never" in 12 steps spread over @seconds, leaves
 * permissive mode halfway, and between steps writes values that must be
 * refused.  It does not stop on the count bound: the climb is the point.
 */
static void changer(unsigned int seconds)
{
	/* force first, so that it is enforced at "never" while opens still pass */
	static const char *const ops[] = { "force", "write", "open_write", "open_read" };
	static const char *const levels[] = { "always", "self", "ptrace", "never" };
	static const char *const garbage[] = { "Never", "", "3", "never\n\n", "nev" };
	int level[4] = { 0, 0, 0, 0 }, step = 0;
	struct timespec t0, now;
	double per_step = seconds / 13.0;
	char buf[256], path[96];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!atomic_load(&sh->stop)) {
		double elapsed;
		int op, fd;

		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = (double)(now.tv_sec - t0.tv_sec) +
			  (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		op = (int)rnd(4);
		if (step < 12 && elapsed >= per_step * (step + 1)) {
			op = step % 4;
			level[op]++;
			expect_write(ops[op], levels[level[op]], 0);
			step++;
			if (step == 6)
				expect_write("permissive", "0", 0);
		} else if (level[op] > 0) {
			expect_write(ops[op], levels[rnd((unsigned int)level[op])], -EPERM);
		}
		expect_write(ops[op], garbage[rnd(5)], -EINVAL);
		/* a counter, one value per file, read while it moves */
		snprintf(path, sizeof(path), SYS "%s/%s",
			 rnd(2) ? "denied" : "would_deny", ops[op]);
		fd = open(path, O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
			atomic_fetch_add(&sh->sysctl_mismatch, 1);
		if (fd >= 0)
			close(fd);
		usleep(20000);
	}
}

/* ---- the enforcer's levels (procmem enforce) ---- */

static const char *procmem;	/* NULL: the series' sysctls */

/* `procmem enforce FLAG [--permissive]`: its exit status, -1 if none. */
static int enforce(const char *flag, bool permissive)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(procmem, procmem, "enforce", flag,
		      permissive ? "--permissive" : (char *)NULL, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	count(C_SYSCTL);
	return WEXITSTATUS(st);
}

/*
 * changer() for the enforcer: nine steps to "never" over @seconds,
 * permissive for the first four; between steps a bad level, which must be
 * refused as a usage error.  The enforcer may loosen, so no refusal there.
 */
static void enforcer_changer(unsigned int seconds)
{
	static const char *const ops[] = { "write", "open-write", "open-read" };
	static const char *const levels[] = { "always", "self", "ptrace", "never" };
	static const char *const garbage[] = { "", "nev", "never\n", "sometimes", "-1" };
	int level[3] = { 0, 0, 0 }, step = 0;
	double per_step = seconds / 10.0;
	struct timespec t0, now;
	char flag[64];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!atomic_load(&sh->stop)) {
		double elapsed;
		int op;

		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = (double)(now.tv_sec - t0.tv_sec) +
			  (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		if (step < 9 && elapsed >= per_step * (step + 1)) {
			op = step % 3;
			snprintf(flag, sizeof(flag), "--%s=%s", ops[op], levels[++level[op]]);
			if (enforce(flag, step < 4) != 0)
				atomic_fetch_add(&sh->sysctl_mismatch, 1);
			step++;
		}
		op = (int)rnd(3);
		snprintf(flag, sizeof(flag), "--%s=%s", ops[op], garbage[rnd(5)]);
		if (enforce(flag, false) != 2)
			atomic_fetch_add(&sh->sysctl_mismatch, 1);
		usleep(20000);
	}
}

/* ---- main ---- */

static pid_t spawn(int role, int arg, const char *shm, unsigned int seconds)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	seed = (unsigned int)getpid() * 2654435761u;
	switch (role) {
	case 0:
		supervisor(arg, shm);
	case 1:
		tracer();
		break;
	case 2:
		accessor();
		break;
	default:
		if (procmem)
			enforcer_changer(seconds);
		else
			changer(seconds);
		break;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	pid_t workers[TARGETS + TRACERS + ACCESSORS + 1];
	int n = 0, i, status, hung = 0, died = 0;
	unsigned int seconds;
	char shm[64];
	long maxops;
	time_t t0;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "--target")) {
		target(atoi(argv[2]), argv[3]);
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: stress SECONDS MAXOPS [PROCMEM]\n");
		return 2;
	}
	ksft_print_header();
	ksft_set_plan(1);
	procmem = argc == 4 ? argv[3] : NULL;
	seconds = (unsigned int)atoi(argv[1]);
	maxops = atol(argv[2]);
	snprintf(shm, sizeof(shm), "/dev/shm/stress.%d", (int)getpid());
	fd = open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, sizeof(*sh))) {
		perror(shm);
		return 2;
	}
	close(fd);
	map_shared(shm);
	signal(SIGPIPE, SIG_IGN);

	t0 = time(NULL);
	for (i = 0; i < TARGETS; i++)
		workers[n++] = spawn(0, i, shm, seconds);
	for (i = 0; i < TRACERS; i++)
		workers[n++] = spawn(1, 0, shm, seconds);
	for (i = 0; i < ACCESSORS; i++)
		workers[n++] = spawn(2, 0, shm, seconds);
	workers[n++] = spawn(3, 0, shm, seconds);
	while (time(NULL) - t0 < (time_t)seconds && total() < maxops)
		usleep(100000);
	atomic_store(&sh->stop, 1);

	/* 30 s for everybody to finish, then whoever is left is hung. */
	for (i = 0; i < n; i++) {
		int waited = 0;

		while (waitpid(workers[i], &status, WNOHANG) == 0) {
			if (waited++ >= 300) {
				kill(workers[i], SIGKILL);
				waitpid(workers[i], &status, 0);
				hung++;
				break;
			}
			usleep(100000);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			died++;
	}
	unlink(shm);

	printf("# stress: %ld operations in %ld s:", total(), (long)(time(NULL) - t0));
	for (i = 0; i < C_NR; i++)
		printf(" %s %ld%s", i == C_SYSCTL && procmem ? "procmem enforce runs" :
		       counter_names[i], atomic_load(&sh->count[i]),
		       i + 1 < C_NR ? "," : "\n");
	if (hung || died || atomic_load(&sh->sysctl_mismatch))
		ksft_test_result_fail("stress: %d workers hung, %d failed, %d sysctl writes "
				      "with an unexpected result\n", hung, died,
				      atomic_load(&sh->sysctl_mismatch));
	else
		ksft_test_result_pass("stress: %ld operations, every worker finished, sysctl "
				      "writes as expected\n", total());
	ksft_finished();
}
