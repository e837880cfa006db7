/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conformance table of /proc/PID/mem: the outcome of every operation
 * by every accessor, for each policy (one operation at one level, every
 * other operation at "always").  Indexed by enums, as the series' own
 * kselftest (tools/testing/selftests/proc/proc-mem-policy.c) indexes its
 * expected[], so that a misspelt operation or level is a compile error,
 * not a row that is never found.
 *
 * Included by tests/conformance/mem_conformance.c, which holds running
 * kernels and the BPF LSM enforcer to it, and by
 * tests/reliability/model_table.c, which holds the model of the policy
 * (tests/reliability/model.c) to every cell in make check, without a
 * guest.
 *
 * Outcomes: '+' success (the data read or written is right), 'A' EACCES,
 * 'I' EIO, '0' 0 bytes (end of file), '-' not applicable.
 */
#ifndef CONFORMANCE_EXPECT_H
#define CONFORMANCE_EXPECT_H

#include <stdbool.h>
#include <string.h>

/* The policy's operations and levels, as the sysctls name them. */
enum policy_op { PM_OPEN_READ, PM_OPEN_WRITE, PM_WRITE, PM_FORCE, NR_POLICY_OPS };
enum policy_level { PM_ALWAYS, PM_SELF, PM_PTRACE, PM_NEVER, NR_LEVELS };

enum accessor {
	SELF, TRACER, PARENT, INHERIT, OTHERUID, DEPUTY, TRACERFD, NR_ACCESSORS
};
enum operation {
	OPEN_RO,	/* open O_RDONLY */
	OPEN_RW,	/* open O_RDWR */
	RD_RW,		/* read a read-write page */
	WR_RW,		/* write a read-write page */
	RD_NONE,	/* read a PROT_NONE page */
	WR_RO,		/* write a read-only page */
	WR_TEXT,	/* write the target's read-only executable text */
	WR_DETACH,	/* tracer: open while attached, detach, write text */
	WR_EXEC,	/* tracer: open while attached, the target execs, write */
	WR_EXIT,	/* tracer: open while attached, the target exits, write */
	RD_UNMAPPED,	/* read an address no mapping covers */
	WR_UNMAPPED,	/* write an address no mapping covers */
	NR_OPERATIONS
};

static const char *const policy_op_names[NR_POLICY_OPS] = {
	"open_read", "open_write", "write", "force",
};

static const char *const level_names[NR_LEVELS] = {
	"always", "self", "ptrace", "never",
};

static const char *const accessor_names[NR_ACCESSORS] = {
	"self", "tracer", "parent", "inherit", "otheruid", "deputy", "tracerfd",
};

static const char *const operation_names[NR_OPERATIONS] = {
	"open_ro", "open_rw", "rd_rw", "wr_rw", "rd_none", "wr_ro", "wr_text",
	"wr_detach", "wr_exec", "wr_exit", "rd_unmapped", "wr_unmapped",
};

/*
 * expected[op][level][accessor][operation]: the outcome of @operation by
 * @accessor when the policy operation @op is at @level.  Accessors:
 * self      the target on /proc/self/mem;
 * tracer    its active ptracer (PTRACE_SEIZE), same uid;
 * parent    its same-uid parent, not attached;
 * inherit   its child, through fds the target opened on /proc/self/mem;
 * otheruid  a process of another uid (the ptrace access check refuses it);
 * deputy    the target itself, through an fd that its same-uid parent (not
 *           a tracer) opened on /proc/TARGET/mem with the operation's flags
 *           and handed to it over SCM_RIGHTS;
 * tracerfd  the same, but the fd was opened by the target's active ptracer
 *           (PTRACE_SEIZE, left running and attached).
 * Each string holds the operations in enum order:
 *   open_ro open_rw rd_rw wr_rw rd_none wr_ro wr_text wr_detach wr_exec wr_exit
 *   rd_unmapped wr_unmapped
 * (a string two or more outcomes too long does not compile; one too long
 * or too short, or a missing accessor, fails tests/reliability/model_table
 * in make check).
 *
 * deputy: the open is the parent's, so the open_* rows are the parent's
 * (open_read/open_write at self, ptrace and never refuse it).  The access
 * is the target's, on its own mm, but `self` counts the opener, not only
 * the writer: the fd was opened by a task that neither used the target's
 * mm nor traced it, so write=self refuses every write ('A' on wr_rw,
 * wr_ro, wr_text) and force=self adds no FOLL_FORCE ('I' on rd_none,
 * wr_ro, wr_text), exactly as if the parent had accessed directly; at
 * ptrace and never the target is not its own tracer: refused as well.
 * So the deputy column is the parent column, row by row: handing the fd
 * to the target gains nothing (v1 let the deputy's writes through at
 * write=self and force=self).
 * tracerfd: the open is the tracer's (the tracer column); the access is
 * the target's, on its own mm, through an fd its tracer opened: `self`
 * admits it (write=self, force=self: '+'), `ptrace` does not (the target
 * is not its own tracer), so at ptrace and never it is refused like the
 * deputy.
 * wr_detach, wr_exec and wr_exit apply to the tracer only.  wr_exec and
 * wr_exit write through a tracer's fd whose target exec'd or exited: its
 * mm is gone, so there is nothing to decide and stock's answer holds at
 * every level: 0 bytes ('0', end of file: gdb takes it for "the process
 * is gone"), and no denial counted; only the open can be refused.
 * rd_unmapped and wr_unmapped access an address below mmap_min_addr, which
 * no mapping covers: EIO at every level, as on a stock kernel, where the
 * open and the write level let the access happen ('A' where they refuse
 * it).  FOLL_FORCE would not have cured it, so it is no force denial and
 * nothing is counted.  Counting, in general: an outcome that differs from
 * the "always" row's is one denial of the operation whose level is set
 * (expect_denial()); an equal one is none.
 * A stock kernel has no `self`
 * level; its force_override=always|ptrace|never are held to the force
 * rows like ours.
 */
static const char expected[NR_POLICY_OPS][NR_LEVELS][NR_ACCESSORS][NR_OPERATIONS + 1] = {
	/*  level           self            tracer          parent          inherit         otheruid        deputy          tracerfd */
	[PM_OPEN_READ] = {
		[PM_ALWAYS] = { "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" },
		[PM_SELF]   = { "+++++++---II", "++++++++00II", "AAA+A++---AI", "+++++++---II", "AAAAAAA---AA", "AAA+A++---AI", "+++++++---II" },
		[PM_PTRACE] = { "AAA+A++---AI", "++++++++00II", "AAA+A++---AI", "AAA+A++---AI", "AAAAAAA---AA", "AAA+A++---AI", "+++++++---II" },
		[PM_NEVER]  = { "AAA+A++---AI", "AAA+A+++00AI", "AAA+A++---AI", "AAA+A++---AI", "AAAAAAA---AA", "AAA+A++---AI", "AAA+A++---AI" },
	},
	[PM_OPEN_WRITE] = {
		[PM_ALWAYS] = { "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" },
		[PM_SELF]   = { "+++++++---II", "++++++++00II", "+A+A+AA---IA", "+++++++---II", "AAAAAAA---AA", "+A+A+AA---IA", "+++++++---II" },
		[PM_PTRACE] = { "+A+A+AA---IA", "++++++++00II", "+A+A+AA---IA", "+A+A+AA---IA", "AAAAAAA---AA", "+A+A+AA---IA", "+++++++---II" },
		[PM_NEVER]  = { "+A+A+AA---IA", "+A+A+AAAAAIA", "+A+A+AA---IA", "+A+A+AA---IA", "AAAAAAA---AA", "+A+A+AA---IA", "+A+A+AA---IA" },
	},
	[PM_WRITE] = {
		[PM_ALWAYS] = { "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" },
		[PM_SELF]   = { "+++++++---II", "+++++++A00II", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++++++---II" },
		[PM_PTRACE] = { "+++A+AA---IA", "+++++++A00II", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++A+AA---IA" },
		[PM_NEVER]  = { "+++A+AA---IA", "+++A+AAA00IA", "+++A+AA---IA", "+++A+AA---IA", "AAAAAAA---AA", "+++A+AA---IA", "+++A+AA---IA" },
	},
	[PM_FORCE] = {
		[PM_ALWAYS] = { "+++++++---II", "++++++++00II", "+++++++---II", "+++++++---II", "AAAAAAA---AA", "+++++++---II", "+++++++---II" },
		[PM_SELF]   = { "+++++++---II", "+++++++I00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "+++++++---II" },
		[PM_PTRACE] = { "++++III---II", "+++++++I00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "++++III---II" },
		[PM_NEVER]  = { "++++III---II", "++++IIII00II", "++++III---II", "++++III---II", "AAAAAAA---AA", "++++III---II", "++++III---II" },
	},
};

/* The index of @name in @names[0..n-1], or -1. */
static inline int expect_index(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/*
 * Whether @operation by @accessor is one denial of @op at @level: refused
 * ('A' or 'I') where "always" does otherwise.
 */
static inline bool expect_denial(enum policy_op op, enum policy_level level,
				 enum accessor acc, enum operation operation)
{
	char c = expected[op][level][acc][operation];

	return (c == 'A' || c == 'I') && c != expected[op][PM_ALWAYS][acc][operation];
}

#endif
