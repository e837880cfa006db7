/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the /proc/PID/mem policy of docs/interface.md, in plain C,
 * written from that text alone (not from fs/proc/mem_policy.c), so that a
 * random differential test can hold the kernel to it.
 */
#ifndef RELIABILITY_MODEL_H
#define RELIABILITY_MODEL_H

#include <stdbool.h>

enum m_op { M_OPEN_READ, M_OPEN_WRITE, M_WRITE, M_FORCE, M_NR_OPS };
enum m_level { M_ALWAYS, M_SELF, M_PTRACE, M_NEVER, M_NR_LEVELS };

/* Who accesses the target, and how the descriptor came to be. */
enum m_rel {
	R_SELF,		/* the target on /proc/self/mem */
	R_TRACER,	/* its active ptracer opens and accesses */
	R_PARENT,	/* its same-uid parent, not attached */
	R_INHERIT,	/* its child, through an fd the target opened on itself */
	R_DETACHED,	/* the ptracer opened while attached, accesses after detach */
	R_EXECED,	/* the ptracer opened, the target then exec'd */
	R_DEPUTY,	/* the target, through an fd its parent opened and sent */
	R_TRACERFD,	/* the target, through an fd its ptracer opened and sent (the conformance table's names) */
	R_OTHERUID,	/* a process of another uid (the ptrace check refuses) */
	R_NR
};

enum m_mode { MODE_RDONLY, MODE_WRONLY, MODE_RDWR, MODE_NR };
enum m_access { ACC_NONE, ACC_READ, ACC_WRITE, ACC_NR };

/*
 * The page accessed.  "may write" is false only for the shared mapping.
 * P_NR counts the pages difftest maps; P_UNMAPPED, after it, is an
 * address no mapping covers (the conformance table's rd_unmapped and
 * wr_unmapped, which tests/reliability/model_table asks).
 */
enum m_prot { P_RW, P_RO, P_NONE, P_RX, P_SHARED_RO, P_NR, P_UNMAPPED };

/* Outcome of one case. */
enum m_result {
	RES_OK,		/* open (and access) succeeded, data as expected */
	RES_OPEN_EACCES,
	RES_EACCES,	/* the access failed with EACCES */
	RES_EIO,
	RES_EBADF,	/* access not allowed by the fd's mode (VFS) */
	RES_EOF,	/* the address space is gone: 0 bytes */
	RES_NR
};

struct m_state {
	enum m_level level[M_NR_OPS];
	bool permissive;
	long denied[M_NR_OPS], would[M_NR_OPS];
};

struct m_case {
	enum m_rel rel;
	enum m_mode mode;
	enum m_access access;
	enum m_prot prot;
};

extern const char *const m_op_names[M_NR_OPS];
extern const char *const m_level_names[M_NR_LEVELS];
extern const char *const m_rel_names[R_NR];
extern const char *const m_mode_names[MODE_NR];
extern const char *const m_access_names[ACC_NR];
extern const char *const m_prot_names[P_NR];
extern const char *const m_result_names[RES_NR];

/* Deliberately wrong model (for showing that the test can fail). */
extern bool m_mutate;

/* Level of a name as the sysctls and boot parameters take it, or -1. */
int m_parse_level(const char *name);

/* Run a case on the model: its result, and the counters in @s updated. */
enum m_result m_run(struct m_state *s, const struct m_case *c);

/*
 * Write @value (a level name, maybe with one trailing newline) to the
 * sysctl of @op: 0 and @s updated, or -EPERM / -EINVAL and @s unchanged.
 */
int m_sysctl_level(struct m_state *s, enum m_op op, const char *value);

/* Write @val to the permissive sysctl: 0 or -EPERM. */
int m_sysctl_permissive(struct m_state *s, int val);

#endif
