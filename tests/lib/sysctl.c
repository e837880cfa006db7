// SPDX-License-Identifier: GPL-2.0
/* Writing a sysctl (or any one-value file) as the tests do: see sysctl.h. */
#include "sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *const pm_op_names[PM_NR_OPS] = {
	"open_read", "open_write", "write", "force",
};

int write_file(const char *path, int flags, const char *value)
{
	size_t len = strlen(value);
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

int sysctl_write(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PM_SYS "%s", name);
	return write_file(path, 0, value);
}

int sysctl_read(const char *name, char *buf, size_t size)
{
	char path[128];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), PM_SYS "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		buf[0] = '\0';
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
