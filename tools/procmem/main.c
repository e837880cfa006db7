// SPDX-License-Identifier: GPL-2.0
/*
 * procmem: which /proc/PID/mem policy is in force, and its BPF LSM
 * enforcer.  main() and the table of subcommands; each subcommand parses
 * its own options (getopt_long) and lives in a file of its own.
 * See procmem.1 and docs/interface.md.
 */
#include "procmem.h"

#include <stdio.h>
#include <string.h>

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* one line for procmem --help */
} cmds[] = {
	{ "status", cmd_status, "the policy configured and measured by probes; what the kernel lacks" },
	{ "scan", cmd_scan, "processes holding a /proc/PID/mem file open now" },
	{ "enforce", cmd_enforce, "the BPF LSM enforcer: load, change, show or remove its policy" },
	{ "watch", cmd_watch, "denials (and would-denies, allowed accesses) as they happen" },
	{ "advise", cmd_advise, "the strictest policy this machine can take, and what it breaks" },
	{ "metrics", cmd_metrics, "the counters and the policy in force, for Prometheus" },
};

static void usage(FILE *f)
{
	fputs("usage: procmem COMMAND [OPTION]... (procmem COMMAND --help)\n"
	      "       procmem --help | --version\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fputs("\nexit status (procmem.1 lists each command's):\n"
	      "  0  ok; 1 a finding (status: a mismatch; scan: incomplete; advise: not at\n"
	      "     the advice); 2 usage error; 3 could not run (probes, scan, matrix,\n"
	      "     nothing to watch); 4-10 enforce's refusals (4 not root, 5 BPF LSM not\n"
	      "     active, 6 no BTF, 7 cgroup path, 8 BPF failure, 9 self-check failed,\n"
	      "     10 lockdown); 11 advise: the policy in force breaks something seen\n"
	      "     here; 12 advise --profile: the profile would; 13 enforce: the\n"
	      "     kernel's BTF lacks a field, hook or helper the programs need; 14\n"
	      "     enforce: the unit, container or pod (or its manager) is not there\n", f);
}

int main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : NULL;

	if (!a)
		return pm_usage_error(NULL, "no command given (status, scan, enforce, watch, advise or metrics)");
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
		printf("procmem %s\n", PROCMEM_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(a, cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	if (a[0] == '-')
		return pm_usage_error(NULL, "unknown option '%s' before the command", a);
	return pm_usage_error(NULL, "unknown command '%s' (status, scan, enforce, watch, advise or metrics)", a);
}
