// SPDX-License-Identifier: GPL-2.0
/*
 * procmem-bench: what /proc/PID/mem costs a debugger.
 *
 *   procmem-bench run [-k NAME] [-s SCALE] [-r REPS] [-t TRACEES] [-c CASE]
 *       In a lab guest: fork a child, PTRACE_SEIZE and stop it, then time
 *       each case through the child's /proc/PID/mem as its tracer and
 *       print "case NAME ITERS REP NS" lines (one per repetition).  With
 *       -t, TRACEES - 1 more children are seized after the first, so the
 *       tracer traces TRACEES tasks and the first is the last of its list
 *       (ptrace links a new tracee at the head): what a tracer of a whole
 *       process tree, rr's case, pays for a test that walks the list.
 *   procmem-bench table [-i NS] [-n NOTES] [-x CONTROL] BASE:NEW:LABEL[:TARGET]...
 *       On the host: read result files and print Markdown tables of the
 *       NEW/BASE ratio of ns/op per case and configuration (column), with
 *       the notes that explain ratios over the target (1.01, or the
 *       column's TARGET); column CONTROL is two runs of one kernel; NS is
 *       the guest ns per instruction.
 *
 * Every access goes to a read-write page of the tracee, so each case works
 * at every level, FOLL_FORCE or not.  Under QEMU -icount the guest clock
 * counts instructions, so ns/op is a deterministic cost measure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KIB 1024UL
#define MIB (1024UL * KIB)
#define REGION (MIB + 4 * KIB)

static char region[REGION] __attribute__((aligned(4096)));	/* tracee's */
static char local[MIB] __attribute__((aligned(4096)));		/* ours */

struct ctx {
	pid_t pid;
	pid_t *more;		/* the other tracees (-t), 0-terminated */
	int fd;			/* the tracee's /proc/PID/mem, O_RDWR */
	char path[64];
	uintptr_t addr;		/* page-aligned, read-write in the tracee */
	int self_fd;		/* /proc/self/mem, O_RDWR, or -1 */
	int self_errno;		/* why self_fd is -1 */
};

static void die(const char *what)
{
	fprintf(stderr, "procmem-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * Each operation returns true when it did all it should; on false, errno
 * says why (a short transfer gives EIO).
 */
static bool full(ssize_t got, size_t want)
{
	if (got >= 0 && (size_t)got != want)
		errno = EIO;
	return got >= 0 && (size_t)got == want;
}

static bool op_pread(int fd, size_t len, uintptr_t addr)
{
	return full(pread(fd, local, len, (off_t)addr), len);
}

static bool op_pread1(const struct ctx *c) { return op_pread(c->fd, 1, c->addr); }
static bool op_pread4k(const struct ctx *c) { return op_pread(c->fd, 4 * KIB, c->addr); }
static bool op_pread1m(const struct ctx *c) { return op_pread(c->fd, MIB, c->addr); }

/* A debugger's look at a bad pointer: the page at 4 KiB is never mapped. */
static bool op_pread_bad(const struct ctx *c)
{
	if (pread(c->fd, local, 1, 4096) >= 0) {
		errno = EEXIST;
		return false;
	}
	return errno == EIO;
}

/* A breakpoint's write: one byte to a read-write page, so no FOLL_FORCE. */
static bool op_pwrite1(const struct ctx *c)
{
	return full(pwrite(c->fd, local, 1, (off_t)c->addr + 1), 1);
}

static bool open_close(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	return fd >= 0 && !close(fd);
}

static bool op_open_rw(const struct ctx *c) { return open_close(c->path, O_RDWR); }
static bool op_open_ro(const struct ctx *c) { return open_close(c->path, O_RDONLY); }

static bool op_pvr(const struct ctx *c, size_t len)
{
	struct iovec l = { local, len };
	struct iovec r = { (void *)c->addr, len };

	return full(process_vm_readv(c->pid, &l, 1, &r, 1, 0), len);
}

static bool op_pvr1(const struct ctx *c) { return op_pvr(c, 1); }
static bool op_pvr4k(const struct ctx *c) { return op_pvr(c, 4 * KIB); }
static bool op_pvr1m(const struct ctx *c) { return op_pvr(c, MIB); }

/* The accessor's own memory through /proc/self/mem (a JIT's pattern). */
static bool op_self_pread1(const struct ctx *c)
{
	if (c->self_fd < 0) {
		errno = c->self_errno;
		return false;
	}
	return op_pread(c->self_fd, 1, (uintptr_t)local);
}

static bool op_self_pwrite1(const struct ctx *c)
{
	if (c->self_fd < 0) {
		errno = c->self_errno;
		return false;
	}
	return full(pwrite(c->self_fd, local, 1, (off_t)(uintptr_t)local), 1);
}

/*
 * Iterations at scale 1 give each case some 20-100 ms of guest time, so the
 * 250 Hz tick is averaged over several periods.  Cases marked optional may
 * be refused by the policy (they are reported as skipped); the others must
 * work at every level.
 */
static const struct bench {
	const char *name;
	const char *what;
	bool (*op)(const struct ctx *);
	long iters;
	bool optional;
} benches[] = {
	{ "pread-1",       "pread 1 B (peek)",              op_pread1,       2000, false },
	{ "pwrite-1",      "pwrite 1 B (breakpoint)",       op_pwrite1,      2000, false },
	{ "pread-4k",      "pread 4 KiB",                   op_pread4k,      1000, false },
	{ "pread-1m",      "pread 1 MiB",                   op_pread1m,        10, false },
	{ "pread-bad",     "pread 1 B, unmapped (EIO)",     op_pread_bad,    2000, false },
	{ "open-close-rw", "open O_RDWR + close",           op_open_rw,       500, false },
	{ "open-close-ro", "open O_RDONLY + close",         op_open_ro,       500, false },
	{ "pvr-1",         "process_vm_readv 1 B (ref.)",   op_pvr1,         2000, false },
	{ "pvr-4k",        "process_vm_readv 4 KiB (ref.)", op_pvr4k,        1000, false },
	{ "pvr-1m",        "process_vm_readv 1 MiB (ref.)", op_pvr1m,          10, false },
	{ "self-pread-1",  "/proc/self/mem pread 1 B",      op_self_pread1,  2000, true },
	{ "self-pwrite-1", "/proc/self/mem pwrite 1 B",     op_self_pwrite1, 2000, true },
};
#define NBENCH (sizeof(benches) / sizeof(benches[0]))

static const struct bench *find_bench(const char *name)
{
	for (size_t i = 0; i < NBENCH; i++)
		if (!strcmp(benches[i].name, name))
			return &benches[i];
	return NULL;
}

static void print_policy(void);

static int64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The tracee: make its pages its own (no COW left), then wait forever. */
static void tracee(int ready)
{
	memset(region, 0x5a, sizeof(region));
	if (write(ready, "", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void start_tracee(struct ctx *c)
{
	int p[2], status;
	char b;

	if (pipe(p))
		die("pipe");
	c->pid = fork();
	if (c->pid < 0)
		die("fork");
	if (c->pid == 0) {
		close(p[0]);
		tracee(p[1]);
	}
	close(p[1]);
	if (read(p[0], &b, 1) != 1)
		die("tracee did not start");
	close(p[0]);
	/* what a debugger does: attach, stop the tracee, look at it */
	if (ptrace(PTRACE_SEIZE, c->pid, 0, 0))
		die("PTRACE_SEIZE");
	if (ptrace(PTRACE_INTERRUPT, c->pid, 0, 0))
		die("PTRACE_INTERRUPT");
	if (waitpid(c->pid, &status, __WALL) != c->pid || !WIFSTOPPED(status))
		die("waitpid for the ptrace stop");
	snprintf(c->path, sizeof(c->path), "/proc/%d/mem", (int)c->pid);
	c->fd = open(c->path, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		die(c->path);
	c->addr = (uintptr_t)region;
	c->self_fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	c->self_errno = errno;
}

/* n more tracees, seized after the first: the tracer's list grows. */
static void start_more(struct ctx *c, long n)
{
	c->more = calloc((size_t)n + 1, sizeof(*c->more));
	if (!c->more)
		die("calloc");
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (p == 0) {
			for (;;)
				pause();
		}
		c->more[i] = p;
		if (ptrace(PTRACE_SEIZE, p, 0, 0))
			die("PTRACE_SEIZE of another tracee");
	}
}

static void stop_tracee(const struct ctx *c)
{
	for (pid_t *p = c->more; p && *p; p++)
		kill(*p, SIGKILL);
	for (pid_t *p = c->more; p && *p; p++)
		waitpid(*p, NULL, __WALL);
	close(c->fd);
	if (c->self_fd >= 0)
		close(c->self_fd);
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, __WALL);
}

/* Print what the guest runs: kernel, proc_mem.* parameters, policy. */
static void print_config(const char *name)
{
	char line[4096], *save = NULL;
	struct utsname u;
	FILE *cf;

	if (uname(&u))
		die("uname");
	printf("kernel %s (%s %s)\n", name, u.release, u.version);
	printf("cmdline");
	cf = fopen("/proc/cmdline", "r");
	if (cf && fgets(line, sizeof(line), cf)) {
		for (char *w = strtok_r(line, " \n", &save); w;
		     w = strtok_r(NULL, " \n", &save))
			if (!strncmp(w, "proc_mem.", 9))
				printf(" %s", w);
	}
	if (cf)
		fclose(cf);
	printf("\n");
	print_policy();
}

/* Print the policy the guest kernel runs with, if it has the sysctls. */
static void print_policy(void)
{
	static const char *const ops[] = {
		"open_read", "open_write", "write", "force", "permissive"
	};
	char path[64], val[32];

	printf("policy");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/sys/kernel/proc_mem/%s",
			 ops[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f)) {
			val[strcspn(val, "\n")] = '\0';
			printf(" %s=%s", ops[i], val);
		}
		fclose(f);
	}
	printf("\n");
}

static int usage(void)
{
	fprintf(stderr,
		"usage: procmem-bench run [-k NAME] [-s SCALE] [-r REPS] [-t TRACEES] [-c CASE]...\n"
		"       procmem-bench table [-i NS] [-n NOTES] [-x CONTROL] BASE:NEW:LABEL[:TARGET]...\n"
		"       procmem-bench list\n");
	return 2;
}

static long parse_long(const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min) {
		fprintf(stderr, "procmem-bench: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static int cmd_run(int argc, char **argv)
{
	bool want[NBENCH] = { false };
	bool any = false;
	long scale = 1, reps = 3, tracees = 1;
	const char *name = "?";
	struct ctx c;
	int opt;

	while ((opt = getopt(argc, argv, "k:s:r:t:c:")) != -1) {
		const struct bench *b;

		switch (opt) {
		case 'k':
			name = optarg;
			break;
		case 's':
			scale = parse_long(optarg, 1);
			break;
		case 'r':
			reps = parse_long(optarg, 1);
			break;
		case 't':
			tracees = parse_long(optarg, 1);
			break;
		case 'c':
			b = find_bench(optarg);
			if (!b) {
				fprintf(stderr, "procmem-bench: no case '%s'\n",
					optarg);
				return 2;
			}
			want[b - benches] = any = true;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc)
		return usage();

	memset(local, 0xa5, sizeof(local));
	print_config(name);
	start_tracee(&c);
	start_more(&c, tracees - 1);
	printf("tracees %ld\n", tracees);
	for (size_t i = 0; i < NBENCH; i++) {
		const struct bench *b = &benches[i];
		long n = b->iters * scale;

		if (any && !want[i]) {
			printf("omit %s\n", b->name);
			continue;
		}
		/* warm up: fault in, break COW, fill caches */
		if (!b->op(&c)) {
			if (!b->optional)
				die(b->name);
			printf("skip %s %s\n", b->name, strerrorname_np(errno));
			continue;
		}
		for (long k = 0; k < n / 10; k++)
			if (!b->op(&c))
				die(b->name);
		for (long r = 0; r < reps; r++) {
			int64_t t0 = now_ns(), t1;

			for (long k = 0; k < n; k++)
				if (!b->op(&c))
					die(b->name);
			t1 = now_ns();
			printf("case %s %ld %ld %lld\n", b->name, n, r,
			       (long long)(t1 - t0));
		}
		fflush(stdout);
	}
	stop_tracee(&c);
	printf("done\n");
	return 0;
}

/* ---- host side: result files to Markdown ---- */

#define MAXREP 16
#define MAXCOL 12
#define TARGET 1.01

struct result {
	long iters;
	int nrep;
	double ns[MAXREP];	/* total ns of each repetition */
	char skip[32];		/* why an optional case did not run */
	bool omitted;		/* not asked for (run -c) */
};

struct run {
	char kernel[128];
	char cmdline[512];
	char policy[160];
	struct result res[NBENCH];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The repetitions' totals, sorted. */
static void sorted(const struct result *r, double *v)
{
	memcpy(v, r->ns, sizeof(r->ns));
	qsort(v, (size_t)r->nrep, sizeof(v[0]), cmp_double);
}

/* ns per operation: the median repetition; 0 if the case did not run */
static double per_op(const struct result *r)
{
	double v[MAXREP];

	if (!r->nrep)
		return 0;
	sorted(r, v);
	return v[r->nrep / 2] / (double)r->iters;
}

/* (max - min) / median of the repetitions */
static double spread(const struct result *r)
{
	double v[MAXREP];

	if (r->nrep < 2)
		return 0;
	sorted(r, v);
	return (v[r->nrep - 1] - v[0]) / v[r->nrep / 2];
}

/* copy src into dst[n], cut short if need be */
static void set(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);

	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

static void load(const char *file, struct run *run)
{
	char line[1024], name[64], why[32];
	FILE *f = fopen(file, "r");
	bool done = false;

	if (!f)
		die(file);
	memset(run, 0, sizeof(*run));
	while (fgets(line, sizeof(line), f)) {
		const struct bench *b;
		long n, rep;
		long long ns;

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "kernel ", 7)) {
			set(run->kernel, sizeof(run->kernel), line + 7);
		} else if (!strncmp(line, "cmdline", 7)) {
			set(run->cmdline, sizeof(run->cmdline),
			    line[7] ? line + 8 : "");
		} else if (!strncmp(line, "policy", 6)) {
			set(run->policy, sizeof(run->policy),
			    line[6] ? line + 7 : "");
		} else if (!strcmp(line, "done")) {
			done = true;
		} else if (sscanf(line, "omit %63s", name) == 1 &&
			   (b = find_bench(name))) {
			run->res[b - benches].omitted = true;
		} else if (sscanf(line, "skip %63s %31s", name, why) == 2 &&
			   (b = find_bench(name))) {
			set(run->res[b - benches].skip,
			    sizeof(run->res[0].skip), why);
		} else if (sscanf(line, "case %63s %ld %ld %lld", name, &n,
				  &rep, &ns) == 4 && (b = find_bench(name)) &&
			   n > 0) {
			struct result *r = &run->res[b - benches];

			if (r->nrep < MAXREP) {
				r->iters = n;
				r->ns[r->nrep++] = (double)ns;
			}
		}
	}
	fclose(f);
	for (size_t k = 0; done && k < NBENCH; k++)
		if (!run->res[k].nrep && !run->res[k].skip[0] &&
		    !run->res[k].omitted)
			done = false;
	if (!done) {
		fprintf(stderr, "procmem-bench: %s: incomplete run\n", file);
		exit(1);
	}
}

/* Is word in list, a comma-separated list or "*"? */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	if (!strcmp(list, "*"))
		return true;
	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, word, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

/*
 * Notes file: lines "LABELS CASES TEXT", each list comma-separated or "*";
 * '#' starts a comment.  The first line that matches explains the ratio.
 */
static const char *find_note(const char *notes, const char *label,
			     const char *name)
{
	static char text[2048];
	char line[2560], l[256], n[256];
	const char *found = NULL;
	FILE *f;
	int off;

	if (!notes)
		return NULL;
	f = fopen(notes, "r");
	if (!f)
		die(notes);
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' ||
		    sscanf(line, "%255s %255s %n", l, n, &off) < 2)
			continue;
		if (in_list(l, label) && in_list(n, name)) {
			set(text, sizeof(text), line + off);
			found = text;
		}
	}
	fclose(f);
	return found;
}

/* Was case k asked for in any column (not omitted by run -c)? */
static bool asked(const struct run *base, const struct run *new, int ncol,
		  size_t k)
{
	for (int i = 0; i < ncol; i++)
		if (!base[i].res[k].omitted || !new[i].res[k].omitted)
			return true;
	return false;
}

static void header(const char *const *label, int ncol)
{
	printf("| case |");
	for (int i = 0; i < ncol; i++)
		printf(" %s |", label[i]);
	printf("\n|---|");
	for (int i = 0; i < ncol; i++)
		printf("---:|");
	printf("\n");
}

static int cmd_table(int argc, char **argv)
{
	static struct run base[MAXCOL], new[MAXCOL];
	const char *label[MAXCOL], *notes = NULL;
	double target[MAXCOL];
	char *noted[MAXCOL * NBENCH];	/* distinct notes, numbered from 1 */
	int ncol, opt, nmiss = 0, nover = 0, nnote = 0, control = -1;
	double ns_per_insn = 0;
	double worst_spread = 0, worst_control = 0;
	bool policy = true;

	while ((opt = getopt(argc, argv, "i:n:x:")) != -1) {
		switch (opt) {
		case 'i':
			ns_per_insn = (double)parse_long(optarg, 1);
			break;
		case 'n':
			notes = optarg;
			break;
		case 'x':
			control = (int)parse_long(optarg, 1) - 1;
			break;
		default:
			return usage();
		}
	}
	ncol = argc - optind;
	if (ncol < 1 || ncol > MAXCOL || control >= ncol)
		return usage();
	for (int i = 0; i < ncol; i++) {
		char *save = NULL, *spec = argv[optind + i];
		const char *b = strtok_r(spec, ":", &save);
		const char *n = strtok_r(NULL, ":", &save);
		const char *tgt;

		label[i] = strtok_r(NULL, ":", &save);
		tgt = strtok_r(NULL, "", &save);
		if (!b || !n || !label[i])
			return usage();
		target[i] = tgt ? strtod(tgt, NULL) : TARGET;
		if (target[i] < 1 || target[i] > 2)
			return usage();
		load(b, &base[i]);
		load(n, &new[i]);
		/*
		 * the upstream submission alone, stock and Debian's own
		 * kernels have no sysctls to report
		 */
		if (i != control && !strstr(label[i], "upstream") &&
		    !strstr(label[i], "stock") && !strstr(label[i], "debian") &&
		    !new[i].policy[0])
			policy = false;
	}

	if (!policy)
		printf("**The new kernel reported no /proc/sys/kernel/proc_mem: "
		       "it does not carry the policy yet, so these ratios "
		       "only measure the method's noise.**\n\n");
	header(label, ncol);
	for (size_t k = 0; k < NBENCH; k++) {
		if (!asked(base, new, ncol, k))
			continue;
		printf("| %s |", benches[k].what);
		for (int i = 0; i < ncol; i++) {
			const struct result *rb = &base[i].res[k];
			const struct result *rn = &new[i].res[k];
			double b = per_op(rb), n = per_op(rn), ratio;
			const char *note;

			if (!b || !n) {
				printf(" %s%s |", rn->skip[0] ? "denied: " :
				       "n/a", rn->skip);
				continue;
			}
			ratio = n / b;
			if (spread(rb) > worst_spread)
				worst_spread = spread(rb);
			if (spread(rn) > worst_spread)
				worst_spread = spread(rn);
			if (i == control) {
				double off = ratio > 1 ? ratio - 1 : 1 - ratio;

				if (off > worst_control)
					worst_control = off;
				printf(" %.4f |", ratio);
				continue;
			}
			note = find_note(notes, label[i], benches[k].name);
			if (ratio <= target[i]) {
				printf(" %.3f |", ratio);
			} else if (note) {
				int j = 0;

				while (j < nnote && strcmp(noted[j], note))
					j++;
				if (j == nnote) {
					noted[nnote] = strdup(note);
					if (!noted[nnote++])
						die("strdup");
				}
				printf(" %.3f [%d] |", ratio, j + 1);
				nover++;
			} else {
				printf(" **%.3f MISS** |", ratio);
				nmiss++;
			}
		}
		printf("\n");
	}
	printf("\nTarget: at most %.3f", TARGET);
	for (int i = 0; i < ncol; i++)
		if (target[i] != TARGET)
			printf(", %.3f in column %s", target[i], label[i]);
	printf(".  Over it: %d explained below, %d unexplained (MISS).\n",
	       nover, nmiss);
	if (control >= 0)
		printf("Control (%s, two boots of the same kernel): largest "
		       "|ratio - 1| = %.3f%%.\n", label[control],
		       worst_control * 100);
	printf("Largest spread of the repetitions within one boot, "
	       "(max - min) / median: %.3f%%.\n", worst_spread * 100);
	for (int j = 0; j < nnote; j++) {
		printf("%s%d. %s\n", j ? "" : "\nExplanations:\n\n", j + 1,
		       noted[j]);
		free(noted[j]);
	}

	printf("\nGuest ns/op, base / new:\n\n");
	header(label, ncol);
	for (size_t k = 0; k < NBENCH; k++) {
		if (!asked(base, new, ncol, k))
			continue;
		printf("| %s |", benches[k].what);
		for (int i = 0; i < ncol; i++) {
			const struct result *rb = &base[i].res[k];
			const struct result *rn = &new[i].res[k];

			if (rb->nrep)
				printf(" %.0f", per_op(rb));
			else
				printf(" %s", rb->skip);
			if (rn->nrep)
				printf(" / %.0f |", per_op(rn));
			else
				printf(" / %s |", rn->skip);
		}
		printf("\n");
	}

	if (ns_per_insn > 0) {
		printf("\nGuest instructions per op added by the new kernel, "
		       "(new - base) / %.0f ns:\n\n", ns_per_insn);
		header(label, ncol);
		for (size_t k = 0; k < NBENCH; k++) {
			if (!asked(base, new, ncol, k))
				continue;
			printf("| %s |", benches[k].what);
			for (int i = 0; i < ncol; i++) {
				double b = per_op(&base[i].res[k]);
				double n = per_op(&new[i].res[k]);

				if (b && n)
					printf(" %+.0f |", (n - b) / ns_per_insn);
				else
					printf(" n/a |");
			}
			printf("\n");
		}
	}

	printf("\nKernels:\n\n");
	for (int i = 0; i < 2 * ncol; i++) {
		const char *k = i % 2 ? new[i / 2].kernel : base[i / 2].kernel;
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(k, j % 2 ? new[j / 2].kernel :
				       base[j / 2].kernel);
		if (!seen)
			printf("- %s\n", k);
	}
	printf("\nConfigurations: base `proc_mem.*` parameters; new "
	       "parameters, and the policy the new kernel's sysctls "
	       "reported.\n\n");
	for (int i = 0; i < ncol; i++)
		printf("- **%s**: `%s`; `%s`, policy: %s\n", label[i],
		       base[i].cmdline, new[i].cmdline, new[i].policy[0] ?
		       new[i].policy : "none (no sysctls)");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "table"))
		return cmd_table(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list")) {
		for (size_t i = 0; i < NBENCH; i++)
			printf("%s\t%s\n", benches[i].name, benches[i].what);
		return 0;
	}
	return usage();
}
