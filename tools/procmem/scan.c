// SPDX-License-Identifier: GPL-2.0
/*
 * procmem scan: which processes hold a /proc/PID/mem file open now.
 * Walks /proc/N/fd, matches link targets .../P/mem and .../P/task/T/mem
 * on a procfs, reads the access mode from /proc/N/fdinfo/FD.  Processes
 * whose fds we may not read are counted and listed, not skipped.
 */
#include "procmem.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PROC_MAGIC 0x9fa0
#define MAX_LISTED 50

struct holder {
	int pid, fd, target, task;	/* task: -1 for /proc/P/mem */
	int gone;			/* link says "(deleted)" */
	int foreign;			/* on another procfs mount: the pid
					 * may be of another pid namespace */
	char comm[64], tcomm[64], mode[4];
	unsigned long flags;
};

static int all_digits(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Matches ".../P/mem" or ".../P/task/T/mem"; fills target and task. */
static int match_mem(char *path, int *target, int *task, int *gone)
{
	static const char deleted[] = " (deleted)";
	const char *comp[5] = { NULL };
	size_t len[5] = { 0 }, n = strlen(path), dl = strlen(deleted);
	int k = 0;

	*gone = 0;
	if (n > dl && !strcmp(path + n - dl, deleted)) {
		path[n - dl] = '\0';
		*gone = 1;
	}
	/* The last five path components, last first. */
	for (char *end = path + strlen(path); end > path && k < 5;) {
		char *start = end;

		while (start > path && start[-1] != '/')
			start--;
		comp[k] = start;
		len[k++] = (size_t)(end - start);
		end = start > path ? start - 1 : path;
	}
	if (k < 2 || len[0] != 3 || strncmp(comp[0], "mem", 3))
		return 0;
	if (k >= 4 && len[2] == 4 && !strncmp(comp[2], "task", 4) &&
	    all_digits(comp[1], len[1]) && all_digits(comp[3], len[3])) {
		*target = atoi(comp[3]);
		*task = atoi(comp[1]);
		return 1;
	}
	if (all_digits(comp[1], len[1])) {
		*target = atoi(comp[1]);
		*task = -1;
		return 1;
	}
	return 0;
}

static void read_comm(int pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	snprintf(buf, size, "?");
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The fd's open flags from fdinfo; 0 and -1 if unreadable. */
static int read_flags(int pid, int fd, unsigned long *flags)
{
	char path[64], line[128];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	*flags = 0;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %lo", flags) == 1) {
			found = 0;
			break;
		}
	fclose(f);
	return found;
}

static void scan_pid(int pid, struct holder **h, size_t *nh, size_t *cap,
		     DIR *fds, dev_t proc_dev)
{
	struct dirent *e;

	while ((e = readdir(fds))) {
		char link[4096], path[96];
		struct holder x;
		struct statfs sf;
		struct stat st;
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		n = readlinkat(dirfd(fds), e->d_name, link, sizeof(link) - 1);
		if (n < 0)
			continue;	/* closed meanwhile */
		link[n] = '\0';
		memset(&x, 0, sizeof(x));
		if (!match_mem(link, &x.target, &x.task, &x.gone))
			continue;
		/* A file named mem elsewhere is not ours: it must be procfs. */
		x.fd = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, x.fd);
		if (statfs(path, &sf) == 0 ? sf.f_type != PROC_MAGIC :
		    strncmp(link, "/proc/", 6) != 0)
			continue;
		x.pid = pid;
		x.foreign = stat(path, &st) == 0 && st.st_dev != proc_dev;
		read_comm(pid, x.comm, sizeof(x.comm));
		if (x.gone)
			snprintf(x.tcomm, sizeof(x.tcomm), "(exited)");
		else if (x.foreign)
			snprintf(x.tcomm, sizeof(x.tcomm), "(other procfs mount)");
		else
			read_comm(x.task > 0 ? x.task : x.target, x.tcomm, sizeof(x.tcomm));
		if (read_flags(pid, x.fd, &x.flags) < 0)
			snprintf(x.mode, sizeof(x.mode), "?");
		else
			snprintf(x.mode, sizeof(x.mode), "%s",
				 (x.flags & O_ACCMODE) == O_RDONLY ? "r" :
				 (x.flags & O_ACCMODE) == O_WRONLY ? "w" : "rw");
		if (*nh == *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			struct holder *nhp = realloc(*h, ncap * sizeof(**h));

			if (!nhp)
				return;
			*h = nhp;
			*cap = ncap;
		}
		(*h)[(*nh)++] = x;
	}
}

int cmd_scan(int json)
{
	struct holder *h = NULL;
	size_t nh = 0, cap = 0;
	int scanned = 0, ndenied = 0, gone = 0, rc;
	int denied[MAX_LISTED], denied_err = 0;
	struct dirent *e;
	struct stat st;
	DIR *proc = opendir("/proc");

	if (!proc) {
		fprintf(stderr, "procmem: cannot read /proc: %s\n", strerror(errno));
		return EXIT_NORUN;
	}
	if (stat("/proc/self", &st) < 0) {
		fprintf(stderr, "procmem: cannot stat /proc/self: %s\n", strerror(errno));
		closedir(proc);
		return EXIT_NORUN;
	}
	while ((e = readdir(proc))) {
		char path[64];
		int pid;
		DIR *fds;

		if (!all_digits(e->d_name, strlen(e->d_name)))
			continue;
		pid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds) {
			if (errno == ENOENT || errno == ESRCH) {
				gone++;
				continue;
			}
			if (ndenied < MAX_LISTED)
				denied[ndenied] = pid;
			ndenied++;
			denied_err = errno;
			continue;
		}
		scanned++;
		scan_pid(pid, &h, &nh, &cap, fds, st.st_dev);
		closedir(fds);
	}
	closedir(proc);
	rc = ndenied ? EXIT_FINDING : EXIT_OK;

	if (json) {
		printf("{\n  \"command\": \"scan\",\n  \"holders\": [");
		for (size_t i = 0; i < nh; i++) {
			printf("%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", h[i].pid);
			json_str(stdout, h[i].comm);
			printf(", \"fd\": %d, \"mode\": \"%s\", \"flags\": \"0%lo\", \"target\": %d, ",
			       h[i].fd, h[i].mode, h[i].flags, h[i].target);
			if (h[i].task > 0)
				printf("\"task\": %d, ", h[i].task);
			else
				printf("\"task\": null, ");
			printf("\"target_comm\": ");
			json_str(stdout, h[i].gone || h[i].foreign ? NULL : h[i].tcomm);
			printf(", \"target_exited\": %s, \"other_procfs\": %s}",
			       h[i].gone ? "true" : "false", h[i].foreign ? "true" : "false");
		}
		printf("%s],\n  \"scanned\": %d,\n  \"exited_during_scan\": %d,\n",
		       nh ? "\n  " : "", scanned, gone);
		printf("  \"not_inspected\": {\"count\": %d, \"error\": ", ndenied);
		json_str(stdout, ndenied ? strerror(denied_err) : NULL);
		printf(", \"pids\": [");
		for (int i = 0; i < ndenied && i < MAX_LISTED; i++)
			printf("%s%d", i ? ", " : "", denied[i]);
		printf("]},\n  \"exit\": %d\n}\n", rc);
	} else {
		if (nh)
			printf("%-7s %-16s %-4s %-4s %-7s %s\n", "PID", "COMM", "FD",
			       "MODE", "TARGET", "TARGET_COMM");
		for (size_t i = 0; i < nh; i++) {
			char target[32];

			if (h[i].task > 0)
				snprintf(target, sizeof(target), "%d/%d", h[i].target, h[i].task);
			else
				snprintf(target, sizeof(target), "%d", h[i].target);
			printf("%-7d %-16s %-4d %-4s %-7s %s\n", h[i].pid, h[i].comm,
			       h[i].fd, h[i].mode, target, h[i].tcomm);
		}
		printf("%zu open /proc/PID/mem file%s; %d process%s inspected",
		       nh, nh == 1 ? "" : "s", scanned, scanned == 1 ? "" : "es");
		if (gone)
			printf(", %d exited during the scan", gone);
		printf("\n");
		if (ndenied) {
			printf("not inspected: %d process%s (%s):", ndenied,
			       ndenied == 1 ? "" : "es", strerror(denied_err));
			for (int i = 0; i < ndenied && i < MAX_LISTED; i++)
				printf(" %d", denied[i]);
			printf("%s\n", ndenied > MAX_LISTED ? " ..." : "");
		}
	}
	free(h);
	return rc;
}
