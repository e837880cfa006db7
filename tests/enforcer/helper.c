// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of tests/enforcer/guest.
 *
 *   enforcer_helper opens N     N opens and closes of /proc/PID/mem: by
 *                               turns /proc/self/mem read-only and a
 *                               child's mem write-only (the latter
 *                               refused at open_write=ptrace); exit 0
 *                               when every open gave what that level says
 *   enforcer_helper leader      the exited-leader rule: a tracer of a
 *                               non-leader thread opens /proc/PID/mem, the
 *                               leader exits (pthread_exit), the tracer
 *                               writes (must work at write=ptrace), detaches
 *                               and writes again (must fail with EACCES)
 *   enforcer_helper wineserver  wineserver's pattern: a tracer of one
 *                               non-leader thread only, the leader alive,
 *                               opens /proc/PID/mem (the leader's) and
 *                               writes (must work at ptrace: the tracer
 *                               of any task on the file's mm); then it
 *                               traces a task on another mm too and writes
 *                               (must work: the walk passes that tracee),
 *                               detaches the thread and writes again, a
 *                               tracer of the other mm only (must fail
 *                               with EACCES)
 *   enforcer_helper load SECONDS  for SECONDS, four workers open
 *                               /proc/PID/mem files and write through
 *                               them: the target's own, as its tracer,
 *                               as neither; prints "attempts: opens N
 *                               writes N", the opens of mem files and
 *                               the writes through open ones, each of
 *                               which the enforcer must count once
 *   enforcer_helper macro N DIR  N runs of tar cf of DIR into a tmpfs
 *                               file; prints "case tar_tmpfs NS CPU-NS"
 *                               (the tar processes' CPU time per run)
 *   enforcer_helper badlevels   writes levels 7, 255 and 4, which the
 *                               programs do not know, into the machine's
 *                               levels of the pinned policy map, as root
 *                               could without procmem
 *   enforcer_helper bench N [OBJ] | bench --cgroup DIR N
 *                               N of each: write(2) of 1 byte to /dev/null,
 *                               pread(2) of 1 byte of a tmpfs file,
 *                               open+close of /proc/CHILD/mem and pwrite
 *                               of 1 byte through it, as CHILD's tracer;
 *                               prints "case NAME NS-PER-OP CPU-NS-PER-OP"
 *                               (CLOCK_MONOTONIC: under QEMU -icount,
 *                               instructions of every vCPU; and
 *                               CLOCK_THREAD_CPUTIME_ID: this thread's);
 *                               with OBJ, a BPF object whose programs
 *                               are attached for the bench's duration;
 *                               with --cgroup, first moves itself into
 *                               the cgroup-v2 directory DIR (its child
 *                               is forked there too), prints "cgroup
 *                               PATH", its cgroup as /proc/self/cgroup
 *                               names it, and idles half a second before
 *                               the first case (see bench()); a failed
 *                               operation is named on stderr ("bench:
 *                               mem_write: ...")
 *   enforcer_helper btf-rename IN OUT NAME...  writes OUT, a copy of the
 *                               BTF IN (raw or ELF) in which each NAME
 *                               (STRUCT.FIELD: that member, else the
 *                               function or struct of that name) is
 *                               spelt with an x in front: a kernel's BTF
 *                               lacking it, for PROCMEM_BTF
 *   enforcer_helper links       the names of the programs attached by
 *                               BPF LSM links, one a line (whoever holds
 *                               the link: a pin or a process's fd)
 *   enforcer_helper foreign-link OBJ PATH  attaches OBJ's first program
 *                               (an LSM one) and pins its link at PATH
 *   enforcer_helper selfopen N  N opens of /proc/self/mem (read-only) in
 *                               this one process: one target
 *   enforcer_helper victim N PID  N opens of /proc/self/mem, then one of
 *                               /proc/PID/mem
 *   enforcer_helper subuids N   as uid 1000, a user namespace mapping
 *                               uids 100000-165535 (written by this
 *                               root parent, as newuidmap would); in it
 *                               one process takes N of those uids in
 *                               turn, each opening /proc/self/mem once
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "enforcer.h"
#include "sysctl.h"
#include "thread.h"

static volatile unsigned char var = 1;

static int opens(long n)
{
	char path[64];
	pid_t child = fork();
	long bad = 0;

	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	for (long i = 0; i < n; i++) {
		int self = i % 2 == 0;
		int fd = open(self ? "/proc/self/mem" : path, self ? O_RDONLY : O_WRONLY);

		if (self ? fd < 0 : fd >= 0 || errno != EACCES)
			bad++;
		if (fd >= 0)
			close(fd);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (bad)
		fprintf(stderr, "%ld of %ld opens not as expected\n", bad, n);
	return bad != 0;
}

static int ready[2], go[2];

/* PTRACE_DETACH needs the tracee stopped. */
static int detach(pid_t tid)
{
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) || waitpid(tid, NULL, __WALL) != tid ||
	    ptrace(PTRACE_DETACH, tid, 0, 0)) {
		perror("PTRACE_DETACH");
		return -1;
	}
	return 0;
}

static int leader(void)
{
	unsigned char b = 0x5a;
	pid_t child, tid;
	char path[64];
	int fd, rc = 0;
	ssize_t w;

	if (pipe(ready) || pipe(go))
		return 2;
	child = fork();
	if (child == 0) {
		char c;

		if (start_sleeper(ready[1]))
			_exit(1);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pthread_exit(NULL);
	}
	if (read(ready[0], &tid, sizeof(tid)) != sizeof(tid))
		return 2;
	if (ptrace(PTRACE_SEIZE, tid, 0, 0)) {
		perror("PTRACE_SEIZE");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	if (write(go[1], "x", 1) != 1)
		return 2;
	for (int i = 0; i < 500 && task_state(child, child) != 'Z'; i++)
		usleep(10000);
	if (task_state(child, child) != 'Z') {
		fprintf(stderr, "the leader did not exit\n");
		return 2;
	}
	w = pwrite(fd, &b, 1, (off_t)(uintptr_t)&var);
	if (w != 1) {
		fprintf(stderr, "tracer of thread %d, leader exited: write %s, want success\n",
			(int)tid, strerror(errno));
		rc = 1;
	}
	if (detach(tid))
		return 2;
	w = pwrite(fd, &b, 1, (off_t)(uintptr_t)&var);
	if (w >= 0 || errno != EACCES) {
		fprintf(stderr, "after detaching: write %s, want EACCES\n",
			w >= 0 ? "succeeded" : strerror(errno));
		rc = 1;
	}
	close(fd);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return rc;
}

/*
 * wineserver attaches to one thread of a process, not necessarily its
 * leader, and reads and writes the process through /proc/PID/mem while
 * the leader lives: the tracer test passes for the tracer of any task
 * that uses the file's mm.  A tracer of a task on another mm only does
 * not pass.
 */
static int wineserver(void)
{
	unsigned char b = 0x5a;
	pid_t child, other, tid;
	char path[64];
	int fd = -1, rc = 0;
	ssize_t w;

	if (pipe(ready))
		return 2;
	child = fork();
	if (child == 0) {
		if (start_sleeper(ready[1]))
			_exit(1);
		for (;;)
			pause();
	}
	other = fork();
	if (other == 0) {
		for (;;)
			pause();
	}
	if (child < 0 || other < 0 || read(ready[0], &tid, sizeof(tid)) != sizeof(tid)) {
		rc = 2;
		goto out;
	}
	if (ptrace(PTRACE_SEIZE, tid, 0, 0)) {
		perror("PTRACE_SEIZE");
		rc = 2;
		goto out;
	}
	if (task_tracer(child, child) != 0 || task_tracer(child, tid) != (int)getpid() ||
	    task_state(child, child) == 'Z') {
		fprintf(stderr, "want the leader %d alive and untraced, thread %d traced by us\n",
			(int)child, (int)tid);
		rc = 2;
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "tracer of thread %d, leader alive: open %s: %s, want success\n",
			(int)tid, path, strerror(errno));
		rc = 1;
		goto out;
	}
	w = pwrite(fd, &b, 1, (off_t)(uintptr_t)&var);
	if (w != 1) {
		fprintf(stderr, "tracer of thread %d, leader alive: write %s, want success\n",
			(int)tid, w >= 0 ? "short" : strerror(errno));
		rc = 1;
	}
	/* Another tracee, on another mm, first on our list of tracees. */
	if (ptrace(PTRACE_SEIZE, other, 0, 0)) {
		perror("PTRACE_SEIZE");
		rc = 2;
		goto out;
	}
	w = pwrite(fd, &b, 1, (off_t)(uintptr_t)&var);
	if (w != 1) {
		fprintf(stderr, "tracer of thread %d and of process %d: write %s, want success\n",
			(int)tid, (int)other, w >= 0 ? "short" : strerror(errno));
		rc = 1;
	}
	if (detach(tid)) {
		rc = 2;
		goto out;
	}
	w = pwrite(fd, &b, 1, (off_t)(uintptr_t)&var);
	if (w >= 0 || errno != EACCES) {
		fprintf(stderr, "tracer of process %d (another mm) only: write %s, want EACCES\n",
			(int)other, w >= 0 ? "succeeded" : strerror(errno));
		rc = 1;
	}
out:
	if (fd >= 0)
		close(fd);
	if (child > 0)
		kill(child, SIGKILL);
	if (other > 0)
		kill(other, SIGKILL);
	/* Both, and a thread still traced (its zombie is ours to reap). */
	while (waitpid(-1, NULL, __WALL) > 0)
		;
	return rc;
}

/*
 * One worker of load(): opens (O_RDONLY, O_WRONLY, O_RDWR in turn) and,
 * when the open is allowed, one pwrite; *opens and *writes count the
 * attempts.  @path NULL: /proc/self/mem.
 */
static void worker(const char *path, time_t end, long *opens, long *writes)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	unsigned char b = 1;

	for (long i = 0; time(NULL) < end; i++) {
		int mode = modes[i % 3];
		int fd = open(path ? path : "/proc/self/mem", mode);

		++*opens;
		if (fd < 0)
			continue;
		if (mode != O_RDONLY) {
			++*writes;
			if (pwrite(fd, &b, 1, (off_t)(uintptr_t)&var) < 0 && errno != EACCES)
				fprintf(stderr, "pwrite: %s\n", strerror(errno));
		}
		close(fd);
	}
}

static int load(int secs)
{
	long res[2], opens = 0, writes = 0;
	time_t end = time(NULL) + secs;
	pid_t target, w[4];
	char path[64];
	int fds[2], rc = 0;

	target = fork();
	if (target == 0) {
		for (;;)
			pause();
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)target);
	if (pipe(fds))
		return 2;
	for (int k = 0; k < 4; k++) {
		w[k] = fork();
		if (w[k] == 0) {
			res[0] = res[1] = 0;
			/* 0, 1: own mem; 2: the target's tracer; 3: neither */
			if (k == 2 && (ptrace(PTRACE_SEIZE, target, 0, 0) ||
				       ptrace(PTRACE_INTERRUPT, target, 0, 0) ||
				       waitpid(target, NULL, __WALL) != target))
				_exit(2);
			worker(k < 2 ? NULL : path, end, &res[0], &res[1]);
			if (write(fds[1], res, sizeof(res)) != sizeof(res))
				_exit(2);
			_exit(0);
		}
	}
	for (int k = 0; k < 4; k++) {
		int st;

		if (read(fds[0], res, sizeof(res)) != sizeof(res))
			rc = 2;
		opens += res[0];
		writes += res[1];
		if (waitpid(w[k], &st, 0) != w[k] || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 2;
	}
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	printf("attempts: opens %ld writes %ld\n", opens, writes);
	return rc;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long c0;

static long long start(void)
{
	c0 = cpu_ns();
	return now_ns();
}

static void report(const char *name, long long t0, long n)
{
	long long t = now_ns(), c = cpu_ns();

	printf("case %-12s %8.1f %8.1f ns/op\n", name, (double)(t - t0) / (double)n,
	       (double)(c - c0) / (double)n);
}

/* A failed operation of bench(), named. */
static int bench_fail(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	return 2;
}

/*
 * @settle: idle half a second before the first case, so that the work
 * the move to another cgroup and the last process's exit leave to RCU
 * callbacks (run at the exit of an interrupt, counted to whatever task
 * it interrupted) is done while the CPU idles, not counted against the
 * first case: without it, the first case (20000 writes to /dev/null) of
 * runs next to each other, in the same cgroups, differed by up to 3%
 * under -icount; with it, by 0.2%.
 */
static int bench(long n, int settle)
{
	static unsigned char page[4096] __attribute__((aligned(4096)));
	char path[64], tmp[] = "/tmp/enforcer-bench-XXXXXX", c = 0;
	int null = open("/dev/null", O_WRONLY), tfd = mkstemp(tmp), fd;
	pid_t child;
	long long t0;

	if (null < 0 || tfd < 0 || write(tfd, "x", 1) != 1)
		return bench_fail("/dev/null or a tmpfs file");
	unlink(tmp);
	child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	if (ptrace(PTRACE_SEIZE, child, 0, 0) || ptrace(PTRACE_INTERRUPT, child, 0, 0) ||
	    waitpid(child, NULL, 0) != child)
		return bench_fail("ptrace");
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	if (settle)
		usleep(500000);

	t0 = start();
	for (long i = 0; i < n; i++)
		if (write(null, &c, 1) != 1)
			return bench_fail("devnull_write");
	report("devnull_write", t0, n);
	t0 = start();
	for (long i = 0; i < n; i++)
		if (pread(tfd, &c, 1, 0) != 1)
			return bench_fail("tmpfs_read");
	report("tmpfs_read", t0, n);
	t0 = start();
	for (long i = 0; i < n / 10; i++) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			return bench_fail("mem_open");
		close(fd);
	}
	report("mem_open", t0, n / 10);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return bench_fail("mem_open");
	t0 = start();
	for (long i = 0; i < n / 10; i++)
		if (pwrite(fd, &c, 1, (off_t)(uintptr_t)page) != 1)
			return bench_fail("mem_write");
	report("mem_write", t0, n / 10);
	close(fd);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}

/*
 * A workload a user knows: N tar runs of @dir (a copy of a source tree
 * on tmpfs) into a tmpfs file; the CPU time of the tar processes (user
 * and system, from wait4) per run.
 */
static int macro(long n, const char *dir)
{
	long long t0 = now_ns(), cpu = 0;

	for (long i = 0; i < n; i++) {
		struct rusage ru;
		int status;
		pid_t child = fork();

		if (child == 0) {
			execl("/bin/tar", "tar", "cf", "/tmp/enforcer-bench.tar", "-C", dir, ".",
			      (char *)NULL);
			_exit(127);
		}
		if (child < 0 || wait4(child, &status, 0, &ru) != child ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			return 2;
		cpu += (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
	}
	unlink("/tmp/enforcer-bench.tar");
	printf("case %-12s %8.1f %8.1f ns/op\n", "tar_tmpfs", (double)(now_ns() - t0) / (double)n,
	       (double)cpu / (double)n);
	return 0;
}

/*
 * Moves this process into the cgroup-v2 directory @dir and prints
 * "cgroup PATH", the path /proc/self/cgroup then gives (its "0::" line).
 */
static int enter_cgroup(const char *dir)
{
	char path[4096], line[4096];
	int found = 0, err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	err = write_file(path, 0, "0\n");
	if (err) {
		fprintf(stderr, "enforcer_helper: %s: %s\n", path, strerror(-err));
		return 2;
	}
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			printf("cgroup %s", line + 3);
			found = 1;
		}
	if (f)
		fclose(f);
	if (!found) {
		fprintf(stderr, "enforcer_helper: no cgroup-v2 line in /proc/self/cgroup\n");
		return 2;
	}
	fflush(stdout);
	return 0;
}

/* bench N with the programs of the BPF object @path attached. */
static int bench_with(long n, const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_link *links[8];
	struct bpf_program *prog;
	int nlinks = 0, ret = 2;

	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "enforcer_helper: cannot load %s\n", path);
		bpf_object__close(obj);
		return 2;
	}
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *link = nlinks < 8 ? bpf_program__attach(prog) : NULL;

		if (!link) {
			fprintf(stderr, "enforcer_helper: cannot attach %s\n",
				bpf_program__name(prog));
			goto out;
		}
		links[nlinks++] = link;
	}
	ret = bench(n, 0);
out:
	while (nlinks > 0)
		bpf_link__destroy(links[--nlinks]);
	bpf_object__close(obj);
	return ret;
}

static int badlevels(void)
{
	static struct pm_policy p;
	int fd = bpf_obj_get("/sys/fs/bpf/procmem/policy");
	__u32 zero = 0;

	if (fd < 0 || bpf_map_lookup_elem(fd, &zero, &p)) {
		perror("policy map");
		return 1;
	}
	p.machine.level[0] = 7;
	p.machine.level[1] = 255;
	p.machine.level[2] = 4;
	p.gen++;
	if (bpf_map_update_elem(fd, &zero, &p, BPF_ANY)) {
		perror("policy map update");
		return 1;
	}
	return 0;
}

/* Renames @name (STRUCT.FIELD, or a FUNC or STRUCT) in @btf: "x" in front. */
static int btf_rename_one(struct btf *btf, const char *name)
{
	const char *dot = strchr(name, '.');
	char type[128], x[130];
	__s32 id;
	int off;

	snprintf(type, sizeof(type), "%.*s", dot ? (int)(dot - name) : (int)strlen(name), name);
	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (!dot && id <= 0)
		id = btf__find_by_name_kind(btf, type, BTF_KIND_FUNC);
	if (id <= 0) {
		fprintf(stderr, "btf-rename: no %s\n", type);
		return -1;
	}
	snprintf(x, sizeof(x), "x%s", dot ? dot + 1 : type);
	off = btf__add_str(btf, x);	/* before the pointers: it may move the types */
	if (off < 0)
		return -1;
	/* The types are libbpf's copy once btf__add_str made the BTF writable. */
	struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, (__u32)id);

	if (!dot) {
		t->name_off = (__u32)off;
		return 0;
	}
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), dot + 1)) {
			btf_members(t)[i].name_off = (__u32)off;
			return 0;
		}
	fprintf(stderr, "btf-rename: struct %s has no member %s\n", type, dot + 1);
	return -1;
}

static int btf_rename(const char *in, const char *out, char **names, int n)
{
	struct btf *btf = btf__parse(in, NULL);
	const void *raw;
	__u32 size;
	FILE *f;

	if (!btf) {
		perror(in);
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (btf_rename_one(btf, names[i]))
			return 1;
	raw = btf__raw_data(btf, &size);
	f = fopen(out, "w");
	if (!raw || !f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		perror(out);
		return 1;
	}
	btf__free(btf);
	return 0;
}

static int links(void)
{
	__u32 id = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info li;
		struct bpf_prog_info pi;
		__u32 len = sizeof(li), plen = sizeof(pi);
		int fd = bpf_link_get_fd_by_id(id), pfd;

		if (fd < 0)
			continue;
		memset(&li, 0, sizeof(li));
		if (!bpf_obj_get_info_by_fd(fd, &li, &len) && li.type == BPF_LINK_TYPE_TRACING &&
		    li.tracing.attach_type == BPF_LSM_MAC) {
			pfd = bpf_prog_get_fd_by_id(li.prog_id);
			memset(&pi, 0, sizeof(pi));
			if (pfd >= 0 && !bpf_obj_get_info_by_fd(pfd, &pi, &plen))
				printf("%s\n", pi.name);
			if (pfd >= 0)
				close(pfd);
		}
		close(fd);
	}
	return 0;
}

static int foreign_link(const char *file, const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(file, NULL);
	struct bpf_program *prog;
	struct bpf_link *link;

	if (!obj || bpf_object__load(obj)) {
		perror(file);
		return 1;
	}
	prog = bpf_object__next_program(obj, NULL);
	link = prog ? bpf_program__attach_lsm(prog) : NULL;
	if (!link || bpf_link__pin(link, path)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int selfopen(long n)
{
	for (long i = 0; i < n; i++) {
		int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);

		if (fd >= 0)
			close(fd);
	}
	return 0;
}

static int victim(long n, const char *pid)
{
	char path[64];
	int fd;

	selfopen(n);
	snprintf(path, sizeof(path), "/proc/%s/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd >= 0;		/* 0: refused, as the test wants */
}

static int subuids(long n)
{
	int up[2], down[2], st;
	char c = 0, path[64];
	pid_t pid;

	if (pipe(up) || pipe(down))
		return 1;
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ||
		    unshare(CLONE_NEWUSER) || write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1 ||
		    setresgid(0, 0, 0) || setresuid(0, 0, 0)) {
			perror("subuids: user namespace");
			_exit(1);
		}
		for (long i = 1; i <= n; i++) {
			int fd;

			/* real and effective uid i, saved 0: back to 0 for the next */
			/* dumpable again, or /proc/self/mem is not this uid's */
			if (setresuid((uid_t)i, (uid_t)i, 0) || prctl(PR_SET_DUMPABLE, 1)) {
				perror("setresuid");
				_exit(1);
			}
			fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
			if (fd >= 0)
				close(fd);
			if (setresuid((uid_t)-1, 0, (uid_t)-1) || setresuid(0, 0, 0)) {
				perror("setresuid back");
				_exit(1);
			}
		}
		_exit(0);
	}
	if (pid < 0 || read(up[0], &c, 1) != 1)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	if (write_file(path, 0, "0 100000 65536\n"))
		perror(path);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	if (write_file(path, 0, "0 100000 65536\n"))
		perror(path);
	if (write(down[1], &c, 1) != 1 || waitpid(pid, &st, 0) != pid)
		return 1;
	return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "links"))
		return links();
	if (argc == 4 && !strcmp(argv[1], "foreign-link"))
		return foreign_link(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "selfopen"))
		return selfopen(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "victim"))
		return victim(atol(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "subuids"))
		return subuids(atol(argv[2]));
	if (argc >= 5 && !strcmp(argv[1], "btf-rename"))
		return btf_rename(argv[2], argv[3], argv + 4, argc - 4);
	if (argc == 2 && !strcmp(argv[1], "badlevels"))
		return badlevels();
	if (argc == 4 && !strcmp(argv[1], "macro"))
		return macro(atol(argv[2]), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "bench") && !strcmp(argv[2], "--cgroup"))
		return enter_cgroup(argv[3]) ? 2 : bench(atol(argv[4]), 1);
	if (argc == 3 && !strcmp(argv[1], "bench"))
		return bench(atol(argv[2]), 0);
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return bench_with(atol(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "load"))
		return load(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "opens"))
		return opens(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "leader"))
		return leader();
	if (argc == 2 && !strcmp(argv[1], "wineserver"))
		return wineserver();
	fprintf(stderr, "usage: enforcer_helper opens N | leader | wineserver | load SECONDS | bench N [OBJ] | bench --cgroup DIR N | btf-rename IN OUT NAME... | links | foreign-link OBJ PATH | selfopen N | victim N PID | subuids N\n");
	return 2;
}
