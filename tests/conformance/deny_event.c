// SPDX-License-Identifier: GPL-2.0
/*
 * deny_event: the tracepoint proc_mem:proc_mem_deny and the log line, in
 * a patched guest booted with proc_mem.permissive=1,
 * proc_mem.force_override=never (v3's force is read-only at runtime) and
 * every other level at "always".  Run as root; mounts tracefs if needed.
 *
 * Each row of rows[] makes one denial: an accessor running as uid 65534
 * under a comm of the row's choosing forks the target (comm "pm_victim",
 * same uid), attaches to it or not, and writes one byte of it through
 * /proc/TARGET/mem.  The event is enabled in three places: the top buffer
 * with a filter on every field, equal to what the row expects (op, level,
 * permissive, target_pid, target_comm, pid, uid, comm, tracer; and where
 * the event has them (v3), tgid, tid, fsuid, target_tgid, target_tid, with
 * op and level as the enum numbers the format declares), which must
 * record exactly one event; an instance with the same filter but "tracer"
 * the other way, which must record none; and an instance without filter,
 * whose records are shown.  A filter naming a field the event lacks is
 * refused by the kernel: that fails too.
 *
 * The last row's comm is "x\nproc_mem: fak" (what PR_SET_NAME keeps of
 * "x\nproc_mem: fake"): its dmesg line must stay one line, so that no line
 * of the kernel log starts with "proc_mem: fak".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "expect.h"	/* the names of the policy's operations and levels */
#include "sysctl.h"

#define TRACEFS	"/sys/kernel/tracing"
#define EVENT	"events/proc_mem/proc_mem_deny"
#define SYS	PM_SYS
#define NOBODY	65534
#define FORGED	"x\nproc_mem: fake"

static const struct row {
	const char *what;
	const char *op, *level;	/* raised before the row */
	bool leave_permissive;	/* write 0 to SYS "permissive" before */
	bool tracer;		/* the accessor attaches (PTRACE_SEIZE) first */
	bool ro;		/* write the read-only page, else the rw one */
	const char *comm;	/* the accessor's */
	int want_errno;		/* of its write */
	const char *ev_op, *ev_level;	/* the event's op and level */
	int ev_permissive;
	bool in_filter_comm;	/* comm goes into the filter */
} rows[] = {
	{ "permissive, write=ptrace, a non-tracer writes", "write", "ptrace",
	  false, false, false, "pm_writer", 0, "write", "ptrace", 1, true },
	{ "enforcing, force=never, the tracer writes read-only memory", "force", "never",
	  true, true, true, "pm_tracer", EIO, "force", "never", 0, true },
	{ "enforcing, write=ptrace, a non-tracer named \"x\\nproc_mem: fake\" writes",
	  NULL, NULL, false, false, false, FORGED, EACCES, "write", "ptrace", 0, false },
};

/* One TAP line (kselftest.h): "WHAT: " and @fmt with @detail. */
static void tap(bool ok, const char *fmt, const char *what, const char *detail)
{
	char line[4096];

	snprintf(line, sizeof(line), fmt, detail);
	ksft_test_result(ok, "%s: %s\n", what, line);
}

/* proc_mem_deny records in a trace file; its lines shown if @show. */
static int records(const char *path, bool show)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int count = 0;

	if (!f)
		return -1;
	/*
	 * A record whose comm holds a newline spans lines: count the event's
	 * name, which a comm (15 bytes) cannot hold with the leading space.
	 */
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#') {
			count += !!strstr(line, " proc_mem_deny: ");
			if (show)
				printf("# %s", line);
		}
	fclose(f);
	return count;
}

/* Set up the event in the three buffers: 0, or a reason in @why. */
static int arm(const char *filter, const char *flipped, char *why, size_t size)
{
	static const char *const dirs[] = {
		TRACEFS, TRACEFS "/instances/pm_neg", TRACEFS "/instances/pm_all"
	};
	const char *filters[] = { filter, flipped, "0" };
	char path[256];

	for (int i = 0; i < 3; i++) {
		int err;

		snprintf(path, sizeof(path), "%s/" EVENT "/enable", dirs[i]);
		write_file(path, O_TRUNC, "0");
		snprintf(path, sizeof(path), "%s/trace", dirs[i]);
		if ((err = write_file(path, O_TRUNC, "")) != 0) {
			snprintf(why, size, "clearing %s: %s", path, strerror(-err));
			return -1;
		}
		snprintf(path, sizeof(path), "%s/" EVENT "/filter", dirs[i]);
		if ((err = write_file(path, O_TRUNC, filters[i])) != 0) {
			snprintf(why, size, "the kernel refused the filter '%s' (%s): a field missing?",
				 filters[i], strerror(-err));
			return -1;
		}
		snprintf(path, sizeof(path), "%s/" EVENT "/enable", dirs[i]);
		if ((err = write_file(path, O_TRUNC, "1")) != 0) {
			snprintf(why, size, "enabling %s: %s", path, strerror(-err));
			return -1;
		}
	}
	return 0;
}

static void xread(int fd, void *buf, size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		_exit(3);
}

/*
 * The accessor: as uid 65534, named @r->comm, forks the target, tells the
 * parent both pids on @up, waits for a byte on @down, writes, reports errno.
 */
static _Noreturn void accessor(const struct row *r, int up, int down)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	unsigned char *page, byte = 0x5a;
	int ready[2], fd, err = 0;
	pid_t pids[2], target;
	char path[64], c;

	if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1) || prctl(PR_SET_NAME, r->comm) || pipe(ready))
		_exit(3);
	page = mmap(NULL, 2 * pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || mprotect(page + pagesz, pagesz, PROT_READ))
		_exit(3);
	target = fork();
	if (target == 0) {
		if (prctl(PR_SET_NAME, "pm_victim") || write(ready[1], "", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	xread(ready[0], &c, 1);
	if (r->tracer && ptrace(PTRACE_SEIZE, target, 0, 0))
		_exit(4);
	pids[0] = getpid();
	pids[1] = target;
	if (write(up, pids, sizeof(pids)) != sizeof(pids))
		_exit(3);
	xread(down, &c, 1);
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)target);
	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, &byte, 1, (off_t)(uintptr_t)(page + (r->ro ? pagesz : 0))) != 1)
		err = errno;
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	if (write(up, &err, sizeof(err)) != sizeof(err))
		_exit(3);
	_exit(0);
}

/* The kernel log (syslog(2) form: a prefix on every line). */
static char *kernel_log(void)
{
	int size = klogctl(10, NULL, 0), len;
	char *buf;

	if (size <= 0)
		size = 1 << 20;
	buf = calloc(1, (size_t)size + 1);
	if (!buf)
		return NULL;
	len = klogctl(3, buf, size);
	if (len < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* The dmesg line of the forged-comm denial, and no forged line. */
static void check_log(const char *what, pid_t acc, pid_t target)
{
	char *log = kernel_log(), *line, *save = NULL, want[96], detail[512] = "";
	bool whole = false, forged = false;

	if (!log) {
		tap(false, "%s", what, "cannot read the kernel log");
		return;
	}
	snprintf(want, sizeof(want), "/proc/%d/mem (pm_victim) by %d (", (int)target, (int)acc);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *text = line;

		/* syslog(2) prefixes every line with "<L>[ seconds] " */
		if (*text == '<')
			text = strchr(text, '>') ? strchr(text, '>') + 1 : text;
		if (*text == '[')
			text = strchr(text, ']') ? strchr(text, ']') + 1 : text;
		text += strspn(text, " ");
		if (strstr(text, want) && strstr(text, "): write=ptrace")) {
			whole = true;
			snprintf(detail, sizeof(detail), "%s", text);
		}
		if (!strncmp(text, "proc_mem: fak", 13)) {
			forged = true;
			printf("# forged: %s\n", line);
		}
	}
	free(log);
	tap(whole, "the denial's log line is whole: '%s'", what,
	    whole ? detail : "(no line names the accessor and ends '): write=ptrace')");
	tap(!forged, "%s", "no kernel log line starts with \"proc_mem: fak\" (forged by the comm)",
	    forged ? "forged" : "none");
}

static void run_row(const struct row *r)
{
	int up[2], down[2], err = -1, status;
	char filter[1024] = "", flipped[1024] = "", why[1200] = "", detail[1200];
	pid_t pids[2], acc;
	int got, neg;

	if (r->leave_permissive && sysctl_write("permissive", "0")) {
		tap(false, "%s", r->what, "cannot leave permissive mode");
		return;
	}
	if (r->op) {
		char now[32];

		sysctl_read(r->op, now, sizeof(now));
		/* already there from boot (force, read-only in v3) */
		if (strcmp(now, r->level) && sysctl_write(r->op, r->level)) {
			tap(false, "cannot set the level %s", r->what, r->level);
			return;
		}
	}
	if (pipe(up) || pipe(down))
		exit(2);
	acc = fork();
	if (acc == 0)
		accessor(r, up[1], down[0]);
	if (read(up[0], pids, sizeof(pids)) != sizeof(pids)) {
		tap(false, "%s", r->what, "the accessor did not start");
		waitpid(acc, NULL, 0);
		return;
	}
	for (int flip = 0; flip < 2; flip++) {
		char *fl = flip ? flipped : filter;
		int len;

		/* op and level are enums; the ids are there to join on */
		len = snprintf(fl, sizeof(filter),
			       "op == %d && level == %d && permissive == %d && "
			       "target_pid == %d && target_comm == \"pm_victim\" && "
			       "pid == %d && uid == %d && tracer == %d && "
			       "tgid == %d && tid == %d && fsuid == %d && "
			       "target_tgid == %d && target_tid == %d",
			       expect_index(policy_op_names, NR_POLICY_OPS, r->ev_op),
			       expect_index(level_names, NR_LEVELS, r->ev_level),
			       r->ev_permissive, (int)pids[1], (int)pids[0], NOBODY,
			       r->tracer ^ flip, (int)pids[0], (int)pids[0], NOBODY,
			       (int)pids[1], (int)pids[1]);

		if (r->in_filter_comm)
			snprintf((flip ? flipped : filter) + len, sizeof(filter) - (size_t)len,
				 " && comm == \"%s\"", r->comm);
	}
	if (arm(filter, flipped, why, sizeof(why))) {
		tap(false, "%s", r->what, why);
		kill(acc, SIGKILL);
		waitpid(acc, NULL, 0);
		return;
	}
	if (write(down[1], "", 1) != 1 || read(up[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	waitpid(acc, &status, 0);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	snprintf(detail, sizeof(detail), "errno %d (%s), want %d", err,
		 err > 0 ? strerror(err) : "-", r->want_errno);
	tap(err == r->want_errno, "the write: %s", r->what, detail);

	got = records(TRACEFS "/trace", false);
	neg = records(TRACEFS "/instances/pm_neg/trace", false);
	records(TRACEFS "/instances/pm_all/trace", true);
	snprintf(detail, sizeof(detail), "%d record(s) with %s", got, filter);
	tap(got == 1, "one event with every field as expected: %s", r->what, detail);
	snprintf(detail, sizeof(detail), "%d record(s) with tracer == %d", neg, !r->tracer);
	tap(neg == 0, "%s", r->what, detail);
	if (!r->in_filter_comm)
		check_log(r->what, pids[0], pids[1]);
}

int main(void)
{
	struct stat sb;

	ksft_print_header();
	ksft_set_plan(3 * sizeof(rows) / sizeof(rows[0]) + 2);
	if (stat(TRACEFS "/events", &sb) &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL)) {
		char why[128];

		snprintf(why, sizeof(why), "cannot mount tracefs on " TRACEFS ": %s",
			 strerror(errno));
		tap(false, "%s", "tracefs", why);
		ksft_finished();
	}
	if (stat(TRACEFS "/" EVENT, &sb)) {
		tap(false, "%s", "the tracepoint", "no " TRACEFS "/" EVENT);
		ksft_finished();
	}
	if ((mkdir(TRACEFS "/instances/pm_neg", 0755) && errno != EEXIST) ||
	    (mkdir(TRACEFS "/instances/pm_all", 0755) && errno != EEXIST)) {
		tap(false, "%s", "tracefs instances", strerror(errno));
		ksft_finished();
	}
	if (prctl(PR_SET_NAME, "deny_event"))
		return 2;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		run_row(&rows[i]);
	ksft_finished();
}
