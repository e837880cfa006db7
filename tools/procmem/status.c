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
		return verdict_name(PM_V_WOULD_DENY, VN_TEXT);
	return r->out == PR_NOT_RUN ? "-" : outcome_name(r->out);
}

static const char *kind_text(enum kernel_kind k)
{
	return k == K_PATCHED ? "per-operation /proc/PID/mem policy (proc_mem sysctls)" :
	       k == K_STOCK ? "stock /proc/PID/mem control (proc_mem.force_override only)" :
	       "no /proc/PID/mem controls";
}


#define COLUMNS		100	/* a text line fits a terminal this wide */
#define LABEL_WIDTH	12	/* "kernel:     " */
#define CONT_INDENT	14	/* a continuation line's: deeper than a label's */

/*
 * One labelled line, "LABEL TEXT", wrapped at spaces to COLUMNS with
 * continuation lines indented by CONT_INDENT; a `quoted command` is
 * never broken.  (JSON keeps each text whole.)
 */
static void say(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const char *label, const char *fmt, ...)
{
	char text[2048];
	const char *s = text;
	int col = printf("%-*s", LABEL_WIDTH, label), first = 1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	while (*s) {
		size_t len = 0;
		int quoted = 0;

		/* a word: up to a space outside backquotes */
		for (; s[len] && (quoted || s[len] != ' '); len++)
			quoted ^= s[len] == '`';
		if (!first && col + 1 + (int)len > COLUMNS) {
			col = printf("\n%*s", CONT_INDENT, "") - 1;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		col += printf("%.*s", (int)len, s);
		first = 0;
		s += len + (s[len] == ' ');
	}
	putchar('\n');
}

static void print_enforcer_text(const struct enforcer *e)
{
	if (!e->loaded)
		return;
	if (e->error[0] || !e->have_policy) {
		say("enforcer:", "%s: %s", PM_PIN_DIR, e->error[0] ? e->error : "no policy");
		return;
	}
	say("enforcer:", "BPF LSM (%s): open_read=%s open_write=%s write=%s permissive=%d (%s%s)",
	    PM_PIN_DIR, level_name(e->level[OP_OPEN_READ]), level_name(e->level[OP_OPEN_WRITE]),
	    level_name(e->level[OP_WRITE]), e->permissive,
	    e->scope >= 0 ? "cgroup override " : "machine", e->scope >= 0 ? e->scope_path : "");
	say("enforced:", "open_read %llu/%llu open_write %llu/%llu write %llu/%llu (denied/would deny, before the probes)",
	    e->denied[0], e->would_deny[0], e->denied[1], e->would_deny[1],
	    e->denied[2], e->would_deny[2]);
}

static void print_sources_text(const struct config *c, const struct enforcer *e)
{
	say("kernel:", "%s, %s (%s)", c->release, kind_text(c->kind), c->kind_basis);
	if (!c->cmdline_read)
		printf("cmdline:    /proc/cmdline unreadable\n");
	else if (!c->nparams)
		printf("cmdline:    no proc_mem.* parameters\n");
	for (int i = 0; i < c->nparams; i++)
		printf("%s proc_mem.%s%s%s\n", i ? "           " : "cmdline:   ",
		       c->params[i].name, c->params[i].has_value ? "=" : "",
		       c->params[i].value);
	if (!c->kconfig_src[0]) {
		say("kconfig:", "unavailable (%s)", c->kconfig_err);
	} else {
		char syms[NOPS * 48 + 64] = "";

		for (int o = 0; o < NOPS; o++)
			if (c->kconfig_sym[o][0])
				snprintf(syms + strlen(syms), sizeof(syms) - strlen(syms), " %s",
					 c->kconfig_sym[o]);
		say("kconfig:", "%s:%s", c->kconfig_src, syms[0] ? syms : " no CONFIG_PROC_MEM_* choice");
	}
	if (!c->have_sysctl) {
		say("sysctl:", "/proc/sys/kernel/proc_mem absent");
	} else {
		char buf[512] = "";

		for (int o = 0; o < NOPS; o++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s=%s", op_names[o],
				 level_name(c->sysctl[o]));
		say("sysctl:", "/proc/sys/kernel/proc_mem:%s permissive=%d", buf, c->sysctl_permissive);
		buf[0] = 0;
		for (int o = 0; o < NOPS; o++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s %ld/%ld",
				 o ? " " : "", op_names[o], c->denied[o][0], c->denied[o][1]);
		say("denied:", "%s (denied/would deny, before the probes)", buf);
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

			pm_jset(n, verdict_name(PM_V_DENIED, VN_KEY), json_object_new_int64(c->denied[op][0]));
			pm_jset(n, verdict_name(PM_V_WOULD_DENY, VN_KEY),
				json_object_new_int64(c->denied[op][1]));
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

		pm_jset(n, verdict_name(PM_V_DENIED, VN_KEY), json_object_new_uint64(e->denied[op]));
		pm_jset(n, verdict_name(PM_V_WOULD_DENY, VN_KEY),
			json_object_new_uint64(e->would_deny[op]));
		pm_jset(d, op_names[op], n);
	}
	pm_jset(o, "denied", d);
	return o;
}

/* What status found: the inputs and the judgement of them. */

/* "denied_count", "would_deny_count": a verdict's key and _count. */
static const char *count_key(int v, char *buf, size_t n)
{
	snprintf(buf, n, "%s_count", verdict_name(v, VN_KEY));
	return buf;
}

static struct json_object *probes_json(const struct probe_result *pr)
{
	struct json_object *o = json_object_new_object();
	char key[2][32];

	for (int r = 0; r < NRELS; r++, pr++) {
		struct json_object *j = json_object_new_object();

		pm_jset(j, "result", json_object_new_string(pr->out == PR_NOT_RUN ? "not-run" :
							    outcome_name(pr->out)));
		pm_jset(j, "errno", json_object_new_int(pr->err));
		pm_jset(j, "how", json_object_new_string(pr->how));
		pm_jset(j, count_key(PM_V_DENIED, key[0], sizeof(key[0])),
			pr->counted ? json_object_new_int64(pr->d_denied) : NULL);
		pm_jset(j, count_key(PM_V_WOULD_DENY, key[1], sizeof(key[1])),
			pr->counted ? json_object_new_int64(pr->d_would) : NULL);
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
		char lv[NOPS * 32] = "";

		for (int o = 0; o < NOPS; o++)
			snprintf(lv + strlen(lv), sizeof(lv) - strlen(lv), "%s%s=%s", o ? " " : "",
				 op_names[o], level_name(s->enforced[o]));
		say("if enforced: ", "%s  (%s counts of the probes)", lv,
		    verdict_name(PM_V_WOULD_DENY, VN_TEXT));
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
		say("lacks:", "%s", s->lack.s[i]);
	for (int i = 0; i < s->find.n; i++)
		say("finding:", "%s", s->find.s[i]);
	for (int i = 0; i < s->notes.n; i++)
		say("note:", "%s", s->notes.s[i]);
	printf("result:     %s\n", s->rc == EXIT_OK ? "ok: the measured policy is the configured one" :
	       s->rc == EXIT_FINDING ? "mismatch: see the findings above" :
	       "probe-failed: the probes could not measure the policy");
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
	assess(&s, (int)timeout);
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
