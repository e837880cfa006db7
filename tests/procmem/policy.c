// SPDX-License-Identifier: GPL-2.0
/*
 * TAP: procmem's policy model (tools/procmem/policy.c) on the host, with
 * no BPF, no kernel series and no VM: levels, verdicts and operations by
 * name, cgroup paths as components, the overrides' arithmetic, the scope
 * of a path, the hooks a policy needs, and the kernel's levels composed
 * with the enforcer's.  Built from policy.c alone (tests/procmem/rules.mk).
 */
#include "procmem.h"

#include <stdio.h>
#include <string.h>

static int n, failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	failed |= !cond;
}

static void names(void)
{
	char buf[128];
	int round = 1;

	for (int l = LV_ALWAYS; l < NLEVELS; l++)
		round &= parse_level(level_name((enum level)l), 0) == l && level_of((unsigned)l) == l;
	ok(round, "every level's name parses back to it");
	ok(level_of(NLEVELS) == LV_UNKNOWN && !strcmp(level_name(LV_UNKNOWN), "unknown"),
	   "a number past the last level is no level");
	ok(parse_level("ptracer", 1) == LV_PTRACE && parse_level("ptracer", 0) == LV_UNKNOWN &&
	   parse_level("off", 1) == LV_ALWAYS && parse_level("all", 1) == LV_NEVER,
	   "v6's synonyms parse only where asked");
	level_list(buf, sizeof(buf), ", ", "; synonyms ");
	ok(!strcmp(buf, "always, self, ptrace, never; synonyms off, ptracer, all"),
	   "level_list names the levels, then the synonyms");
	level_list(buf, sizeof(buf), " ", NULL);
	ok(!strcmp(buf, "always self ptrace never"), "level_list without synonyms");
	ok(!strcmp(verdict_name(PM_V_WOULD_DENY, VN_TEXT), "would-deny") &&
	   !strcmp(verdict_name(PM_V_WOULD_DENY, VN_KEY), "would_deny") &&
	   !strcmp(verdict_name(PM_V_DENIED, VN_KEY), "denied") &&
	   !strcmp(verdict_name(PM_NVERDICTS, VN_TEXT), "unknown"),
	   "a verdict's word and key");
	ok(op_index("open_write") == OP_OPEN_WRITE && op_index("force") == OP_FORCE &&
	   op_index("read") < 0, "operations by name");
}

static void paths(void)
{
	static char comp[PM_DEPTH_MAX][PM_NAME_MAX], buf[PM_DEPTH_MAX * PM_NAME_MAX + 2];
	char deep[PM_DEPTH_MAX * 3 + 8] = "", long_name[PM_NAME_MAX + 2], kube[1024];
	static struct pm_override ov;

	ok(pm_path_split("//a/b.slice/", comp) == 2 && !strcmp(comp[0], "a") &&
	   !strcmp(comp[1], "b.slice"), "a path splits into its components");
	ok(pm_path_split("/a/../b", comp) == -1 && pm_path_split("/./a", comp) == -1,
	   "'.' and '..' are refused");
	for (int i = 0; i <= PM_DEPTH_MAX; i++)
		strcat(deep, "/x");
	ok(pm_path_split(deep, comp) == PM_SPLIT_DEEP, "a path deeper than PM_DEPTH_MAX is refused");
	memset(long_name, 'n', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = 0;
	ok(pm_path_split(long_name, comp) == PM_SPLIT_NAME,
	   "a component longer than NAME_MAX (255 bytes) is refused");
	long_name[255] = 0;
	ok(pm_path_split(long_name, comp) == 1 && strlen(comp[0]) == 255,
	   "a component of NAME_MAX (255) bytes is taken whole");
	/* kubelet (systemd driver) and containerd: 65 and 85 bytes */
	snprintf(kube, sizeof(kube), "/kubepods.slice/kubepods-besteffort.slice/"
		 "kubepods-besteffort-pod%s.slice/cri-containerd-%s%s.scope",
		 "0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0",
		 "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef");
	ok(pm_path_split(kube, comp) == 4 && strlen(comp[2]) == 65 && strlen(comp[3]) == 85,
	   "a pod's container scope splits: names of 65 and 85 bytes");
	ok(pm_path_split("/system.slice/docker-*.scope", comp) == PM_SPLIT_GLOB,
	   "a '*' is refused: an override names one path, never a pattern");
	ok(pm_path_split("/a\nb", comp) == PM_SPLIT_NAME, "a newline is refused (no cgroup has one)");
	memset(&ov, 0, sizeof(ov));
	ov.depth = (unsigned char)pm_path_split("/system.slice/x.service", ov.comp);
	pm_path_join(&ov, buf, sizeof(buf));
	ok(!strcmp(buf, "/system.slice/x.service"), "a path joins back from its components");
	ov.depth = 0;
	pm_path_join(&ov, buf, sizeof(buf));
	ok(!strcmp(buf, "/"), "no component is the root");
}

/* An override of @path setting @op to @lv. */
static void override(struct pm_policy *p, const char *path, int op, int lv, int permissive)
{
	struct pm_override *ov = &p->ov[p->noverrides++];

	memset(ov, 0, sizeof(*ov));
	ov->depth = (unsigned char)pm_path_split(path, ov->comp);
	ov->own.level[op] = (unsigned char)lv;
	ov->own.permissive = (unsigned char)permissive;
	ov->set = (unsigned char)(1U << op);
}

static void say(const char *line, void *arg)
{
	char *out = arg;

	strcat(out, line);
	strcat(out, "\n");
}

/* Counter slots are kept per path across changes; a path new to a slot
 * is said so (its counters restart); the diff names what changed. */
static void slots_and_diff(void)
{
	static struct pm_policy a, b;
	static char out[4096];
	unsigned int fresh;

	memset(&a, 0, sizeof(a));
	override(&a, "/x", PM_WRITE, PM_NEVER, 0);
	override(&a, "/y", PM_WRITE, PM_SELF, 0);
	override(&a, "/z", PM_WRITE, PM_PTRACE, 0);
	pm_policy_finish(&a);
	fresh = pm_policy_slots(&a, NULL);
	ok(fresh == 7 && a.ov[0].slot == 0 && a.ov[1].slot == 1 && a.ov[2].slot == 2,
	   "a first policy's overrides take slots 0, 1, 2, all fresh");
	memset(&b, 0, sizeof(b));
	b.machine.level[PM_WRITE] = PM_PTRACE;
	override(&b, "/w/deeper", PM_OPEN_READ, PM_SELF, 0);
	override(&b, "/z", PM_WRITE, PM_NEVER, 0);
	override(&b, "/x", PM_WRITE, PM_NEVER, 0);
	pm_policy_finish(&b);
	fresh = pm_policy_slots(&b, &a);
	ok(b.ov[0].depth == 2 && b.ov[0].slot == 1 && b.ov[1].slot == 2 && b.ov[2].slot == 0 &&
	   fresh == 2, "/x and /z keep their slots; /w/deeper takes /y's freed slot, fresh");
	out[0] = 0;
	ok(pm_policy_diff(&a, &b, say, out) == 4 &&
	   !strcmp(out, "machine: write always -> ptrace\n"
			"cgroup /y: removed\n"
			"cgroup /z: write ptrace -> never\n"
			"cgroup /w/deeper: added (open_read=self open_write=always write=ptrace permissive=0)\n"),
	   "the diff: the machine's change, a removal, a change, an addition");
	out[0] = 0;
	ok(pm_policy_diff(&b, &b, say, out) == 0 && !out[0], "no change, no line");
}

static void policies(void)
{
	static struct pm_policy p;

	memset(&p, 0, sizeof(p));
	p.machine.level[PM_OPEN_READ] = PM_SELF;
	override(&p, "/a", PM_WRITE, PM_NEVER, 1);
	override(&p, "/a/b/c", PM_OPEN_WRITE, PM_PTRACE, 0);
	override(&p, "/a/b", PM_WRITE, PM_SELF, 0);
	pm_policy_finish(&p);
	ok(p.ov[0].depth == 3 && p.ov[1].depth == 2 && p.ov[2].depth == 1,
	   "overrides are sorted deepest first");
	ok(p.ov[0].lv.level[PM_OPEN_READ] == PM_SELF && p.ov[0].lv.level[PM_OPEN_WRITE] == PM_PTRACE &&
	   p.ov[0].lv.level[PM_WRITE] == PM_ALWAYS, "levels an override does not name follow the machine's");
	ok(p.strictest.level[PM_OPEN_READ] == PM_SELF && p.strictest.level[PM_OPEN_WRITE] == PM_PTRACE &&
	   p.strictest.level[PM_WRITE] == PM_NEVER && !p.strictest.permissive,
	   "strictest: each operation's strictest level, enforcing unless all scopes are permissive");
	ok(p.cand[0] == 0 && p.cand[1] == 4 && p.cand[2] == 6 && p.cand[PM_DEPTH_MAX] == 7,
	   "cand[L]: the overrides no deeper than L");
	ok(pm_scope_of(&p, "/a/b/c/d") == 0 && pm_scope_of(&p, "/a/b") == 1 &&
	   pm_scope_of(&p, "/a/x") == 2 && pm_scope_of(&p, "/ab") == -1 && pm_scope_of(&p, "/") == -1,
	   "a path's scope is the deepest override that is it or an ancestor");
	ok(pm_hooks_needed(&p) == (1U << PM_HOOK_OPEN | 1U << PM_HOOK_PERMISSION | 1U << PM_HOOK_FREE),
	   "write restricted and write=self somewhere: every hook");
	memset(&p, 0, sizeof(p));
	pm_policy_finish(&p);
	ok(pm_hooks_needed(&p) == 1U << PM_HOOK_OPEN, "write=always everywhere: file_open alone");
	p.machine.level[PM_WRITE] = PM_PTRACE;
	pm_policy_finish(&p);
	ok(pm_hooks_needed(&p) == (1U << PM_HOOK_OPEN | 1U << PM_HOOK_PERMISSION),
	   "write=ptrace: file_permission too, no opener records");
}

static void in_force(void)
{
	enum level lv[NOPS] = { LV_ALWAYS, LV_PTRACE, LV_ALWAYS, LV_ALWAYS };
	const char *src[NOPS] = { "sysctl", "sysctl", "sysctl", "kconfig" };
	struct enforcer e;

	memset(&e, 0, sizeof(e));
	e.loaded = e.have_policy = 1;
	e.level[OP_OPEN_READ] = LV_SELF;
	e.level[OP_OPEN_WRITE] = LV_SELF;
	e.level[OP_WRITE] = LV_NEVER;
	e.level[OP_FORCE] = LV_NEVER;	/* the enforcer has no force: ignored */
	e.permissive = 1;
	policy_in_force(lv, src, &e);
	ok(lv[OP_OPEN_READ] == LV_ALWAYS && !strcmp(src[OP_OPEN_READ], "sysctl"),
	   "a permissive enforcer changes nothing in force");
	policy_in_force(lv, src, NULL);
	ok(lv[OP_WRITE] == LV_ALWAYS, "no enforcer changes nothing in force");
	e.permissive = 0;
	policy_in_force(lv, src, &e);
	ok(lv[OP_OPEN_READ] == LV_SELF && !strcmp(src[OP_OPEN_READ], "bpf") &&
	   lv[OP_OPEN_WRITE] == LV_PTRACE && !strcmp(src[OP_OPEN_WRITE], "sysctl") &&
	   lv[OP_WRITE] == LV_NEVER && lv[OP_FORCE] == LV_ALWAYS,
	   "the stricter of the kernel's and the enforcer's, force the kernel's");
}

int main(void)
{
	printf("TAP version 13\n");
	names();
	paths();
	policies();
	slots_and_diff();
	in_force();
	printf("1..%d\n", n);
	return failed;
}
