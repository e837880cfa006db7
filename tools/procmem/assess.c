// SPDX-License-Identifier: GPL-2.0
/*
 * The judgement of procmem status: the configured policy (boot
 * parameters, kernel config, sysctls, the BPF enforcer, composed by
 * policy_in_force()) against the one probes measure on processes procmem
 * forks itself; findings, notes, and what the running kernel lacks with
 * its remedy.  Prints nothing: status.c prints it, metrics.c exports its
 * verdict.
 */
#include "procmem.h"

#include <stdarg.h>
#include <string.h>

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

/* Whether the enforcer could provide what this kernel lacks: procmem
 * enforce's own checks, read once. */
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
		add(l, "any /proc/PID/mem control: proc_mem.force_override came with Linux 6.12; for open_read, open_write and write %s",
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
			char levels[128];

			level_list(levels, sizeof(levels), ", ", ", ");
			add(find, "proc_mem.%s=%s: invalid value for this kernel (it accepts %s); %s stays %s",
			    p->name, p->value, c->kind == K_STOCK ? "always, ptrace, never" : levels,
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

int assess(struct status *s, int timeout)
{
	struct config *c = &s->c;
	const struct enforcer *en = &s->en;
	int errors = 0;

	memset(s, 0, sizeof(*s));
	config_read(c);
	enforcer_read(&s->en);
	/* the kernel's levels with an enforcer that is whole and enforcing */
	policy_in_force(c->configured, c->source, en->error[0] ? NULL : en);
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
	return s->rc;
}
