// SPDX-License-Identifier: GPL-2.0
/*
 * The configured /proc/PID/mem policy: kernel release, boot parameters
 * (/proc/cmdline), kernel config (/boot/config-RELEASE or /proc/config.gz)
 * and, on the patched kernel, the sysctls under /proc/sys/kernel/proc_mem.
 */
#include "procmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSCTL_DIR "/proc/sys/kernel/proc_mem"

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* The kernel treats '-' and '_' in parameter names alike. */
static void dash2underscore(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

static const struct {
	const char *name;
	int op;			/* -1: permissive */
	int stock;		/* known to a stock (mainline) kernel */
} param_defs[] = {
	{ "force_override", OP_FORCE, 1 },
	{ "restrict_foll_force", OP_FORCE, 0 },
	{ "restrict_open_read", OP_OPEN_READ, 0 },
	{ "restrict_open_write", OP_OPEN_WRITE, 0 },
	{ "restrict_write", OP_WRITE, 0 },
	{ "permissive", -1, 0 },
};

/* kstrtobool() as the kernel's bool parameters use it; -1 if invalid. */
static int parse_bool(const struct param *p)
{
	const char *v = p->value;

	if (!p->has_value)
		return 1;
	switch (v[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		return 1;
	case 'n': case 'N': case 'f': case 'F': case '0':
		return 0;
	case 'o': case 'O':
		if (v[1] == 'n' || v[1] == 'N')
			return 1;
		if (v[1] == 'f' || v[1] == 'F')
			return 0;
		break;
	default:
		break;
	}
	return -1;
}

static void add_param(struct config *c, const char *tok)
{
	struct param *p;
	const char *eq;
	size_t n;

	if (c->nparams >= MAX_PARAMS)
		return;
	p = &c->params[c->nparams++];
	memset(p, 0, sizeof(*p));
	p->op = -1;
	p->level = LV_UNKNOWN;
	tok += strlen("proc_mem.");
	eq = strchr(tok, '=');
	n = eq ? (size_t)(eq - tok) : strlen(tok);
	if (n >= sizeof(p->name))
		n = sizeof(p->name) - 1;
	memcpy(p->name, tok, n);
	p->name[n] = '\0';
	dash2underscore(p->name);
	if (eq) {
		p->has_value = 1;
		snprintf(p->value, sizeof(p->value), "%s", eq + 1);
	}
	for (size_t i = 0; i < sizeof(param_defs) / sizeof(param_defs[0]); i++) {
		if (strcmp(p->name, param_defs[i].name))
			continue;
		p->op = param_defs[i].op;
		p->known = c->kind == K_PATCHED ||
			   (c->kind == K_STOCK && param_defs[i].stock);
		if (p->op >= 0 && p->has_value)
			p->level = parse_level(p->value, c->kind == K_PATCHED);
		/* The stock kernel knows no level "self". */
		if (c->kind == K_STOCK && p->level == LV_SELF)
			p->level = LV_UNKNOWN;
		return;
	}
}

/* Splits /proc/cmdline like the kernel: spaces, double quotes, "--". */
static void read_cmdline(struct config *c)
{
	char buf[4096], tok[512];
	const char *s = buf;

	if (pm_read_small("/proc/cmdline", buf, sizeof(buf)) < 0)
		return;
	c->cmdline_read = 1;
	for (;;) {
		size_t n = 0;
		int quoted = 0;

		while (*s == ' ' || *s == '\n' || *s == '\t')
			s++;
		if (!*s)
			break;
		while (*s && (quoted || (*s != ' ' && *s != '\n' && *s != '\t'))) {
			if (*s == '"')
				quoted = !quoted;
			else if (n < sizeof(tok) - 1)
				tok[n++] = *s;
			s++;
		}
		tok[n] = '\0';
		if (!strcmp(tok, "--"))
			break;		/* the rest is init's */
		if (!strncmp(tok, "proc_mem.", 9))
			add_param(c, tok);
	}
}

/* Opens the kernel config as a stream: /boot/config-RELEASE, or
 * /proc/config.gz through zcat (no zlib dependency). */
static FILE *open_kconfig(struct config *c, pid_t *child)
{
	char path[sizeof(c->release) + 16];
	int fd[2];
	FILE *f;

	*child = -1;
	snprintf(path, sizeof(path), "/boot/config-%s", c->release);
	f = fopen(path, "re");
	if (f) {
		snprintf(c->kconfig_src, sizeof(c->kconfig_src), "%s", path);
		return f;
	}
	if (access("/proc/config.gz", R_OK)) {
		snprintf(c->kconfig_err, sizeof(c->kconfig_err),
			 "neither %s nor /proc/config.gz", path);
		return NULL;
	}
	if (pipe2(fd, O_CLOEXEC) < 0)
		return NULL;
	*child = fork();
	if (*child < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (*child == 0) {
		dup2(fd[1], 1);
		execlp("zcat", "zcat", "/proc/config.gz", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (!f)
		close(fd[0]);
	snprintf(c->kconfig_src, sizeof(c->kconfig_src), "/proc/config.gz");
	return f;
}

static int kconfig_seen_force, kconfig_seen_fine;

static void kconfig_line(struct config *c, const char *line)
{
	/* the kernel's Kconfig choices, by level */
	static const char *const force_syms[NLEVELS] = {
		"ALWAYS_FORCE", "FORCE_SELF", "FORCE_PTRACE", "NO_FORCE",
	};
	static const char *const op_syms[PM_NOPS] = { "OPEN_READ", "OPEN_WRITE", "WRITE" };
	static const char *const lv_syms[NLEVELS] = { "ALWAYS", "SELF", "PTRACE", "NEVER" };
	char sym[32];
	const char *p = line;
	int set;

	if (!strncmp(p, "# ", 2))
		p += 2;
	if (strncmp(p, "CONFIG_PROC_MEM_", 16))
		return;
	set = p == line && strstr(p, "=y") != NULL;
	snprintf(sym, sizeof(sym), "%.*s", (int)strcspn(p + 16, "= \n"), p + 16);
	for (int l = 0; l < NLEVELS; l++) {
		if (strcmp(sym, force_syms[l]))
			continue;
		kconfig_seen_force = 1;
		if (l == LV_SELF)
			kconfig_seen_fine = 1;
		if (set) {
			c->kconfig[OP_FORCE] = (enum level)l;
			snprintf(c->kconfig_sym[OP_FORCE], sizeof(c->kconfig_sym[0]),
				 "CONFIG_PROC_MEM_%s", sym);
		}
		return;
	}
	for (int o = 0; o < PM_NOPS; o++) {
		for (int l = 0; l < NLEVELS; l++) {
			char want[48];

			snprintf(want, sizeof(want), "%s_%s", op_syms[o], lv_syms[l]);
			if (strcmp(sym, want))
				continue;
			kconfig_seen_fine = 1;
			if (set) {
				c->kconfig[o] = (enum level)l;
				snprintf(c->kconfig_sym[o], sizeof(c->kconfig_sym[0]),
					 "CONFIG_PROC_MEM_%s", sym);
			}
			return;
		}
	}
}

static int read_kconfig(struct config *c)
{
	char line[512];
	pid_t child;
	int status, lines = 0;
	FILE *f = open_kconfig(c, &child);

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		lines++;
		kconfig_line(c, line);
	}
	fclose(f);
	if (child > 0 && (waitpid(child, &status, 0) < 0 ||
			  !WIFEXITED(status) || WEXITSTATUS(status) || !lines)) {
		snprintf(c->kconfig_err, sizeof(c->kconfig_err),
			 "could not decompress /proc/config.gz with zcat");
		c->kconfig_src[0] = '\0';
		for (int o = 0; o < NOPS; o++)
			c->kconfig[o] = LV_UNKNOWN;
		return 0;
	}
	return 1;
}

static void read_sysctl(struct config *c)
{
	char path[128], buf[512];

	for (int o = 0; o < NOPS; o++) {
		snprintf(path, sizeof(path), SYSCTL_DIR "/%s", op_names[o]);
		if (pm_read_small(path, buf, sizeof(buf)) < 0)
			continue;
		chomp(buf);
		c->sysctl[o] = parse_level(buf, 1);
	}
	if (pm_read_small(SYSCTL_DIR "/permissive", buf, sizeof(buf)) >= 0)
		c->sysctl_permissive = atoi(buf) != 0;
	read_denied(c->denied);
}

/*
 * The counters, one value per file: SYSCTL_DIR/denied/OP and
 * SYSCTL_DIR/would_deny/OP (64-bit).  0 when all eight were read.
 */
int read_denied(long (*out)[2])
{
	char path[128], buf[64], *end;

	for (int o = 0; o < NOPS; o++)
		for (int k = 0; k < 2; k++) {
			long long v;

			snprintf(path, sizeof(path), SYSCTL_DIR "/%s/%s",
				 verdict_name(k ? PM_V_WOULD_DENY : PM_V_DENIED, VN_KEY), op_names[o]);
			if (pm_read_small(path, buf, sizeof(buf)) < 0)
				return -1;
			errno = 0;
			v = strtoll(buf, &end, 10);
			if (errno || end == buf || (*end && *end != '\n') || v < 0)
				return -1;
			out[o][k] = (long)v;
		}
	return 0;
}

void config_read(struct config *c)
{
	struct utsname u;
	int have_kconfig;

	memset(c, 0, sizeof(*c));
	c->sysctl_permissive = -1;
	for (int o = 0; o < NOPS; o++) {
		c->kconfig[o] = c->sysctl[o] = c->configured[o] = LV_UNKNOWN;
		c->denied[o][0] = c->denied[o][1] = -1;
	}
	if (uname(&u) == 0)
		snprintf(c->release, sizeof(c->release), "%s", u.release);
	if (sscanf(c->release, "%d.%d", &c->major, &c->minor) != 2)
		c->major = c->minor = 0;

	c->have_sysctl = access(SYSCTL_DIR, F_OK) == 0;
	if (c->have_sysctl)
		read_sysctl(c);
	kconfig_seen_force = kconfig_seen_fine = 0;
	have_kconfig = read_kconfig(c);

	if (c->have_sysctl) {
		c->kind = K_PATCHED;
		c->kind_basis = SYSCTL_DIR " exists";
	} else if (have_kconfig && kconfig_seen_fine) {
		c->kind = K_PATCHED;
		c->kind_basis = "kernel config (no sysctls)";
	} else if (have_kconfig && kconfig_seen_force) {
		c->kind = K_STOCK;
		c->kind_basis = "kernel config";
	} else if (have_kconfig) {
		c->kind = K_NONE;
		c->kind_basis = "kernel config has no CONFIG_PROC_MEM_*";
	} else if (c->major > 6 || (c->major == 6 && c->minor >= 12)) {
		c->kind = K_STOCK;
		c->kind_basis = "assumed from the release (6.12 or later)";
	} else {
		c->kind = K_NONE;
		c->kind_basis = "assumed from the release (before 6.12)";
	}

	/* Parameters are interpreted for the kernel we now know we run. */
	read_cmdline(c);

	for (int o = 0; o < NOPS; o++) {
		if (c->have_sysctl && c->sysctl[o] != LV_UNKNOWN) {
			c->configured[o] = c->sysctl[o];
			c->source[o] = "sysctl";
			continue;
		}
		if (c->kind == K_NONE || (c->kind == K_STOCK && o != OP_FORCE)) {
			c->configured[o] = LV_ALWAYS;
			c->source[o] = "fixed";
			continue;
		}
		c->configured[o] = LV_ALWAYS;
		c->source[o] = "default";
		if (c->kconfig[o] != LV_UNKNOWN) {
			c->configured[o] = c->kconfig[o];
			c->source[o] = "kconfig";
		}
		for (int i = 0; i < c->nparams; i++) {
			const struct param *p = &c->params[i];

			if (p->known && p->op == o && p->level != LV_UNKNOWN) {
				c->configured[o] = p->level;
				c->source[o] = "cmdline";
			}
		}
	}
	if (c->have_sysctl && c->sysctl_permissive >= 0) {
		c->permissive = c->sysctl_permissive;
	} else if (c->kind == K_PATCHED) {
		for (int i = 0; i < c->nparams; i++) {
			const struct param *p = &c->params[i];

			if (p->known && p->op < 0 && parse_bool(p) >= 0)
				c->permissive = parse_bool(p);
		}
	}
	for (int i = 0; i < c->nparams; i++) {
		struct param *p = &c->params[i];

		if (p->op >= 0) {
			p->valid = p->level != LV_UNKNOWN;
		} else if (!strcmp(p->name, "permissive")) {
			p->bool_val = parse_bool(p);
			p->valid = p->bool_val >= 0;
		}
	}
}
