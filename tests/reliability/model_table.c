// SPDX-License-Identifier: GPL-2.0
/*
 * The model of the policy (model.c, from docs/interface.md) against every
 * cell of the conformance table (tests/conformance/expect.h, the table
 * the kernels and the enforcer are held to), on the host, no guest.
 *
 * For each policy (one operation at one level, the others at "always"),
 * accessor and operation the model's outcome must be the cell's; the
 * model's counters must move by one denial of that operation exactly
 * where the table implies one (expect_denial()), and by nothing else;
 * in permissive mode the outcome must be the "always" row's and the same
 * cases count one would-deny each instead.  First, the table's shape:
 * every cell one outcome, '-' exactly where an operation does not apply
 * (wr_detach, wr_exec and wr_exit are the tracer's), and the "always"
 * rows alike.  One TAP line per policy and accessor.
 *
 *   model_table            the checks
 *   model_table --mutate   the same with the deliberately wrong model of
 *                          difftest --mutate (self does not admit the
 *                          tracer): fails
 */
#include <stdio.h>
#include <string.h>

#include "kselftest.h"
#include "expect.h"
#include "model.h"

/* The table's operations and levels index the model's state as they are. */
_Static_assert(PM_OPEN_READ == (int)M_OPEN_READ && PM_OPEN_WRITE == (int)M_OPEN_WRITE &&
	       PM_WRITE == (int)M_WRITE && PM_FORCE == (int)M_FORCE &&
	       NR_POLICY_OPS == (int)M_NR_OPS, "policy operations");
_Static_assert(PM_ALWAYS == (int)M_ALWAYS && PM_SELF == (int)M_SELF &&
	       PM_PTRACE == (int)M_PTRACE && PM_NEVER == (int)M_NEVER &&
	       NR_LEVELS == (int)M_NR_LEVELS, "policy levels");

/* The model's case for @operation by @acc: false if it does not apply. */
static bool model_case(enum accessor acc, enum operation operation,
		       struct m_case *c)
{
	static const enum m_rel rel[NR_ACCESSORS] = {
		[SELF] = R_SELF, [TRACER] = R_TRACER, [PARENT] = R_PARENT,
		[INHERIT] = R_INHERIT, [OTHERUID] = R_OTHERUID,
		[DEPUTY] = R_DEPUTY, [TRACERFD] = R_TRACERFD,
	};
	static const struct m_case how[NR_OPERATIONS] = {
		[OPEN_RO]	= { 0, MODE_RDONLY, ACC_NONE, P_RW },
		[OPEN_RW]	= { 0, MODE_RDWR, ACC_NONE, P_RW },
		[RD_RW]		= { 0, MODE_RDONLY, ACC_READ, P_RW },
		[WR_RW]		= { 0, MODE_WRONLY, ACC_WRITE, P_RW },
		[RD_NONE]	= { 0, MODE_RDONLY, ACC_READ, P_NONE },
		[WR_RO]		= { 0, MODE_WRONLY, ACC_WRITE, P_RO },
		[WR_TEXT]	= { 0, MODE_WRONLY, ACC_WRITE, P_RX },
		[WR_DETACH]	= { R_DETACHED, MODE_WRONLY, ACC_WRITE, P_RX },
		[WR_EXEC]	= { R_EXECED, MODE_WRONLY, ACC_WRITE, P_RX },
		/* exited or exec'd: the fd's mm is gone either way */
		[WR_EXIT]	= { R_EXECED, MODE_WRONLY, ACC_WRITE, P_RX },
		[RD_UNMAPPED]	= { 0, MODE_RDONLY, ACC_READ, P_UNMAPPED },
		[WR_UNMAPPED]	= { 0, MODE_WRONLY, ACC_WRITE, P_UNMAPPED },
	};

	*c = how[operation];
	if (operation == WR_DETACH || operation == WR_EXEC || operation == WR_EXIT)
		return acc == TRACER;	/* the tracer's operations */
	c->rel = rel[acc];
	return true;
}

static char outcome_of(enum m_result r)
{
	switch (r) {
	case RES_OK:
		return '+';
	case RES_OPEN_EACCES:
	case RES_EACCES:
		return 'A';
	case RES_EIO:
		return 'I';
	case RES_EOF:
		return '0';
	default:
		return 'E';
	}
}

/* The table's shape: "" if right, else what is wrong. */
static const char *shape(char *why, size_t size)
{
	int op, lv, acc, o;

	for (op = 0; op < NR_POLICY_OPS; op++)
		for (lv = 0; lv < NR_LEVELS; lv++)
			for (acc = 0; acc < NR_ACCESSORS; acc++) {
				const char *cell = expected[op][lv][acc];
				struct m_case c;

				/* one too long fills the array: no NUL */
				if (cell[NR_OPERATIONS] || strlen(cell) != NR_OPERATIONS ||
				    strspn(cell, "+AI0-") != NR_OPERATIONS) {
					snprintf(why, size, "%s=%s %s: \"%.*s\" is not %d outcomes",
						 policy_op_names[op], level_names[lv],
						 accessor_names[acc], NR_OPERATIONS + 1, cell,
						 NR_OPERATIONS);
					return why;
				}
				for (o = 0; o < NR_OPERATIONS; o++)
					if ((cell[o] == '-') == model_case(acc, o, &c)) {
						snprintf(why, size, "%s=%s %s %s: '%c'",
							 policy_op_names[op], level_names[lv],
							 accessor_names[acc], operation_names[o],
							 cell[o]);
						return why;
					}
				if (lv == PM_ALWAYS && strcmp(cell, expected[0][PM_ALWAYS][acc])) {
					snprintf(why, size, "%s=always %s differs from %s=always",
						 policy_op_names[op], accessor_names[acc],
						 policy_op_names[0]);
					return why;
				}
			}
	return "";
}

/*
 * One policy (@op at @lv) and accessor, every operation, enforcing and
 * permissive: the number of cells where the model differs, each told.
 */
static int check_row(enum policy_op op, enum policy_level lv, enum accessor acc)
{
	int o, i, bad = 0;

	for (o = 0; o < NR_OPERATIONS; o++) {
		struct m_case c;
		int permissive;

		if (!model_case(acc, o, &c))
			continue;
		for (permissive = 0; permissive < 2; permissive++) {
			struct m_state s = { .permissive = permissive };
			char want = expected[op][lv][acc][o], got;
			const long *counted = permissive ? s.would : s.denied;
			const long *other = permissive ? s.denied : s.would;
			const char *mode = permissive ? " (permissive)" : "";

			s.level[op] = (enum m_level)lv;	/* the others: always */
			if (permissive)
				want = expected[op][PM_ALWAYS][acc][o];
			got = outcome_of(m_run(&s, &c));
			if (got != want) {
				ksft_print_msg("%s%s: model '%c', table '%c'\n",
					       operation_names[o], mode, got, want);
				bad++;
			}
			for (i = 0; i < NR_POLICY_OPS; i++) {
				long n = i == (int)op && expect_denial(op, lv, acc, o);

				if (counted[i] == n && !other[i])
					continue;
				ksft_print_msg("%s%s: model counts %ld %s, %ld %s of %s; table %ld %s\n",
					       operation_names[o], mode, s.denied[i], "denied",
					       s.would[i], "would_deny", policy_op_names[i], n,
					       permissive ? "would_deny" : "denied");
				bad++;
			}
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	char why[160];
	const char *wrong;
	int op, lv, acc;

	if (argc == 2 && !strcmp(argv[1], "--mutate")) {
		m_mutate = true;
	} else if (argc != 1) {
		fprintf(stderr, "usage: model_table [--mutate]\n");
		return 2;
	}
	ksft_print_header();
	ksft_set_plan(1 + NR_POLICY_OPS * NR_LEVELS * NR_ACCESSORS);
	wrong = shape(why, sizeof(why));
	ksft_test_result(!*wrong, "the table: every cell an outcome, '-' where not applicable, the always rows alike%s%s\n",
			 *wrong ? ": " : "", wrong);
	for (op = 0; op < NR_POLICY_OPS; op++)
		for (lv = 0; lv < NR_LEVELS; lv++)
			for (acc = 0; acc < NR_ACCESSORS; acc++) {
				int bad = check_row(op, lv, acc);

				ksft_test_result(!bad, "model: %s=%s %s%s\n",
						 policy_op_names[op], level_names[lv],
						 accessor_names[acc],
						 bad ? ": cells differ" : "");
			}
	ksft_finished();
}
