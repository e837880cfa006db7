/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TESTS_SYSCTL_H
#define TESTS_SYSCTL_H

#include <stddef.h>

/* The policy's sysctls: PM_SYS "open_read", ..., "denied/OP", ... */
#define PM_SYS "/proc/sys/kernel/proc_mem/"

/* The policy's operations, in the order of its sysctls. */
#define PM_NR_OPS 4
extern const char *const pm_op_names[PM_NR_OPS];	/* "open_read", ... */

/*
 * Write @value to @path in one write(), no newline added, opened
 * O_WRONLY | O_CLOEXEC | @flags (O_TRUNC: tracefs's "trace" is cleared
 * so): 0, -errno, or -EIO for a short write.
 */
int write_file(const char *path, int flags, const char *value);

/* The same, to the sysctl PM_SYS @name ("write", "permissive", ...). */
int sysctl_write(const char *name, const char *value);

/*
 * Read the sysctl PM_SYS @name into @buf (@size bytes at most, with the
 * NUL), without its newline: 0, or -errno (@buf then "").
 */
int sysctl_read(const char *name, char *buf, size_t size);

#endif
