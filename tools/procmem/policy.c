// SPDX-License-Identifier: GPL-2.0
/*
 * The policy model: operations, levels, relations and kernel kinds by
 * name.  Their numbers are the BPF enforcer's (bpf/enforcer.h).
 */
#include "procmem.h"

#include <string.h>

const char *const op_names[NOPS] = { "open_read", "open_write", "write", "force" };
const char *const rel_names[NRELS] = { "self", "other", "tracer" };

static const char *const level_names[] = { "always", "self", "ptrace", "never" };

const char *level_name(enum level lv)
{
	return lv >= LV_ALWAYS && lv <= LV_NEVER ? level_names[lv] : "unknown";
}

enum level parse_level(const char *s, int synonyms)
{
	for (int i = LV_ALWAYS; i <= LV_NEVER; i++)
		if (!strcmp(s, level_names[i]))
			return (enum level)i;
	if (synonyms) {
		if (!strcmp(s, "off"))
			return LV_ALWAYS;
		if (!strcmp(s, "ptracer"))
			return LV_PTRACE;
		if (!strcmp(s, "all"))
			return LV_NEVER;
	}
	return LV_UNKNOWN;
}

int op_index(const char *s)
{
	for (int o = 0; o < NOPS; o++)
		if (!strcmp(s, op_names[o]))
			return o;
	return -1;
}

const char *kind_name(enum kernel_kind k)
{
	return k == K_PATCHED ? "patched" : k == K_STOCK ? "stock" : "none";
}
