/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TESTS_THREAD_H
#define TESTS_THREAD_H

#include <sys/types.h>

/*
 * Start a thread that writes its tid (a pid_t) to @fd, for whoever reads
 * the other end of that pipe (often another process: the thread is in a
 * forked target), then sleeps until the process ends: 0, or -1.
 */
int start_sleeper(int fd);

/* The state letter of /proc/PID/task/TID/stat ('Z' once exited), or '?'. */
char task_state(pid_t pid, pid_t tid);

/* The TracerPid of /proc/PID/task/TID/status (0: none), or -1. */
int task_tracer(pid_t pid, pid_t tid);

#endif
