/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TESTS_DENIALS_H
#define TESTS_DENIALS_H

#include "sysctl.h"	/* PM_SYS, PM_NR_OPS, pm_op_names */

/*
 * The kernel's denial counters, one value per file: c[0][op] from
 * PM_SYS "denied/OP", c[1][op] from PM_SYS "would_deny/OP", op in the
 * order of pm_op_names.  0, or -1 if a file is missing or does not hold
 * one decimal number and a newline.
 */
int read_denials(long long c[2][PM_NR_OPS]);

#endif
