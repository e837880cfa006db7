// SPDX-License-Identifier: GPL-2.0
/*
 * procmem: tell which /proc/PID/mem policy is really in force.
 *
 *   procmem status [--json] [--verbose] [--timeout S]
 *   procmem scan [--json]
 *
 * See procmem.1 and docs/interface.md.
 */
#include "procmem.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 32

struct lines {
	char s[MAX_LINES][256];
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

void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_lines(FILE *f, const char *key, const struct lines *l)
{
	fprintf(f, "  \"%s\": [", key);
	for (int i = 0; i < l->n; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, l->s[i]);
	}
	fputs("],\n", f);
}

/* A probe's outcome for the table: permissive mode allows what it
 * would deny, and counts it. */
static const char *cell(const struct probe_result *r)
{
	if (r->out == PR_ALLOWED && r->counted && r->d_would > 0)
		return "would-deny";
	return r->out == PR_NOT_RUN ? "-" : outcome_name(r->out);
}

static const char *json_level(enum level lv)
{
	return lv == LV_UNKNOWN ? NULL : level_name(lv);
}

static void usage(FILE *f)
{
	fputs("usage: procmem status [--json] [--verbose] [--timeout SECONDS]\n"
	      "       procmem scan [--json]\n"
	      "       procmem enforce [--open-read=L] [--open-write=L] [--write=L]\n"
	      "                       [--permissive] [--cgroup PATH] [--verbose]\n"
	      "       procmem enforce --off [--cgroup PATH] | --config FILE\n"
	      "       procmem watch [--json] [--count N] [--all]\n"
	      "       procmem advise [--json] [--observe SECONDS] [--records FILE]...\n"
	      "                      [--profile NAME] [--installed] [--program COMM=SUBJECT]...\n"
	      "                      [--matrix FILE]\n"
	      "       procmem --help\n"
	      "\n"
	      "status  the /proc/PID/mem policy: configured (boot parameters,\n"
	      "        kernel config, sysctls) and measured by probes on\n"
	      "        processes procmem forks itself; mismatches; what the\n"
	      "        running kernel lacks\n"
	      "scan    processes holding a /proc/PID/mem file open now\n"
	      "enforce the policy for open_read, open_write and write through\n"
	      "        BPF LSM on kernels without the series (levels L: always,\n"
	      "        self, ptrace, never), pinned under /sys/fs/bpf/procmem;\n"
	      "        no options: show it\n"
	      "watch   denials (and would-denies) of mem file accesses as they\n"
	      "        happen; --all: allowed accesses too\n"
	      "advise  the strictest policy this machine can take, per operation:\n"
	      "        the compatibility matrix, the programs here, the records of a\n"
	      "        permissive period; what stricter levels break; lines to apply\n"
	      "        (--profile desktop|server|container-host|appliance: judge one)\n"
	      "\n"
	      "  --json          machine-readable output\n"
	      "  -v, --verbose   status: show every probe\n"
	      "  --timeout S     status: give up the probes after S seconds (30)\n"
	      "\n"
	      "exit status:\n"
	      "  0  status: measured policy is the configured one; scan: complete\n"
	      "  1  status: a mismatch, or a policy weaker than requested;\n"
	      "     scan: some processes could not be inspected\n"
	      "  2  usage error\n"
	      "  3  the probes (or the scan) could not run; watch: no enforcer\n"
	      "advise: 0 at the advice (or profile), 1 not at it, 3 cannot read the\n"
	      "  matrix or observe, 4 the policy in force breaks something seen here,\n"
	      "  5 the profile would\n"
	      "enforce: 1 shown degraded; refusals (nothing applied): 2 bad level,\n"
	      "  4 not root, 5 BPF LSM not active, 6 no BTF, 7 a cgroup path too deep\n"
	      "  or a bad name, 8 BPF failure, 9 the self-check failed (all unloaded),\n"
	      "  10 lockdown forbids it on this kernel\n", f);
}

static const char *kind_name(enum kernel_kind k)
{
	return k == K_PATCHED ? "patched" : k == K_STOCK ? "stock" : "none";
}

static const char *kind_text(enum kernel_kind k)
{
	return k == K_PATCHED ? "per-operation /proc/PID/mem policy (proc_mem sysctls)" :
	       k == K_STOCK ? "stock /proc/PID/mem control (proc_mem.force_override only)" :
	       "no /proc/PID/mem controls";
}

static void lacks(const struct config *c, const struct enforcer *e,
		  struct lines *l)
{
	if (e->loaded && e->have_policy) {
		if (c->kind == K_PATCHED)
			return;
		add(l, "a control of force beyond %s (no LSM hook: the enforcer cannot restrict FOLL_FORCE)",
		    c->kind == K_STOCK ? "proc_mem.force_override" : "nothing");
		return;
	}
	switch (c->kind) {
	case K_NONE:
		add(l, "any /proc/PID/mem control: proc_mem.force_override came with Linux 6.11");
		break;
	case K_STOCK:
		add(l, "controls for open_read, open_write and write (proc_mem.restrict_*)");
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
static void check_params(const struct config *c, struct lines *find,
			 struct lines *notes)
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
			add(want > LV_ALWAYS ? find : notes,
			    "proc_mem.%s=%s is ignored: this kernel has no such parameter (%s stays %s)",
			    p->name, p->value, op_names[p->op],
			    level_name(c->configured[p->op]));
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
	}
	print_enforcer_text(e);
	printf("permissive: %s\n\n", c->permissive ? "yes: levels are logged, not enforced" : "no");
}

static void print_sources_json(const struct config *c)
{
	printf("  \"kernel\": {\"release\": ");
	json_str(stdout, c->release);
	printf(", \"controls\": \"%s\", \"basis\": ", kind_name(c->kind));
	json_str(stdout, c->kind_basis);
	printf("},\n  \"cmdline\": [");
	for (int i = 0; i < c->nparams; i++) {
		const struct param *p = &c->params[i];
		char name[80];

		snprintf(name, sizeof(name), "proc_mem.%s", p->name);
		printf("%s{\"param\": ", i ? ", " : "");
		json_str(stdout, name);
		printf(", \"value\": ");
		json_str(stdout, p->has_value ? p->value : NULL);
		printf(", \"known\": %s, \"valid\": %s}", p->known ? "true" : "false",
		       p->valid ? "true" : "false");
	}
	printf("],\n  \"kconfig\": {\"source\": ");
	json_str(stdout, c->kconfig_src[0] ? c->kconfig_src : NULL);
	printf(", \"error\": ");
	json_str(stdout, c->kconfig_src[0] ? NULL : c->kconfig_err);
	for (int o = 0; o < NOPS; o++) {
		printf(", \"%s\": ", op_names[o]);
		json_str(stdout, c->kconfig_sym[o][0] ? c->kconfig_sym[o] : NULL);
	}
	printf("},\n  \"sysctl\": ");
	if (!c->have_sysctl) {
		printf("null,\n");
	} else {
		printf("{");
		for (int o = 0; o < NOPS; o++) {
			printf("\"%s\": ", op_names[o]);
			json_str(stdout, json_level(c->sysctl[o]));
			printf(", ");
		}
		printf("\"permissive\": %d, \"denied\": {", c->sysctl_permissive);
		for (int o = 0; o < NOPS; o++)
			printf("%s\"%s\": {\"denied\": %ld, \"would_deny\": %ld}",
			       o ? ", " : "", op_names[o], c->denied[o][0], c->denied[o][1]);
		printf("}},\n");
	}
	printf("  \"permissive\": %s,\n", c->permissive ? "true" : "false");
}

static void print_enforcer_json(const struct enforcer *e)
{
	printf("  \"enforcer\": ");
	if (!e->loaded || !e->have_policy) {
		printf("null,\n");
		return;
	}
	printf("{\"pinned\": \"%s\"", PM_PIN_DIR);
	for (int o = 0; o < OP_FORCE; o++)
		printf(", \"%s\": \"%s\"", op_names[o], level_name(e->level[o]));
	printf(", \"permissive\": %s, \"scope\": ", e->permissive ? "true" : "false");
	json_str(stdout, e->scope >= 0 ? e->scope_path : "machine");
	printf(", \"denied\": {");
	for (int o = 0; o < OP_FORCE; o++)
		printf("%s\"%s\": {\"denied\": %llu, \"would_deny\": %llu}", o ? ", " : "",
		       op_names[o], e->denied[o], e->would_deny[o]);
	printf("}},\n");
}

static int cmd_status(int json, int verbose, int timeout)
{
	struct config c;
	struct enforcer en;
	struct probes p;
	struct lines find = { .n = 0 }, notes = { .n = 0 }, lack = { .n = 0 };
	enum level measured[NOPS], enforced[NOPS];
	const char *why[NOPS], *why_enf;
	int errors = 0, rc;
	const char *result;

	config_read(&c);
	enforcer_read(&en);
	/*
	 * One composed policy: an access passes the kernel's check and the
	 * enforcer's, and the levels nest, so the stricter level is in force.
	 */
	if (en.loaded && en.have_policy && !en.permissive && !en.error[0])
		for (int o = 0; o < OP_FORCE; o++)
			if (en.level[o] > c.configured[o]) {
				c.configured[o] = en.level[o];
				c.source[o] = "bpf";
			}
	probes_run(&p, timeout);

	for (int o = 0; o < NOPS; o++) {
		enum level want = c.permissive ? LV_ALWAYS : c.configured[o];

		for (int r = 0; r < NRELS; r++)
			errors += p.r[o][r].out == PR_ERROR;
		measured[o] = probes_level(&p, o, &why[o]);
		enforced[o] = probes_level_enforced(&p, o, &why_enf);
		if (!p.ran)
			why[o] = p.fatal;
		for (int r = 0; r < NRELS; r++) {
			const struct probe_result *pr = &p.r[o][r];

			if (pr->out == PR_DENIED && pr->counted && pr->d_denied <= 0)
				add(&find, "%s by %s was refused (%s) but proc_mem did not count a denial: something else refused it",
				    op_names[o], rel_names[r], strerror(pr->err));
		}
		if (c.permissive && enforced[o] != LV_UNKNOWN &&
		    enforced[o] != c.configured[o])
			add(&find, "%s: permissive mode would deny as %s, but %s is configured",
			    op_names[o], level_name(enforced[o]), level_name(c.configured[o]));
		if (measured[o] != LV_UNKNOWN && measured[o] != want)
			add(&find, "%s is configured %s%s but measured %s%s", op_names[o],
			    level_name(c.configured[o]),
			    c.permissive ? " (permissive: always)" : "",
			    level_name(measured[o]),
			    measured[o] < want ? ": weaker than configured" : "");
		else if (measured[o] == LV_UNKNOWN && why[o] &&
			 !strncmp(why[o], "inconsistent", 12))
			add(&find, "%s: %s", op_names[o], why[o]);
		else if (measured[o] == LV_UNKNOWN)
			add(&notes, "%s could not be measured: %s", op_names[o],
			    why[o] ? why[o] : "?");
	}
	check_params(&c, &find, &notes);
	if (c.permissive)
		for (int o = 0; o < NOPS; o++)
			if (c.configured[o] > LV_ALWAYS) {
				add(&find, "permissive mode: %s=%s is logged, not enforced",
				    op_names[o], level_name(c.configured[o]));
			}
	if (en.loaded && en.error[0])
		add(&find, "enforcer: %s", en.error);
	if (en.loaded && en.have_policy && en.permissive)
		for (int o = 0; o < OP_FORCE; o++)
			if (en.level[o] > LV_ALWAYS)
				add(&find, "enforcer permissive: %s=%s is logged, not enforced",
				    op_names[o], level_name(en.level[o]));
	lacks(&c, &en, &lack);
	if (p.fatal[0])
		add(&notes, "probes: %s", p.fatal);

	if (!p.ran || errors || p.fatal[0]) {
		rc = EXIT_NORUN;
		result = "probe-failed";
	} else if (find.n) {
		rc = EXIT_FINDING;
		result = "mismatch";
	} else {
		rc = EXIT_OK;
		result = "ok";
	}

	if (json) {
		printf("{\n  \"command\": \"status\",\n");
		print_sources_json(&c);
		print_enforcer_json(&en);
		printf("  \"operations\": {\n");
		for (int o = 0; o < NOPS; o++) {
			printf("    \"%s\": {\"configured\": \"%s\", \"source\": \"%s\", \"measured\": ",
			       op_names[o], level_name(c.configured[o]), c.source[o]);
			json_str(stdout, json_level(measured[o]));
			printf(", \"why_unknown\": ");
			json_str(stdout, measured[o] == LV_UNKNOWN ? why[o] : NULL);
			printf(", \"if_enforced\": ");
			json_str(stdout, c.permissive ? json_level(enforced[o]) : NULL);
			printf(", \"probes\": {");
			for (int r = 0; r < NRELS; r++) {
				const struct probe_result *pr = &p.r[o][r];

				printf("%s\"%s\": {\"result\": \"%s\", \"errno\": %d, \"how\": ",
				       r ? ", " : "", rel_names[r],
				       pr->out == PR_NOT_RUN ? "not-run" : outcome_name(pr->out),
				       pr->err);
				json_str(stdout, pr->how);
				if (pr->counted)
					printf(", \"denied_count\": %ld, \"would_deny_count\": %ld}",
					       pr->d_denied, pr->d_would);
				else
					printf(", \"denied_count\": null, \"would_deny_count\": null}");
			}
			printf("}}%s\n", o < NOPS - 1 ? "," : "");
		}
		printf("  },\n");
		json_lines(stdout, "lacks", &lack);
		json_lines(stdout, "findings", &find);
		json_lines(stdout, "notes", &notes);
		printf("  \"result\": \"%s\",\n  \"exit\": %d\n}\n", result, rc);
		return rc;
	}

	print_sources_text(&c, &en);
	printf("%-11s %-11s %-8s %-9s %-10s %-10s %s\n", "operation", "configured",
	       "source", "measured", "self", "other", "tracer");
	for (int o = 0; o < NOPS; o++) {
		printf("%-11s %-11s %-8s %-9s", op_names[o], level_name(c.configured[o]),
		       c.source[o], level_name(measured[o]));
		printf(" %-10s %-10s %s\n", cell(&p.r[o][REL_SELF]),
		       cell(&p.r[o][REL_OTHER]), cell(&p.r[o][REL_TRACER]));
	}
	if (c.permissive) {
		printf("if enforced:");
		for (int o = 0; o < NOPS; o++)
			printf(" %s=%s", op_names[o], level_name(enforced[o]));
		printf("  (would-deny counts of the probes)\n");
	}
	if (verbose) {
		printf("\nprobes:\n");
		for (int o = 0; o < NOPS; o++)
			for (int r = 0; r < NRELS; r++)
				printf("  %-10s %-6s %-10s %s\n", op_names[o], rel_names[r],
				       cell(&p.r[o][r]), p.r[o][r].how);
	}
	printf("\n");
	for (int i = 0; i < lack.n; i++)
		printf("lacks:      %s\n", lack.s[i]);
	for (int i = 0; i < find.n; i++)
		printf("finding:    %s\n", find.s[i]);
	for (int i = 0; i < notes.n; i++)
		printf("note:       %s\n", notes.s[i]);
	printf("result:     %s\n", rc == EXIT_OK ? "ok: the measured policy is the configured one" :
	       rc == EXIT_FINDING ? "mismatch: see the findings above" :
	       "probe-failed: the probes could not measure the policy");
	return rc;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("procmem: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'procmem --help'.\n", stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const char *cmd = NULL;
	int json = 0, verbose = 0, timeout = 30, have_timeout = 0;

	/* enforce, watch and advise parse their own options. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "enforce"))
			return cmd_enforce(argc - i, argv + i);
		if (!strcmp(argv[i], "watch"))
			return cmd_watch(argc - i, argv + i);
		if (!strcmp(argv[i], "advise"))
			return cmd_advise(argc, argv);
		if (!strcmp(argv[i], "metrics"))
			return cmd_metrics(argc - i, argv + i);
		if (argv[i][0] != '-')
			break;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--timeout") || !strncmp(a, "--timeout=", 10)) {
			const char *v = a[9] == '=' ? a + 10 : i + 1 < argc ? argv[++i] : NULL;
			char *end;
			long t;

			if (!v)
				return bad_usage("%s needs a number of seconds", a);
			errno = 0;
			t = strtol(v, &end, 10);
			if (errno || end == v || *end || t < 1 || t > 3600)
				return bad_usage("--timeout takes 1 to 3600 seconds, not '%s'", v);
			timeout = (int)t;
			have_timeout = 1;
		} else if (a[0] == '-') {
			return bad_usage("unknown option '%s'", a);
		} else if (!cmd) {
			cmd = a;
		} else {
			return bad_usage("unexpected argument '%s'", a);
		}
	}
	if (!cmd)
		return bad_usage("%s", "no command given (status, scan, enforce, watch or advise)");
	if (!strcmp(cmd, "status"))
		return cmd_status(json, verbose, timeout);
	if (!strcmp(cmd, "scan")) {
		if (verbose || have_timeout)
			return bad_usage("%s", "scan takes no --verbose or --timeout");
		return cmd_scan(json);
	}
	return bad_usage("unknown command '%s' (status, scan, enforce, watch or advise)", cmd);
}
