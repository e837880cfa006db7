// SPDX-License-Identifier: GPL-2.0
/*
 * procmem status: which /proc/PID/mem policy is really in force.  The
 * configured policy (boot parameters, kernel config, sysctls, the BPF
 * enforcer) against the one probes measure on processes procmem forks
 * itself; mismatches, and what the running kernel lacks.
 */
#include "procmem.h"

#include <getopt.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 32

struct lines {
	char s[MAX_LINES][640];
	int n;
};

static void add(struct lines *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct lines *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(l->s[l->n++], sizeof(l->s[0]), fmt, ap);
	va_end(ap);
}

static struct json_object *json_lines(const struct lines *l)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_string(l->s[i]));
	return a;
}

/* A probe's outcome for the table: permissive mode allows what it
 * would deny, and counts it. */
static const char *cell(const struct probe_result *r)
{
	if (r->out == PR_ALLOWED && r->counted && r->d_would > 0)
		return "would-deny";
	return r->out == PR_NOT_RUN ? "-" : outcome_name(r->out);
}

static const char *kind_text(enum kernel_kind k)
{
	return k == K_PATCHED ? "per-operation /proc/PID/mem policy (proc_mem sysctls)" :
	       k == K_STOCK ? "stock /proc/PID/mem control (proc_mem.force_override only)" :
	       "no /proc/PID/mem controls";
}

/* Whether the enforcer could provide what this kernel lacks: procmem
 * enforce's own checks, read once. */
struct remedy {
	int rc, lsm;
	char why[400], param[300];
};

static void remedy_read(struct remedy *r)
{
	r->rc = pm_loadable(r->why, sizeof(r->why), r->param, sizeof(r->param), &r->lsm);
}

/* "`procmem enforce OPTS` provides IT (BPF LSM active)", or why not. */
static const char *remedy_text(const struct remedy *r, const char *opts, const char *it,
			       char *buf, size_t n)
{
	if (r->rc == EXIT_OK)
		snprintf(buf, n, "`procmem enforce %s` provides %s (BPF LSM %s)", opts, it,
			 r->lsm > 0 ? "active" : "not known to be active: /sys/kernel/security/lsm unreadable");
	else if (r->rc == EXIT_NO_BPF_LSM)
		snprintf(buf, n, "`procmem enforce %s` provides %s once booted with %s", opts, it,
			 r->param);
	else
		snprintf(buf, n, "the kernel series (kernel/) provides %s; procmem enforce cannot load here: %s",
			 it, r->why);
	return buf;
}

static void lacks(const struct config *c, const struct enforcer *e,
		  const struct remedy *rm, struct lines *l)
{
	static const char ops[] = "--open-read=L --open-write=L --write=L";
	char how[560];

	if (e->loaded && e->have_policy) {
		if (c->kind == K_PATCHED)
			return;
		add(l, "a control of force beyond %s (no LSM hook: the enforcer cannot restrict FOLL_FORCE)",
		    c->kind == K_STOCK ? "proc_mem.force_override" : "nothing");
		return;
	}
	switch (c->kind) {
	case K_NONE:
		add(l, "any /proc/PID/mem control: proc_mem.force_override came with Linux 6.11; for open_read, open_write and write %s",
		    remedy_text(rm, ops, "them", how, sizeof(how)));
		break;
	case K_STOCK:
		add(l, "controls for open_read, open_write and write (proc_mem.restrict_*): %s",
		    remedy_text(rm, ops, "them", how, sizeof(how)));
		add(l, "the level 'self' for force");
		add(l, "sysctls under /proc/sys/kernel/proc_mem: levels are fixed at boot");
		add(l, "permissive mode (proc_mem.permissive)");
		add(l, "denial counters and denial log lines");
		break;
	case K_PATCHED:
		if (!c->have_sysctl)
			add(l, "sysctls under /proc/sys/kernel/proc_mem (CONFIG_SYSCTL?)");
		break;
	}
}

/* Boot parameters that do not have the effect they ask for. */
static void check_params(const struct config *c, const struct remedy *rm,
			 struct lines *find, struct lines *notes)
{
	for (int i = 0; i < c->nparams; i++) {
		const struct param *p = &c->params[i];
		enum level want = p->has_value ? parse_level(p->value, 1) : LV_UNKNOWN;

		if (!strcmp(p->name, "permissive")) {
			if (!p->known)
				add(want != LV_UNKNOWN || p->bool_val ? find : notes,
				    "proc_mem.permissive%s%s is ignored: this kernel has no permissive mode",
				    p->has_value ? "=" : "", p->value);
			else if (!p->valid)
				add(find, "proc_mem.permissive=%s is not a boolean: ignored", p->value);
			continue;
		}
		if (p->op < 0) {
			add(notes, "proc_mem.%s is not a known parameter: ignored", p->name);
			continue;
		}
		if (!p->known) {
			char how[560] = "";

			if (p->op < OP_FORCE && want > LV_ALWAYS) {
				char opt[96];

				snprintf(opt, sizeof(opt), "--%s=%s", p->op == OP_OPEN_READ ? "open-read" :
					 p->op == OP_OPEN_WRITE ? "open-write" : "write", level_name(want));
				how[0] = ';';
				how[1] = ' ';
				remedy_text(rm, opt, "it", how + 2, sizeof(how) - 2);
			}
			add(want > LV_ALWAYS ? find : notes,
			    "proc_mem.%s=%s is ignored: this kernel has no such parameter (%s stays %s)%s",
			    p->name, p->value, op_names[p->op],
			    level_name(c->configured[p->op]), how);
		} else if (!p->valid) {
			add(find, "proc_mem.%s=%s: invalid value for this kernel (it accepts %s); %s stays %s",
			    p->name, p->value,
			    c->kind == K_STOCK ? "always, ptrace, never" :
			    "always, self, ptrace, never, off, ptracer, all",
			    op_names[p->op], level_name(c->configured[p->op]));
		} else if (c->configured[p->op] != LV_UNKNOWN &&
			   c->configured[p->op] < p->level) {
			add(find, "proc_mem.%s=%s asks for more than is in force: %s is %s (%s)",
			    p->name, p->value, op_names[p->op],
			    level_name(c->configured[p->op]), c->source[p->op]);
		}
	}
}

/*
 * force=ptrace on a stock kernel (upstream's Kconfig default since Linux
 * 7.1): what the compatibility matrix measured breaking at it on this
 * kernel's family, and the measured alternative where the enforcer loads.
 */
static void force_ptrace_note(const struct config *c, const struct remedy *rm, struct lines *l)
{
	struct matrix m;
	char path[4096], err[4200], fam[24], br[600];
	int conf;

	if (c->kind != K_STOCK || c->configured[OP_FORCE] != LV_PTRACE ||
	    matrix_find(NULL, path, sizeof(path)) || matrix_load(&m, path, err, sizeof(err)))
		return;
	matrix_family(&m, c, fam, sizeof(fam));
	conf = matrix_conf(&m, fam, OP_FORCE, LV_PTRACE);
	if (conf < 0)
		conf = matrix_conf(&m, "stock", OP_FORCE, LV_PTRACE);
	if (conf >= 0 && matrix_breaks(&m, conf, br, sizeof(br))) {
		/* the measured alternative: force=always, write=ptrace by the enforcer */
		int alt = rm->rc == EXIT_OK ?
			  matrix_conf_named(&m, fam, "-always-enforcer-write-ptrace") : -1;
		char how[700];

		if (alt >= 0) {
			char ab[300];

			snprintf(how, sizeof(how), "measured instead: proc_mem.force_override=always with `procmem enforce --write=ptrace` (matrix: %s), where %s%s",
				 m.conf[alt].id, matrix_breaks(&m, alt, ab, sizeof(ab)) ? "only this breaks: " : "nothing breaks",
				 ab);
		} else {
			snprintf(how, sizeof(how), "the kernel series' upstream part (kernel/) fixes them; proc_mem.force_override=always restores them");
		}
		add(l, "at force=ptrace%s, the compatibility matrix (%s) has these break: %s; %s",
		    !strcmp(c->source[OP_FORCE], "kconfig") ? " (this kernel's built-in default, upstream's since Linux 7.1)" : "",
		    m.conf[conf].id, br, how);
	}
	matrix_free(&m);
}

static void print_enforcer_text(const struct enforcer *e)
{
	if (!e->loaded)
		return;
	if (e->error[0] || !e->have_policy) {
		printf("enforcer:   %s: %s\n", PM_PIN_DIR, e->error[0] ? e->error : "no policy");
		return;
	}
	printf("enforcer:   BPF LSM (%s): open_read=%s open_write=%s write=%s permissive=%d (%s%s)\n",
	       PM_PIN_DIR, level_name(e->level[OP_OPEN_READ]), level_name(e->level[OP_OPEN_WRITE]),
	       level_name(e->level[OP_WRITE]), e->permissive,
	       e->scope >= 0 ? "cgroup override " : "machine", e->scope >= 0 ? e->scope_path : "");
	printf("enforced:   open_read %llu/%llu open_write %llu/%llu write %llu/%llu (denied/would deny, before the probes)\n",
	       e->denied[0], e->would_deny[0], e->denied[1], e->would_deny[1],
	       e->denied[2], e->would_deny[2]);
}

static void print_sources_text(const struct config *c, const struct enforcer *e)
{
	printf("kernel:     %s, %s (%s)\n", c->release, kind_text(c->kind),
	       c->kind_basis);
	if (!c->cmdline_read)
		printf("cmdline:    /proc/cmdline unreadable\n");
	else if (!c->nparams)
		printf("cmdline:    no proc_mem.* parameters\n");
	for (int i = 0; i < c->nparams; i++)
		printf("%s proc_mem.%s%s%s\n", i ? "           " : "cmdline:   ",
		       c->params[i].name, c->params[i].has_value ? "=" : "",
		       c->params[i].value);
	if (!c->kconfig_src[0]) {
		printf("kconfig:    unavailable (%s)\n", c->kconfig_err);
	} else {
		int any = 0;

		printf("kconfig:    %s:", c->kconfig_src);
		for (int o = 0; o < NOPS; o++)
			if (c->kconfig_sym[o][0]) {
				printf(" %s", c->kconfig_sym[o]);
				any = 1;
			}
		printf("%s\n", any ? "" : " no CONFIG_PROC_MEM_* choice");
	}
	if (!c->have_sysctl) {
		printf("sysctl:     /proc/sys/kernel/proc_mem absent\n");
	} else {
		printf("sysctl:     /proc/sys/kernel/proc_mem:");
		for (int o = 0; o < NOPS; o++)
			printf(" %s=%s", op_names[o], level_name(c->sysctl[o]));
		printf(" permissive=%d\n", c->sysctl_permissive);
		printf("denied:    ");
		for (int o = 0; o < NOPS; o++)
			printf(" %s %ld/%ld", op_names[o], c->denied[o][0], c->denied[o][1]);
		printf(" (denied/would deny, before the probes)\n");
		printf("            counts, not who: any process can raise them by refusing itself;"
		       " the log names who\n");
	}
	print_enforcer_text(e);
	printf("permissive: %s\n\n", c->permissive ? "yes: levels are logged, not enforced" : "no");
}

static void sources_json(struct json_object *o, const struct config *c)
{
	struct json_object *k = json_object_new_object(), *cl = json_object_new_array();
	struct json_object *kc = json_object_new_object();

	pm_jset(k, "release", json_object_new_string(c->release));
	pm_jset(k, "controls", json_object_new_string(kind_name(c->kind)));
	pm_jset(k, "basis", pm_jstr(c->kind_basis));
	pm_jset(o, "kernel", k);
	for (int i = 0; i < c->nparams; i++) {
		const struct param *p = &c->params[i];
		struct json_object *j = json_object_new_object();
		char name[80];

		snprintf(name, sizeof(name), "proc_mem.%s", p->name);
		pm_jset(j, "param", json_object_new_string(name));
		pm_jset(j, "value", pm_jstr(p->has_value ? p->value : NULL));
		pm_jset(j, "known", json_object_new_boolean(p->known));
		pm_jset(j, "valid", json_object_new_boolean(p->valid));
		json_object_array_add(cl, j);
	}
	pm_jset(o, "cmdline", cl);
	pm_jset(kc, "source", pm_jstr(c->kconfig_src[0] ? c->kconfig_src : NULL));
	pm_jset(kc, "error", pm_jstr(c->kconfig_src[0] ? NULL : c->kconfig_err));
	for (int op = 0; op < NOPS; op++)
		pm_jset(kc, op_names[op], pm_jstr(c->kconfig_sym[op][0] ? c->kconfig_sym[op] : NULL));
	pm_jset(o, "kconfig", kc);
	if (c->have_sysctl) {
		struct json_object *sy = json_object_new_object(), *d = json_object_new_object();

		for (int op = 0; op < NOPS; op++)
			pm_jset(sy, op_names[op], pm_jlevel(c->sysctl[op]));
		pm_jset(sy, "permissive", json_object_new_int(c->sysctl_permissive));
		for (int op = 0; op < NOPS; op++) {
			struct json_object *n = json_object_new_object();

			pm_jset(n, "denied", json_object_new_int64(c->denied[op][0]));
			pm_jset(n, "would_deny", json_object_new_int64(c->denied[op][1]));
			pm_jset(d, op_names[op], n);
		}
		pm_jset(sy, "denied", d);
		pm_jset(o, "sysctl", sy);
	} else {
		pm_jset(o, "sysctl", NULL);
	}
	pm_jset(o, "permissive", json_object_new_boolean(c->permissive));
}

static struct json_object *enforcer_json(const struct enforcer *e)
{
	struct json_object *o, *d;

	if (!e->loaded || !e->have_policy)
		return NULL;
	o = json_object_new_object();
	d = json_object_new_object();
	pm_jset(o, "pinned", json_object_new_string(PM_PIN_DIR));
	for (int op = 0; op < OP_FORCE; op++)
		pm_jset(o, op_names[op], json_object_new_string(level_name(e->level[op])));
	pm_jset(o, "permissive", json_object_new_boolean(e->permissive));
	pm_jset(o, "scope", json_object_new_string(e->scope >= 0 ? e->scope_path : "machine"));
	for (int op = 0; op < OP_FORCE; op++) {
		struct json_object *n = json_object_new_object();

		pm_jset(n, "denied", json_object_new_uint64(e->denied[op]));
		pm_jset(n, "would_deny", json_object_new_uint64(e->would_deny[op]));
		pm_jset(d, op_names[op], n);
	}
	pm_jset(o, "denied", d);
	return o;
}

/* What status found: the inputs and the judgement of them. */
struct status {
	struct config c;
	struct enforcer en;
	struct probes p;
	struct lines find, notes, lack;
	struct remedy rm;
	enum level measured[NOPS], enforced[NOPS];
	const char *why[NOPS];
	int rc;
	const char *result;
};

static struct json_object *probes_json(const struct probe_result *pr)
{
	struct json_object *o = json_object_new_object();

	for (int r = 0; r < NRELS; r++, pr++) {
		struct json_object *j = json_object_new_object();

		pm_jset(j, "result", json_object_new_string(pr->out == PR_NOT_RUN ? "not-run" :
							    outcome_name(pr->out)));
		pm_jset(j, "errno", json_object_new_int(pr->err));
		pm_jset(j, "how", json_object_new_string(pr->how));
		pm_jset(j, "denied_count", pr->counted ? json_object_new_int64(pr->d_denied) : NULL);
		pm_jset(j, "would_deny_count", pr->counted ? json_object_new_int64(pr->d_would) : NULL);
		pm_jset(o, rel_names[r], j);
	}
	return o;
}

static void print_json(const struct status *s)
{
	struct json_object *o = json_object_new_object(), *ops = json_object_new_object();

	pm_jset(o, "command", json_object_new_string("status"));
	sources_json(o, &s->c);
	pm_jset(o, "enforcer", enforcer_json(&s->en));
	for (int op = 0; op < NOPS; op++) {
		struct json_object *j = json_object_new_object();

		pm_jset(j, "configured", json_object_new_string(level_name(s->c.configured[op])));
		pm_jset(j, "source", pm_jstr(s->c.source[op]));
		pm_jset(j, "measured", pm_jlevel(s->measured[op]));
		pm_jset(j, "why_unknown", pm_jstr(s->measured[op] == LV_UNKNOWN ? s->why[op] : NULL));
		pm_jset(j, "if_enforced", s->c.permissive ? pm_jlevel(s->enforced[op]) : NULL);
		pm_jset(j, "probes", probes_json(s->p.r[op]));
		pm_jset(ops, op_names[op], j);
	}
	pm_jset(o, "operations", ops);
	pm_jset(o, "lacks", json_lines(&s->lack));
	pm_jset(o, "findings", json_lines(&s->find));
	pm_jset(o, "notes", json_lines(&s->notes));
	pm_jset(o, "result", json_object_new_string(s->result));
	pm_jset(o, "exit", json_object_new_int(s->rc));
	pm_json_print(o, 1);
}

static void print_text(const struct status *s)
{
	const struct config *c = &s->c;

	print_sources_text(c, &s->en);
	printf("%-11s %-11s %-8s %-9s %-10s %-10s %s\n", "operation", "configured",
	       "source", "measured", "self", "other", "tracer");
	for (int o = 0; o < NOPS; o++) {
		printf("%-11s %-11s %-8s %-9s", op_names[o], level_name(c->configured[o]),
		       c->source[o], level_name(s->measured[o]));
		printf(" %-10s %-10s %s\n", cell(&s->p.r[o][REL_SELF]),
		       cell(&s->p.r[o][REL_OTHER]), cell(&s->p.r[o][REL_TRACER]));
	}
	if (c->permissive) {
		printf("if enforced:");
		for (int o = 0; o < NOPS; o++)
			printf(" %s=%s", op_names[o], level_name(s->enforced[o]));
		printf("  (would-deny counts of the probes)\n");
	}
}

static void print_verbose(const struct status *s)
{
	printf("\nprobes:\n");
	for (int o = 0; o < NOPS; o++)
		for (int r = 0; r < NRELS; r++)
			printf("  %-10s %-6s %-10s %s\n", op_names[o], rel_names[r],
			       cell(&s->p.r[o][r]), s->p.r[o][r].how);
}

static void print_findings(const struct status *s)
{
	printf("\n");
	for (int i = 0; i < s->lack.n; i++)
		printf("lacks:      %s\n", s->lack.s[i]);
	for (int i = 0; i < s->find.n; i++)
		printf("finding:    %s\n", s->find.s[i]);
	for (int i = 0; i < s->notes.n; i++)
		printf("note:       %s\n", s->notes.s[i]);
	printf("result:     %s\n", s->rc == EXIT_OK ? "ok: the measured policy is the configured one" :
	       s->rc == EXIT_FINDING ? "mismatch: see the findings above" :
	       "probe-failed: the probes could not measure the policy");
}

/* Measured against configured, operation by operation. */
static void judge_ops(struct status *s, int *errors)
{
	const struct config *c = &s->c;
	const char *why_enf;

	for (int o = 0; o < NOPS; o++) {
		enum level want = c->permissive ? LV_ALWAYS : c->configured[o];

		for (int r = 0; r < NRELS; r++)
			*errors += s->p.r[o][r].out == PR_ERROR;
		s->measured[o] = probes_level(&s->p, o, &s->why[o]);
		s->enforced[o] = probes_level_enforced(&s->p, o, &why_enf);
		if (!s->p.ran)
			s->why[o] = s->p.fatal;
		for (int r = 0; r < NRELS; r++) {
			const struct probe_result *pr = &s->p.r[o][r];

			if (pr->out == PR_DENIED && pr->counted && pr->d_denied <= 0)
				add(&s->find, "%s by %s was refused (%s) but proc_mem did not count a denial: something else refused it",
				    op_names[o], rel_names[r], strerror(pr->err));
		}
		if (c->permissive && s->enforced[o] != LV_UNKNOWN &&
		    s->enforced[o] != c->configured[o])
			add(&s->find, "%s: permissive mode would deny as %s, but %s is configured",
			    op_names[o], level_name(s->enforced[o]), level_name(c->configured[o]));
		if (s->measured[o] != LV_UNKNOWN && s->measured[o] != want)
			add(&s->find, "%s is configured %s%s but measured %s%s", op_names[o],
			    level_name(c->configured[o]),
			    c->permissive ? " (permissive: always)" : "",
			    level_name(s->measured[o]),
			    s->measured[o] < want ? ": weaker than configured" : "");
		else if (s->measured[o] == LV_UNKNOWN && s->why[o] &&
			 !strncmp(s->why[o], "inconsistent", 12))
			add(&s->find, "%s: %s", op_names[o], s->why[o]);
		else if (s->measured[o] == LV_UNKNOWN)
			add(&s->notes, "%s could not be measured: %s", op_names[o],
			    s->why[o] ? s->why[o] : "?");
	}
}

static void status_run(struct status *s, int timeout)
{
	struct config *c = &s->c;
	const struct enforcer *en = &s->en;
	int errors = 0;

	config_read(c);
	enforcer_read(&s->en);
	/*
	 * One composed policy: an access passes the kernel's check and the
	 * enforcer's, and the levels nest, so the stricter level is in force.
	 */
	if (en->loaded && en->have_policy && !en->permissive && !en->error[0])
		for (int o = 0; o < OP_FORCE; o++)
			if (en->level[o] > c->configured[o]) {
				c->configured[o] = en->level[o];
				c->source[o] = "bpf";
			}
	probes_run(&s->p, timeout);
	judge_ops(s, &errors);
	remedy_read(&s->rm);
	check_params(c, &s->rm, &s->find, &s->notes);
	if (c->permissive)
		for (int o = 0; o < NOPS; o++)
			if (c->configured[o] > LV_ALWAYS)
				add(&s->find, "permissive mode: %s=%s is logged, not enforced",
				    op_names[o], level_name(c->configured[o]));
	if (en->loaded && en->error[0])
		add(&s->find, "enforcer: %s", en->error);
	if (en->loaded && en->have_policy && en->permissive)
		for (int o = 0; o < OP_FORCE; o++)
			if (en->level[o] > LV_ALWAYS)
				add(&s->find, "enforcer permissive: %s=%s is logged, not enforced",
				    op_names[o], level_name(en->level[o]));
	lacks(c, en, &s->rm, &s->lack);
	force_ptrace_note(c, &s->rm, &s->notes);
	if (s->p.fatal[0])
		add(&s->notes, "probes: %s", s->p.fatal);

	if (!s->p.ran || errors || s->p.fatal[0]) {
		s->rc = EXIT_NORUN;
		s->result = "probe-failed";
	} else if (s->find.n) {
		s->rc = EXIT_FINDING;
		s->result = "mismatch";
	} else {
		s->rc = EXIT_OK;
		s->result = "ok";
	}
}

static void status_help(void)
{
	fputs("usage: procmem status [--json] [--verbose] [--timeout SECONDS]\n"
	      "The /proc/PID/mem policy: configured (boot parameters, kernel config,\n"
	      "sysctls, the BPF enforcer) and measured by probes on processes procmem\n"
	      "forks itself; mismatches; what the running kernel lacks and what provides it.\n"
	      "  --json           machine-readable output\n"
	      "  -v, --verbose    show every probe\n"
	      "  -t, --timeout S  give up the probes after S seconds (1-3600, 30)\n"
	      "  -h, --help       this text\n"
	      "Exit status: 0 the measured policy is the configured one, 1 a mismatch\n"
	      "or a policy weaker than requested, 2 usage, 3 the probes could not run.\n", stdout);
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct status s;
	int c, json = 0, verbose = 0;
	long timeout = 30;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hvt:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 't':
			if (pm_parse_long(optarg, 1, 3600, &timeout))
				return pm_usage_error("status", "--timeout takes 1 to 3600 seconds, not '%s'",
						      optarg);
			break;
		case 'h':
			status_help();
			return EXIT_OK;
		default:
			return pm_opt_error("status", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("status", "unexpected argument '%s'", argv[optind]);
	memset(&s, 0, sizeof(s));
	status_run(&s, (int)timeout);
	if (json) {
		print_json(&s);
		return s.rc;
	}
	print_text(&s);
	if (verbose)
		print_verbose(&s);
	print_findings(&s);
	return s.rc;
}
