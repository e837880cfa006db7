/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TESTS_SECCOMP_H
#define TESTS_SECCOMP_H

/*
 * Install a seccomp filter (after PR_SET_NO_NEW_PRIVS) that sends the
 * system call @nr to a user-notification listener and lets every other
 * through, as container managers' supervisors do: the listener's fd, or
 * -1 with errno set.
 */
int seccomp_listen(int nr);

#endif
