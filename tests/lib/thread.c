// SPDX-License-Identifier: GPL-2.0
/* Threads as the tracer tests want them: see thread.h. */
#include "thread.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (write((int)(intptr_t)arg, &tid, sizeof(tid)) != sizeof(tid))
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

int start_sleeper(int fd)
{
	pthread_t th;

	return pthread_create(&th, NULL, sleeper, (void *)(intptr_t)fd) ? -1 : 0;
}

char task_state(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

int task_tracer(pid_t pid, pid_t tid)
{
	char path[64], line[128];
	int t = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &t) == 1)
			break;
	fclose(f);
	return t;
}
