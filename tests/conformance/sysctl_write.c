// SPDX-License-Identifier: GPL-2.0
/*
 * sysctl_write FILE VALUE: write VALUE (as given, no newline added) to
 * FILE in one write() and print "ok" or the errno's name.  Exit status:
 * 0 written, 1 the write failed, 2 usage or open failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: sysctl_write FILE VALUE\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno == EACCES ? "EACCES" : strerror(errno));
		return 2;
	}
	n = write(fd, argv[2], strlen(argv[2]));
	if (n >= 0) {
		printf("ok\n");
		return 0;
	}
	printf("%s\n", errno == EPERM ? "EPERM" : errno == EINVAL ? "EINVAL" :
	       errno == EACCES ? "EACCES" : strerror(errno));
	return 1;
}
