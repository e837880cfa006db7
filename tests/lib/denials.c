// SPDX-License-Identifier: GPL-2.0
/* Reading the kernel's denial counters: see denials.h. */
#include "denials.h"
#include "sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int read_denials(long long c[2][PM_NR_OPS])
{
	char path[128], buf[32], *end;
	int k, op;

	for (k = 0; k < 2; k++)
		for (op = 0; op < PM_NR_OPS; op++) {
			ssize_t n;
			int fd;

			snprintf(path, sizeof(path), PM_SYS "%s/%s",
				 k ? "would_deny" : "denied", pm_op_names[op]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return -1;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n < 0)
				return -1;
			buf[n] = '\0';
			errno = 0;
			c[k][op] = strtoll(buf, &end, 10);
			if (errno || end == buf || strcmp(end, "\n"))
				return -1;
		}
	return 0;
}
