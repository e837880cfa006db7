/* wineserver's pattern: a server attaches with ptrace to one thread of a
 * process, not its leader, and writes the process's memory through
 * /proc/PID/mem (opened write-only for each write, as wineserver's
 * write_process_memory() does), while the leader lives.
 *
 * The target (a forked child) starts a worker thread and waits, its
 * leader alive.  We attach to the worker alone (PTRACE_ATTACH, and wait
 * for it to stop), check that the leader lives untraced, open
 * /proc/TARGET/mem (the leader's) write-only and write into the text of
 * the target's answer() code that returns 2 instead of 1, then detach.
 * The target then calls answer() and reports what it returned: the
 * visible effect.  A read-only (r-x) page: the write needs FOLL_FORCE,
 * which proc_mem.force_override=ptrace grants the active ptracer of a
 * task using the file's mm; upstream's rule asks for the tracer of the
 * file's own task (the leader), which we are not.  No fallback (wineserver
 * has none for this write): a refused open or write breaks it.
 * Prints "=> works: ..." or "=> breaks: ..." last. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "thread.h"

/* The code written over answer(): return 2. */
#if defined(__x86_64__)
static const unsigned char code[] = { 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3 }; /* mov $2,%eax; ret */
#elif defined(__aarch64__)
static const unsigned char code[] = { 0x40, 0x00, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6 }; /* mov w0,#2; ret */
#else
#error "wineserver.c: no code for this architecture"
#endif

__attribute__((noinline, aligned(16))) int answer(void)
{
	return 1;
}

/* Called through a volatile pointer: never inlined or folded. */
static int (*volatile call)(void) = answer;

static int ready[2], go[2], result[2];

int main(void)
{
	char path[64], why[160] = "";
	int fd, got = 0, lt, wt, st;
	pid_t target, tid;
	char c = 'x', ls;
	ssize_t w;

	if (pipe(ready) || pipe(go) || pipe(result))
		return 2;
	target = fork();
	if (target < 0)
		return 2;
	if (target == 0) {
		int v;

		if (start_sleeper(ready[1]))	/* the worker */
			_exit(1);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		v = call();
		printf("target: answer()=%d\n", v);
		fflush(stdout);
		if (write(result[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	if (read(ready[0], &tid, sizeof(tid)) != sizeof(tid))
		return 2;
	if (ptrace(PTRACE_ATTACH, tid, 0, 0) || waitpid(tid, &st, __WALL) != tid || !WIFSTOPPED(st)) {
		printf("=> breaks: PTRACE_ATTACH to the worker: %s\n", strerror(errno));
		kill(target, SIGKILL);
		return 0;
	}
	ls = task_state(target, target);
	lt = task_tracer(target, target);
	wt = task_tracer(target, tid);
	printf("leader state %c tracer %d; worker tracer %d (us %d)\n", ls, lt, wt, (int)getpid());
	if (ls == 'Z' || ls == '?' || lt != 0 || wt != (int)getpid()) {
		printf("=> error: want the leader alive and untraced, the worker traced by us\n");
		kill(target, SIGKILL);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)target);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", path, strerror(errno));
	} else {
		w = pwrite(fd, code, sizeof(code), (off_t)(uintptr_t)answer);
		if (w != (ssize_t)sizeof(code))
			snprintf(why, sizeof(why), "pwrite %s: %s", path,
				 w < 0 ? strerror(errno) : "short write");
		close(fd);
	}
	if (ptrace(PTRACE_DETACH, tid, 0, 0))
		printf("PTRACE_DETACH: %s\n", strerror(errno));
	if (write(go[1], &c, 1) != 1 || read(result[0], &got, sizeof(got)) != sizeof(got))
		got = 0;
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	if (got == 2)
		printf("=> works: the target's text patched through its mem file by a thread's tracer, leader alive (answer()=2)\n");
	else
		printf("=> breaks: %s (answer()=%d)\n", why[0] ? why : "no error", got);
	return 0;
}
