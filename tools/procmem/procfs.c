// SPDX-License-Identifier: GPL-2.0
/*
 * /proc readers that procmem scan and procmem advise share: a process's
 * comm, tracer and open files, and whether an open file is a mem file.
 */
#include "procmem.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PROC_MAGIC 0x9fa0

ssize_t pm_read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (ssize_t)n;
}

int pm_read_line(const char *path, char *buf, size_t n)
{
	if (pm_read_small(path, buf, n) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int pm_fd_each(int pid, int (*fn)(void *ctx, int fd, char *link), void *ctx)
{
	char path[64], link[PATH_MAX];
	struct dirent *e;
	DIR *fds;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fds = opendir(path);
	if (!fds)
		return -1;
	while ((e = readdir(fds))) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		n = readlinkat(dirfd(fds), e->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;	/* closed meanwhile */
		link[n] = '\0';
		if (fn(ctx, atoi(e->d_name), link))
			break;
	}
	closedir(fds);
	return 0;
}

void pm_read_comm(int pid, char *buf, size_t n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (pm_read_line(path, buf, n))
		snprintf(buf, n, "?");
}

int pm_tracer_of(int pid)
{
	char path[64], line[256];
	FILE *f;
	int t = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &t) == 1)
			break;
	fclose(f);
	return t;
}

int pm_fd_flags(int pid, int fd, unsigned long *flags)
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

int pm_mem_fd(int pid, int fd, char *link, int *target, int *task, int *gone)
{
	char path[96];
	struct statfs sf;

	if (!match_mem(link, target, task, gone))
		return 0;
	/* A file named mem elsewhere is not ours: it must be procfs. */
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	if (statfs(path, &sf) == 0 ? sf.f_type != PROC_MAGIC : strncmp(link, "/proc/", 6) != 0)
		return 0;
	return 1;
}

int pm_initial_pidns(void)
{
	char line[256];
	int n = 1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			n = 0;
			for (char *t = strtok(line + 6, " \t\n"); t; t = strtok(NULL, " \t\n"))
				n++;
			break;
		}
	fclose(f);
	return n == 1;
}
