// SPDX-License-Identifier: GPL-2.0
/*
 * A process that holds a seccomp user-notification listener, as LXD,
 * Incus or a crun seccomp agent does, for procmem advise's tests: it
 * installs a filter sending getppid(2) to a listener it keeps itself,
 * prints "listening" and waits until killed.  It never calls getppid.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("listener: PR_SET_NO_NEW_PRIVS");
		return 1;
	}
	fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0) {
		perror("listener: seccomp");
		return 1;
	}
	printf("listening on fd %ld\n", fd);
	fflush(stdout);
	for (;;)
		pause();
}
