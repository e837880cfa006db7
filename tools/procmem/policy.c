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
 * into components.  Returns their number; PM_SPLIT_NAME for a component
 * over NAME_MAX (PM_NAME_MAX - 1) bytes, "." or "..", or with a newline
 * (no cgroup can have one); PM_SPLIT_DEEP for more than PM_DEPTH_MAX;
 * PM_SPLIT_GLOB for a '*': an override names one path, never a pattern
 * (docs/enforcer.md, "Overrides").
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
		if (len > PM_NAME_MAX - 1 || (len == 1 && s[0] == '.') ||
		    (len == 2 && !strncmp(s, "..", 2)) || memchr(s, '\n', len))
			return PM_SPLIT_NAME;
		if (memchr(s, '*', len))
			return PM_SPLIT_GLOB;
		if (n == PM_DEPTH_MAX)
			return PM_SPLIT_DEEP;
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

static int same_path(const struct pm_override *a, const struct pm_override *b)
{
	return a->depth == b->depth &&
	       !memcmp(a->comp, b->comp, sizeof(a->comp[0]) * a->depth);
}

/* @p's override of @ov's path, or -1. */
static int find_path(const struct pm_policy *p, const struct pm_override *ov)
{
	for (int i = 0; p && i < p->noverrides && i < PM_OVERRIDES_MAX; i++)
		if (same_path(&p->ov[i], ov))
			return i;
	return -1;
}

/*
 * Gives each override of @next its counters' slot: the slot @prev's
 * override of the same path had, else the lowest free one.  Returns the
 * slots that now count for another path than in @prev (bit per slot):
 * their counters start again from zero.
 */
unsigned int pm_policy_slots(struct pm_policy *next, const struct pm_policy *prev)
{
	unsigned int used = 0, fresh = 0;
	int n = next->noverrides < PM_OVERRIDES_MAX ? next->noverrides : PM_OVERRIDES_MAX;
	int keep[PM_OVERRIDES_MAX];

	for (int i = 0; i < n; i++) {
		int j = find_path(prev, &next->ov[i]);

		keep[i] = j >= 0 && prev->ov[j].slot < PM_OVERRIDES_MAX &&
			  !(used & (1U << prev->ov[j].slot));
		if (keep[i]) {
			next->ov[i].slot = prev->ov[j].slot;
			used |= 1U << next->ov[i].slot;
		}
	}
	for (int i = 0; i < n; i++) {
		unsigned char s = 0;

		if (keep[i])
			continue;
		while (used & (1U << s))
			s++;
		next->ov[i].slot = s;
		used |= 1U << s;
		fresh |= 1U << s;
	}
	return fresh;
}

/* "open_read=L open_write=L write=L permissive=N", as enforce prints a scope. */
void pm_levels_text(char *buf, size_t n, const struct pm_levels *lv)
{
	snprintf(buf, n, "open_read=%s open_write=%s write=%s permissive=%d",
		 level_name(level_of(lv->level[PM_OPEN_READ])),
		 level_name(level_of(lv->level[PM_OPEN_WRITE])),
		 level_name(level_of(lv->level[PM_WRITE])), lv->permissive);
}

/* One scope's change, or nothing if its levels in force are the same. */
static void scope_change(const char *name, const struct pm_levels *a, const struct pm_levels *b,
			 void (*say)(const char *line, void *arg), void *arg)
{
	char line[PM_DEPTH_MAX * PM_NAME_MAX + 512];
	size_t len;

	if (!memcmp(a, b, sizeof(*a)))
		return;
	len = (size_t)snprintf(line, sizeof(line), "%s:", name);
	for (int o = 0; o < PM_NOPS && len < sizeof(line); o++)
		if (a->level[o] != b->level[o])
			len += (size_t)snprintf(line + len, sizeof(line) - len, " %s %s -> %s", op_names[o],
						level_name(level_of(a->level[o])),
						level_name(level_of(b->level[o])));
	if (a->permissive != b->permissive && len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, " permissive %d -> %d", a->permissive,
			 b->permissive);
	say(line, arg);
}

/*
 * What changed from @a to @b (both finished), a line per scope to
 * @say: "machine: write ptrace -> never", "cgroup /x: added
 * (write=never permissive=0)", "cgroup /x: removed", "cgroup /x:
 * open_read always -> self".  The number of lines.
 */
int pm_policy_diff(const struct pm_policy *a, const struct pm_policy *b,
		   void (*say)(const char *line, void *arg), void *arg)
{
	char name[PM_DEPTH_MAX * PM_NAME_MAX + 16], path[PM_DEPTH_MAX * PM_NAME_MAX + 1];
	char line[sizeof(name) + 160], lv[128];
	int lines = 0;

	if (memcmp(&a->machine, &b->machine, sizeof(a->machine))) {
		scope_change("machine", &a->machine, &b->machine, say, arg);
		lines++;
	}
	for (int i = 0; i < a->noverrides && i < PM_OVERRIDES_MAX; i++) {
		int j = find_path(b, &a->ov[i]);

		pm_path_join(&a->ov[i], path, sizeof(path));
		snprintf(name, sizeof(name), "cgroup %s", path);
		if (j < 0) {
			snprintf(line, sizeof(line), "%s: removed", name);
			say(line, arg);
			lines++;
		} else if (memcmp(&a->ov[i].lv, &b->ov[j].lv, sizeof(a->ov[i].lv))) {
			scope_change(name, &a->ov[i].lv, &b->ov[j].lv, say, arg);
			lines++;
		}
	}
	for (int j = 0; j < b->noverrides && j < PM_OVERRIDES_MAX; j++) {
		if (find_path(a, &b->ov[j]) >= 0)
			continue;
		pm_path_join(&b->ov[j], path, sizeof(path));
		pm_levels_text(lv, sizeof(lv), &b->ov[j].lv);
		snprintf(line, sizeof(line), "cgroup %s: added (%s)", path, lv);
		say(line, arg);
		lines++;
	}
	return lines;
}
