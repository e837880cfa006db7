// SPDX-License-Identifier: GPL-2.0
/*
 * The policy model, pure (no file, no BPF: tests/procmem/policy.c tests
 * it on the host): operations, levels, verdicts, relations and kernel
 * kinds by name (their numbers are the BPF enforcer's, bpf/enforcer.h);
 * the enforcer's policy arithmetic (scopes, the hooks a policy needs,
 * cgroup paths as components); the kernel's levels composed with the
 * enforcer's (policy_in_force()).
 */
#include "procmem.h"

#include <stdio.h>
#include <string.h>

const char *const op_names[NOPS] = { "open_read", "open_write", "write", "force" };
const char *const rel_names[NRELS] = { "self", "other", "tracer" };

/* The one table of levels' names, loosest first (numbers: bpf/enforcer.h). */
static const char *const level_names[NLEVELS] = { "always", "self", "ptrace", "never" };
/* Adrian Ratiu's v6 names, and the level each means. */
static const struct { const char *name; enum level lv; } synonyms[] = {
	{ "off", LV_ALWAYS }, { "ptracer", LV_PTRACE }, { "all", LV_NEVER },
};

/*
 * A verdict's two spellings: the word (text, watch's JSON values and
 * keys, the probe table's cells) and the key (status's JSON keys,
 * metrics' labels, the kernel's sysctl directory would_deny/).  Both are
 * kept: documents and dashboards already read them.
 */
static const char *const verdict_names[PM_NVERDICTS][2] = {
	[PM_V_ALLOWED] = { "allowed", "allowed" },
	[PM_V_DENIED] = { "denied", "denied" },
	[PM_V_WOULD_DENY] = { "would-deny", "would_deny" },
};

const char *level_name(enum level lv)
{
	return lv >= LV_ALWAYS && lv < NLEVELS ? level_names[lv] : "unknown";
}

enum level level_of(unsigned int n)
{
	return n < NLEVELS ? (enum level)n : LV_UNKNOWN;
}

enum level parse_level(const char *s, int synonym)
{
	for (int i = LV_ALWAYS; i < NLEVELS; i++)
		if (!strcmp(s, level_names[i]))
			return (enum level)i;
	for (size_t i = 0; synonym && i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (!strcmp(s, synonyms[i].name))
			return synonyms[i].lv;
	return LV_UNKNOWN;
}

void level_list(char *buf, size_t n, const char *sep, const char *syn_sep)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = LV_ALWAYS; i < NLEVELS && len < n; i++)
		len += snprintf(buf + len, n - len, "%s%s", i ? sep : "", level_names[i]);
	for (size_t i = 0; syn_sep && i < sizeof(synonyms) / sizeof(synonyms[0]) && len < n; i++)
		len += snprintf(buf + len, n - len, "%s%s", i ? sep : syn_sep, synonyms[i].name);
}

const char *verdict_name(int v, enum verdict_spelling how)
{
	return v >= 0 && v < PM_NVERDICTS ? verdict_names[v][how] : "unknown";
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
static int any_write(const struct pm_policy *p, int level, int exact)
{
	const struct pm_levels *lv[PM_OVERRIDES_MAX + 2];
	int n = 0;

	lv[n++] = &p->machine;
	lv[n++] = &p->strictest;
	for (int i = 0; i < p->noverrides && i < PM_OVERRIDES_MAX; i++)
		lv[n++] = &p->ov[i].lv;
	for (int i = 0; i < n; i++)
		if (exact ? lv[i]->level[PM_WRITE] == level : lv[i]->level[PM_WRITE] != level)
			return 1;
	return 0;
}

/* Hooks the policy needs attached: file_permission while some scope
 * restricts write, file_free while some scope has write=self. */
unsigned int pm_hooks_needed(const struct pm_policy *p)
{
	unsigned int h = 1U << PM_HOOK_OPEN;

	if (any_write(p, PM_ALWAYS, 0))
		h |= 1U << PM_HOOK_PERMISSION;
	if (any_write(p, PM_SELF, 1))
		h |= 1U << PM_HOOK_FREE;
	return h;
}

/* The per-operation maximum over every scope: for cgroups too deep to
 * walk, enforcing unless every scope is permissive.  An override is
 * permissive if it says so, or if the machine is (as the levels it does
 * not name follow the machine's). */
void pm_policy_finish(struct pm_policy *p)
{
	/* deepest first, in the order given among equals (insertion sort) */
	for (int i = 1; i < p->noverrides && i < PM_OVERRIDES_MAX; i++) {
		struct pm_override t = p->ov[i];
		int j = i;

		for (; j > 0 && p->ov[j - 1].depth < t.depth; j--)
			p->ov[j] = p->ov[j - 1];
		p->ov[j] = t;
	}
	if (p->noverrides > PM_OVERRIDES_MAX)
		p->noverrides = PM_OVERRIDES_MAX;
	/* levels an override does not name follow the machine's */
	for (int i = 0; i < p->noverrides; i++)
		for (int o = 0; o < PM_NOPS; o++)
			p->ov[i].lv.level[o] = (p->ov[i].set & (1U << o)) ?
					       p->ov[i].own.level[o] : p->machine.level[o];
	for (int i = 0; i < p->noverrides; i++)
		p->ov[i].lv.permissive = p->ov[i].own.permissive || p->machine.permissive;
	memset(p->cand, 0, sizeof(p->cand));
	for (int l = 0; l <= PM_DEPTH_MAX; l++)
		for (int i = 0; i < p->noverrides; i++)
			if (p->ov[i].depth <= l)
				p->cand[l] |= 1U << i;
	p->strictest = p->machine;
	for (int i = 0; i < p->noverrides; i++) {
		for (int o = 0; o < PM_NOPS; o++)
			if (p->ov[i].lv.level[o] > p->strictest.level[o])
				p->strictest.level[o] = p->ov[i].lv.level[o];
		p->strictest.permissive &= p->ov[i].lv.permissive;
	}
}

/* The scope of a cgroup path ("/a/b"): the deepest override that is it
 * or an ancestor, -1 for the machine.  The programs' rule, in C. */
int pm_scope_of(const struct pm_policy *p, const char *path)
{
	char comp[PM_DEPTH_MAX][PM_NAME_MAX];
	int depth = pm_path_split(path, comp), best = -1;

	for (int i = 0; i < p->noverrides; i++) {
		int d = p->ov[i].depth, match = d <= depth;

		for (int l = 0; match && l < d; l++)
			match = !strncmp(comp[l], p->ov[i].comp[l], PM_NAME_MAX);
		if (match && (best < 0 || d > p->ov[best].depth))
			best = i;
	}
	return best;
}

/*
 * Splits a path relative to the cgroup-v2 root (pm_cgroup_resolve()'s)
 * into components.  Returns their number; -1 for a component over
 * PM_NAME_MAX - 2 bytes, "." or "..", -2 for more than PM_DEPTH_MAX.
 */
int pm_path_split(const char *path, char (*comp)[PM_NAME_MAX])
{
	const char *s = path;
	int n = 0;

	while (*s) {
		size_t len;

		s += strspn(s, "/");
		len = strcspn(s, "/");
		if (!len)
			break;
		if (len > PM_NAME_MAX - 2 || (len == 1 && s[0] == '.') ||
		    (len == 2 && !strncmp(s, "..", 2)))
			return -1;
		if (n == PM_DEPTH_MAX)
			return -2;
		memset(comp[n], 0, PM_NAME_MAX);
		memcpy(comp[n++], s, len);
		s += len;
	}
	return n;
}

void pm_path_join(const struct pm_override *ov, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int l = 0; l < ov->depth && len < n; l++)
		len += snprintf(buf + len, n - len, "/%.*s", PM_NAME_MAX, ov->comp[l]);
	if (!ov->depth)
		snprintf(buf, n, "/");
}

/*
 * The policy in force: the kernel's levels @lv (their sources @src)
 * composed with the enforcer @e's.  An access passes the kernel's check
 * and the enforcer's, and the levels nest, so the stricter level is in
 * force, for the operations the enforcer has (not force).  No enforcer
 * (NULL, not loaded, no policy) or a permissive one changes nothing.
 */
void policy_in_force(enum level lv[NOPS], const char *src[NOPS], const struct enforcer *e)
{
	if (!e || !e->loaded || !e->have_policy || e->permissive)
		return;
	for (int o = 0; o < OP_FORCE; o++)
		if (e->level[o] > lv[o]) {
			lv[o] = e->level[o];
			src[o] = "bpf";
		}
}
