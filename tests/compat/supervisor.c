/* A seccomp user-notification supervisor, as container managers run one.
 * The child installs a filter that sends uname(2) to the supervisor and
 * passes it the listener fd over SCM_RIGHTS.  The child puts a request in
 * its buffer's nodename; the supervisor reads it through /proc/PID/mem,
 * writes back a struct utsname whose nodename answers it, and resumes the
 * child with success.  The child prints what uname gave it.
 * Last line: "=> works: ..." when the answer came through, else "=> breaks". */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scm.h"
#include "seccomp.h"

#define REQUEST "ask:container-7"
#define ANSWER "re:container-7"

static int child(int sock)
{
	struct utsname u;
	int listener = seccomp_listen(__NR_uname);

	if (listener < 0) {
		perror("child: seccomp");
		return 1;
	}
	send_fd(sock, listener);
	close(listener);
	memset(&u, 0, sizeof(u));
	strcpy(u.nodename, REQUEST);
	if (uname(&u)) {
		printf("child: uname: %s\n", strerror(errno));
		return 1;
	}
	printf("child: nodename=%s\n", u.nodename);
	return strcmp(u.nodename, ANSWER) != 0;
}

/* Serve one notification; return 0 if the memory round trip worked. */
static int serve(int listener, char *why, size_t whylen)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct utsname u;
	char path[64];
	int fd, rc = -1;

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req)) {
		snprintf(why, whylen, "NOTIF_RECV: %s", strerror(errno));
		return -1;
	}
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.error = -EPERM;
	snprintf(path, sizeof(path), "/proc/%u/mem", req.pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "open %s: %s", path, strerror(errno));
	} else if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id)) {
		snprintf(why, whylen, "notification went stale");
	} else if (pread(fd, &u, sizeof(u), (off_t)req.data.args[0]) != (ssize_t)sizeof(u)) {
		snprintf(why, whylen, "read: %s", strerror(errno));
	} else if (strcmp(u.nodename, REQUEST) != 0) {
		snprintf(why, whylen, "read the wrong request '%.20s'", u.nodename);
	} else {
		char name[sizeof(u.nodename)];

		memcpy(name, u.nodename + 4, sizeof(name) - 4);
		name[sizeof(name) - 4] = '\0';
		strcpy(u.sysname, "Linux");
		snprintf(u.nodename, sizeof(u.nodename), "re:%.60s", name);
		if (pwrite(fd, &u, sizeof(u), (off_t)req.data.args[0]) != (ssize_t)sizeof(u)) {
			snprintf(why, whylen, "write: %s", strerror(errno));
		} else {
			snprintf(why, whylen, "read '%s', wrote '%s'", REQUEST, u.nodename);
			resp.error = 0;
			rc = 0;
		}
	}
	if (fd >= 0)
		close(fd);
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
		snprintf(why, whylen, "NOTIF_SEND: %s", strerror(errno));
	return rc;
}

int main(void)
{
	char why[256] = "";
	int sv[2], st, listener;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		perror("supervisor: socketpair");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		_exit(child(sv[1]));
	}
	close(sv[1]);
	listener = recv_fd(sv[0]);
	if (listener < 0) {
		printf("=> breaks: no listener from the child\n");
		return 0;
	}
	serve(listener, why, sizeof(why));
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		printf("=> works: child got the supervisor's answer (%s)\n", why);
	else
		printf("=> breaks: %s\n", why);
	return 0;
}
