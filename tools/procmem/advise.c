// SPDX-License-Identifier: GPL-2.0
/*
 * procmem advise: the strictest /proc/PID/mem policy this machine can
 * take, operation by operation, and what each stricter level would break.
 *
 * Three sources:
 *   - the compatibility matrix, docs/compat-matrix.json, read at run time
 *     (installed as PREFIX/share/procmem/compat-matrix.json): the measured
 *     verdict of each program and attack under each configuration;
 *   - this machine: installed and running programs the matrix covers,
 *     processes holding a seccomp user-notification listener, processes
 *     holding a /proc/PID/mem file open now;
 *   - observed accesses: proc_mem:proc_mem_deny tracepoint lines (patched
 *     kernel) or `procmem watch --json` lines (BPF LSM enforcer), from
 *     files (--records) or read live (--observe SECONDS).
 * A program the matrix covers is judged by its matrix cells (the matrix
 * knows fallbacks: the JIT works at every level); any other accessor by
 * the relation its records show (itself, its tracer, another process).
 * An attack is blocked by a level only where the matrix has it allowed in
 * some column: the injections that do not go through /proc/PID/mem
 * (process_vm_writev, ptrace by a process that was not the tracer) have
 * one value in every column, set by Yama's ptrace_scope, which advise
 * reads and names, not by procmem.
 */
#include "procmem.h"

#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the machine ---- */

struct machine {
	struct config cfg;
	struct enforcer en;
	enum level current[NOPS];	/* in force (permissive: always) */
	const char *cur_src[NOPS];
	int permissive;			/* kernel's or enforcer's */
	char fam[24];			/* the matrix's kernel column for force */
	int avail[NOPS][NLEVELS];	/* levels this kernel can apply */
	int bpf_lsm;			/* 1 active, 0 not, -1 unknown */
	int enf_rc;			/* pm_loadable(): EXIT_OK or enforce's refusal */
	char enf_why[400];		/* why not */
	char lsm_param[300];		/* the lsm= to boot with, if not active */
	int yama;			/* kernel.yama.ptrace_scope, -1 no Yama */
};

/* kernel.yama.ptrace_scope, -1 where there is no Yama. */
static int yama_scope(void)
{
	char y[16];

	return pm_read_line("/proc/sys/kernel/yama/ptrace_scope", y, sizeof(y)) ? -1 : atoi(y);
}

static void machine_read(struct machine *mc, const struct matrix *m)
{
	config_read(&mc->cfg);
	enforcer_read(&mc->en);
	for (int o = 0; o < NOPS; o++) {
		mc->current[o] = mc->cfg.configured[o] == LV_UNKNOWN ? LV_ALWAYS :
				 mc->cfg.configured[o];
		mc->cur_src[o] = mc->cfg.source[o];
		if (mc->cfg.permissive && mc->current[o] > LV_ALWAYS) {
			mc->current[o] = LV_ALWAYS;
			mc->cur_src[o] = "permissive";
		}
	}
	mc->permissive = mc->cfg.permissive;
	if (mc->en.loaded && mc->en.have_policy && mc->en.permissive)
		mc->permissive = 1;
	policy_in_force(mc->current, mc->cur_src, &mc->en);
	mc->yama = yama_scope();
	/* where procmem enforce would refuse, advise does not send the reader */
	mc->enf_rc = pm_loadable(mc->enf_why, sizeof(mc->enf_why), mc->lsm_param,
				 sizeof(mc->lsm_param), &mc->bpf_lsm);

	/* The matrix column for force: Debian's own kernels have theirs. */
	matrix_family(m, &mc->cfg, mc->fam, sizeof(mc->fam));

	for (int o = 0; o < NOPS; o++) {
		mc->avail[o][LV_ALWAYS] = 1;
		for (int l = LV_SELF; l < NLEVELS; l++) {
			if (mc->cfg.kind == K_PATCHED)
				mc->avail[o][l] = 1;
			else if (o == OP_FORCE)	/* force_override: always|ptrace|never */
				mc->avail[o][l] = mc->cfg.kind == K_STOCK && l != LV_SELF;
			else			/* the BPF LSM enforcer */
				mc->avail[o][l] = 1;
		}
	}
}

/* The matrix configuration that holds @op at @lv on this kernel: the
 * patched kernel's own; on others force from the kernel's family (else
 * stock), and the enforcer's operations from the patched kernel, whose
 * semantics it has (tests/enforcer holds both to one table). */
static int column(const struct matrix *m, const struct machine *mc, int op, enum level lv)
{
	int c;

	if (mc->cfg.kind == K_PATCHED || op != OP_FORCE)
		return matrix_conf(m, "patched", op, lv);
	c = matrix_conf(m, mc->fam, op, lv);
	return c >= 0 ? c : matrix_conf(m, "stock", op, lv);
}

/* The value of subject @k in every column that measured it (n/a left
 * out), if it was measured in two or more and is the same in all; else
 * NULL: the configuration changes it. */
static const char *every_column(const struct matrix *m, int k)
{
	const char *v = NULL;
	int n = 0;

	for (int i = 0; i < m->ncell; i++) {
		const struct mcell *c = &m->cell[i];

		if (c->s != k || !strcmp(c->value, "n/a"))
			continue;
		if (v && strcmp(v, c->value))
			return NULL;
		v = c->value;
		n++;
	}
	return n >= 2 ? v : NULL;
}

/* ---- what is seen here ---- */

/* Programs the matrix covers, by the names they run under. */
static const struct known {
	const char *subject;	/* subject id, or a prefix ending in '-'; NULL: none */
	const char *names[4];
} known[] = {
	{ "gdb-", { "gdb" } },
	{ "gdbserver", { "gdbserver" } },
	{ "lldb", { "lldb", "lldb-server" } },
	{ "strace", { "strace" } },
	{ "ltrace", { "ltrace" } },
	{ "scanmem", { "scanmem" } },
	{ "criu", { "criu" } },
	{ "jit", { "julia" } },
	{ "supervisor", { "lxd", "incusd" } },
	{ NULL, { "rr" } },
};

#define MAX_SEEN 64
#define MAX_ALIAS 16

struct seen {
	char name[32];		/* comm, or the known program's name */
	const char *subject;	/* matrix subject pattern; NULL: unknown */
	int in_matrix;		/* a known program without subject: 0 */
	char installed[PATH_MAX];
	int running_pid;
	int listener_pid;	/* holds a seccomp user-notification fd */
	int holder_pid;		/* holds a /proc/PID/mem file */
	char holds[64];
	long rec[NOPS][NRELS];	/* observed accesses, by relation */
	long held[NOPS][NRELS];	/* open mem files now, by relation */
};

struct alias { char comm[32]; char subject[48]; };

struct state {
	struct seen seen[MAX_SEEN];
	int nseen;
	struct alias alias[MAX_ALIAS];
	int nalias;
	int count_installed;
	struct records rec;	/* observed accesses */
};

static int subject_matches(const char *pat, const char *id)
{
	size_t n = strlen(pat);

	return pat[n - 1] == '-' ? !strncmp(id, pat, n) : !strcmp(id, pat);
}

static struct seen *seen_get(struct state *st, const char *name)
{
	struct seen *s;

	for (int i = 0; i < st->nseen; i++)
		if (!strcmp(st->seen[i].name, name))
			return &st->seen[i];
	/* The last slot takes every further name: never drop evidence. */
	if (st->nseen >= MAX_SEEN - 1)
		name = "(other commands)";
	for (int i = 0; i < st->nseen; i++)
		if (!strcmp(st->seen[i].name, name))
			return &st->seen[i];
	if (st->nseen == MAX_SEEN)
		return NULL;
	s = &st->seen[st->nseen++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	for (int a = 0; a < st->nalias; a++)
		if (!strcmp(st->alias[a].comm, name)) {
			s->subject = st->alias[a].subject;
			s->in_matrix = 1;
		}
	for (size_t k = 0; !s->in_matrix && k < sizeof(known) / sizeof(known[0]); k++)
		for (int j = 0; j < 4 && known[k].names[j]; j++)
			if (!strcmp(known[k].names[j], name)) {
				s->subject = known[k].subject;
				s->in_matrix = known[k].subject != NULL;
			}
	return s;
}

static int in_use(const struct state *st, const struct seen *s)
{
	if (s->running_pid || s->listener_pid || s->holder_pid)
		return 1;
	for (int o = 0; o < NOPS; o++)
		for (int r = 0; r < NRELS; r++)
			if (s->rec[o][r])
				return 1;
	return st->count_installed && s->installed[0];
}

static void find_installed(struct state *st)
{
	const char *env = getenv("PATH");
	char path[4096];

	snprintf(path, sizeof(path), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin",
		 env ? env : "");
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		for (int j = 0; j < 4 && known[k].names[j]; j++) {
			char *save = NULL, dirs[4096];

			snprintf(dirs, sizeof(dirs), "%s", path);
			for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
				char f[PATH_MAX];
				struct stat sb;
				struct seen *s;

				if (snprintf(f, sizeof(f), "%s/%s", d, known[k].names[j]) >= (int)sizeof(f))
					continue;
				if (stat(f, &sb) || !S_ISREG(sb.st_mode) || access(f, X_OK))
					continue;
				s = seen_get(st, known[k].names[j]);
				if (s && !s->installed[0])
					snprintf(s->installed, sizeof(s->installed), "%s", f);
				break;
			}
		}
}

/* One process's open files: a seccomp listener, a mem file held. */
struct holder_walk {
	struct state *st;
	int pid;
	const char *comm;
};

static int holder_fd(void *ctx, int fd, char *link)
{
	const struct holder_walk *w = ctx;
	unsigned long flags;
	int target, task, gone, pid = w->pid;
	struct seen *s;

	if (!strcmp(link, "anon_inode:seccomp notify")) {
		s = seen_get(w->st, w->comm);
		if (s && !s->listener_pid) {
			s->listener_pid = pid;
			if (!s->in_matrix) {
				s->subject = "supervisor";
				s->in_matrix = 1;
			}
		}
	} else if (pm_mem_fd(pid, fd, link, &target, &task, &gone) &&
		   !gone && !pm_fd_flags(pid, fd, &flags)) {
		int mode = (int)(flags & O_ACCMODE);
		int rel = target == pid ? REL_SELF :
			  pm_tracer_of(target) == pid ? REL_TRACER : REL_OTHER;

		s = seen_get(w->st, w->comm);
		if (!s)
			return 0;
		s->holder_pid = pid;
		snprintf(s->holds, sizeof(s->holds), "/proc/%d/mem (%s)", target,
			 mode == O_RDONLY ? "r" : mode == O_WRONLY ? "w" : "rw");
		if (mode != O_WRONLY)
			s->held[OP_OPEN_READ][rel]++;
		if (mode != O_RDONLY) {
			s->held[OP_OPEN_WRITE][rel]++;
			s->held[OP_WRITE][rel]++;
		}
	}
	return 0;
}

/* Running programs, seccomp listeners and mem holders, now. */
static void scan_processes(struct state *st)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	int self = getpid();

	if (!proc)
		return;
	while ((e = readdir(proc))) {
		char path[64], comm[32], exe[PATH_MAX];
		const char *base;
		ssize_t n;
		int pid = atoi(e->d_name);
		struct holder_walk w = { .st = st, .pid = pid, .comm = comm };

		if (pid <= 0 || pid == self)
			continue;
		pm_read_comm(pid, comm, sizeof(comm));
		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : comm;
		/* Known programs and aliases by command or executable name. */
		for (int pass = 0; pass < 2; pass++) {
			const char *name = pass ? base : comm;
			struct seen *s;
			int match = 0;

			for (int a = 0; a < st->nalias; a++)
				match |= !strcmp(st->alias[a].comm, name);
			for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
				for (int j = 0; j < 4 && known[k].names[j]; j++)
					match |= !strcmp(known[k].names[j], name);
			if (match && (s = seen_get(st, name)) && !s->running_pid) {
				s->running_pid = pid;
				break;
			}
		}
		pm_fd_each(pid, holder_fd, &w);
	}
	closedir(proc);
}

/* ---- the judgement ---- */

#define MAX_WHY 24

struct why {
	char text[320];
	const struct seen *who;
};

struct verdict {
	struct why br[MAX_WHY];		/* what breaks */
	int nbr;
	struct why cost[MAX_WHY];	/* what works through a fallback */
	int ncost;
	int conf;			/* the matrix column used, -1 none */
};

static void add_why(struct why *w, int *n, const struct seen *who, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_why(struct why *w, int *n, const struct seen *who, const char *fmt, ...)
{
	va_list ap;

	if (*n >= MAX_WHY)
		return;
	va_start(ap, fmt);
	vsnprintf(w[*n].text, sizeof(w[0].text), fmt, ap);
	va_end(ap);
	w[(*n)++].who = who;
}

/* The loosest level a relation needs for @op. */
static enum level rel_needs(int rel)
{
	return rel == REL_TRACER ? LV_PTRACE : rel == REL_SELF ? LV_SELF : LV_ALWAYS;
}

static const char *rel_text(int rel)
{
	return rel == REL_TRACER ? "as the tracer" : rel == REL_SELF ? "of itself" :
	       "of another process, not its tracer";
}

/* What of @st breaks if @op is held at @lv on this machine. */
static void judge(const struct matrix *m, const struct machine *mc, const struct state *st,
		  int op, enum level lv, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->conf = column(m, mc, op, lv);
	for (int i = 0; i < st->nseen; i++) {
		const struct seen *s = &st->seen[i];
		int judged = 0;

		if (!in_use(st, s))
			continue;
		if (s->in_matrix && v->conf >= 0) {
			for (int k = 0; k < m->nsubj; k++) {
				const struct mcell *c;

				if (!subject_matches(s->subject, m->subj[k].id) ||
				    !(c = matrix_cell(m, k, v->conf)))
					continue;
				judged = 1;
				if (!strcmp(c->value, "breaks"))
					add_why(v->br, &v->nbr, s, "%s: breaks (matrix: %s %s: %s)",
						m->subj[k].title, m->conf[v->conf].kernel,
						m->conf[v->conf].label, c->detail);
				else if (!strcmp(c->value, "fallback"))
					add_why(v->cost, &v->ncost, s, "%s: fallback (matrix: %s %s: %s)",
						m->subj[k].title, m->conf[v->conf].kernel,
						m->conf[v->conf].label, c->detail);
			}
		}
		if (judged)
			continue;
		/* Not in the matrix: what it was seen doing.  A write needs a
		 * file open for writing: it counts for open_write too. */
		for (int r = 0; r < NRELS; r++) {
			long n = s->rec[op][r] + s->held[op][r];

			if (op == OP_OPEN_WRITE)
				n += s->rec[OP_WRITE][r];
			if (n && lv > rel_needs(r))
				add_why(v->br, &v->nbr, s, "%s: %s %s, seen %ld time%s%s; refused at %s=%s",
					s->name, op_names[op], rel_text(r), n, n == 1 ? "" : "s",
					s->held[op][r] ? " (holds a mem file now)" : "",
					op_names[op], level_name(lv));
		}
	}
}

static struct json_object *whys_json(const struct why *w, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();

		pm_jset(o, "who", json_object_new_string(w[i].who->name));
		pm_jset(o, "why", json_object_new_string(w[i].text));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *verdict_json(const struct verdict *v, const struct matrix *m)
{
	struct json_object *o = json_object_new_object(), *c = NULL;

	if (v->conf >= 0) {
		c = json_object_new_object();
		pm_jset(c, "config", json_object_new_string(m->conf[v->conf].id));
	}
	pm_jset(o, "matrix", c);
	pm_jset(o, "breaks", whys_json(v->br, v->nbr));
	pm_jset(o, "fallbacks", whys_json(v->cost, v->ncost));
	return o;
}

/* ---- profiles (docs/profiles.md, the series' cover letter) ---- */

static const struct profile {
	const char *name, *title;
	enum level lv[NOPS];	/* open_read, open_write, write, force */
} profiles[] = {
	{ "desktop", "desktop with developers", { LV_ALWAYS, LV_ALWAYS, LV_ALWAYS, LV_SELF } },
	{ "server", "server", { LV_ALWAYS, LV_ALWAYS, LV_PTRACE, LV_PTRACE } },
	{ "container-host", "container host", { LV_ALWAYS, LV_ALWAYS, LV_ALWAYS, LV_PTRACE } },
	{ "appliance", "appliance", { LV_NEVER, LV_NEVER, LV_NEVER, LV_NEVER } },
};

/* ---- output ---- */

struct advice {
	enum level target[NOPS];	/* advice, or the profile's levels */
	const char *note[NOPS];
	struct verdict at[NOPS][NLEVELS];
	struct verdict now[NOPS];	/* under the policy in force */
	int attack_conf[16][NOPS];	/* per attack subject: blocking column, -1 */
	const char *attack_every[16];	/* its value in every column: no level decides */
};

#define MAX_NOTES 6

/* The lines that apply @a on this kernel. */
struct apply {
	char cmdline[256];
	char sysctl[4][96];
	int nsysctl;
	char enforce[160];
	char notes[MAX_NOTES][640];
	int nnotes;
};

/* open_read, open_write and write on a kernel without the series: the
 * enforcer where it can load (procmem enforce's own checks), else the
 * series' boot parameters. */
static void apply_enforcer(const struct machine *mc, const enum level *t, struct apply *ap)
{
	char params[160] = "";
	size_t n = 0;

	if (mc->en.loaded || mc->enf_rc == EXIT_OK || mc->enf_rc == EXIT_NO_BPF_LSM) {
		snprintf(ap->enforce, sizeof(ap->enforce), "--open-read=%s --open-write=%s --write=%s",
			 level_name(t[OP_OPEN_READ]), level_name(t[OP_OPEN_WRITE]),
			 level_name(t[OP_WRITE]));
		if (!mc->en.loaded && mc->enf_rc == EXIT_NO_BPF_LSM)
			snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
				 "BPF LSM is not active: boot with %s for procmem enforce",
				 mc->lsm_param);
		return;
	}
	for (int o = 0; o < OP_FORCE && n < sizeof(params); o++)
		if (t[o] > LV_ALWAYS)
			n += (size_t)snprintf(params + n, sizeof(params) - n, " proc_mem.restrict_%s=%s",
					      op_names[o], level_name(t[o]));
	snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
		 "procmem enforce cannot load here (%s): the kernel series (kernel/) takes%s",
		 mc->enf_why, params);
}

/* Where force=ptrace (upstream's default since 7.1) breaks a program in
 * use, so the advice puts force back at always: the alternative the
 * matrix measured on this kernel's family, force=always with the
 * enforcer's write=ptrace, where the enforcer loads here. */
static void note_measured(const struct matrix *m, const struct machine *mc, const enum level *t,
			  struct apply *ap)
{
	char br[400];
	int i, n;

	if (mc->cfg.configured[OP_FORCE] != LV_PTRACE || t[OP_FORCE] != LV_ALWAYS ||
	    (!mc->en.loaded && mc->enf_rc != EXIT_OK) || ap->nnotes >= MAX_NOTES)
		return;
	i = matrix_conf_named(m, mc->fam, "-always-enforcer-write-ptrace");
	if (i < 0)
		return;
	n = matrix_breaks(m, i, br, sizeof(br));
	snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
		 "force=ptrace breaks a program in use here; measured instead on %s: proc_mem.force_override=always with `procmem enforce --write=ptrace` (matrix: %s): %s%s",
		 mc->fam, m->conf[i].id, n ? "breaks " : "no program breaks",
		 n ? br : "; writes through another process's mem file by a non-tracer are refused");
}

/* The subject whose id is @id, -1 none. */
static int subject_index(const struct matrix *m, const char *id)
{
	for (int k = 0; k < m->nsubj; k++)
		if (!strcmp(m->subj[k].id, id))
			return k;
	return -1;
}

/*
 * Where Yama's ptrace_scope is 0 (or there is no Yama): the attacks the
 * matrix measured at scope 0 (ids ending in -yama0) allowed in every
 * column, whose scope-1 twins (-yama1) are blocked in every column with
 * Yama: injection no /proc/PID/mem level stops and ptrace_scope=1 does.
 */
static void note_yama(const struct matrix *m, const struct machine *mc, struct apply *ap)
{
	char what[400] = "";
	size_t n = 0;

	if (mc->yama > 0 || ap->nnotes >= MAX_NOTES)
		return;
	for (int k = 0; k < m->nsubj && n < sizeof(what); k++) {
		const char *id = m->subj[k].id, *title = m->subj[k].title, *v = every_column(m, k);
		size_t len = strlen(id), tlen;
		char twin[64];
		int t;

		if (strcmp(m->subj[k].kind, "attack") || len < 6 || len > 40 ||
		    strcmp(id + len - 6, "-yama0") || !v || strcmp(v, "allowed"))
			continue;
		snprintf(twin, sizeof(twin), "%.*s-yama1", (int)(len - 6), id);
		t = subject_index(m, twin);
		if (t < 0 || !(v = every_column(m, t)) || strcmp(v, "blocked"))
			continue;
		/* the title without "attack: " and its ", Yama ..." */
		if (!strncmp(title, "attack: ", 8))
			title += 8;
		tlen = strstr(title, ", Yama") ? (size_t)(strstr(title, ", Yama") - title) : strlen(title);
		n += (size_t)snprintf(what + n, sizeof(what) - n, "%s%.*s (%s)", n ? "; " : "",
				      (int)tlen, title, id);
	}
	if (!n)
		return;
	snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
		 "%s: no /proc/PID/mem level stops these injections (matrix: allowed in every column): %s; %s stops them, not procmem (their -yama1 rows: blocked in every column with Yama; measured with the injector the target's sibling: scope 1 still lets an ancestor attach)",
		 mc->yama < 0 ? "this kernel has no Yama" : "kernel.yama.ptrace_scope is 0 here", what,
		 mc->yama < 0 ? "a kernel with Yama at kernel.yama.ptrace_scope = 1" :
		 "kernel.yama.ptrace_scope = 1");
}

static void make_apply(const struct matrix *m, const struct machine *mc, const enum level *t,
		       struct apply *ap)
{
	memset(ap, 0, sizeof(*ap));
	if (mc->cfg.kind == K_PATCHED) {
		if (t[OP_FORCE] > LV_ALWAYS)
			snprintf(ap->cmdline, sizeof(ap->cmdline), "proc_mem.force_override=%s",
				 level_name(t[OP_FORCE]));
		for (int o = 0; o < OP_FORCE; o++)
			if (t[o] > LV_ALWAYS)
				snprintf(ap->sysctl[ap->nsysctl++], sizeof(ap->sysctl[0]),
					 "kernel.proc_mem.%s = %s", op_names[o], level_name(t[o]));
		if (mc->cfg.sysctl_permissive == 1)
			snprintf(ap->sysctl[ap->nsysctl++], sizeof(ap->sysctl[0]),
				 "kernel.proc_mem.permissive = 0");
		for (int o = 0; o < NOPS; o++)
			if (mc->cfg.configured[o] > t[o] && ap->nnotes < MAX_NOTES)
				snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
					 "%s is set to %s%s and sysctls only tighten: boot without proc_mem.%s%s=%s",
					 op_names[o], level_name(mc->cfg.configured[o]),
					 mc->cfg.permissive ? " (permissive)" : "",
					 o == OP_FORCE ? "" : "restrict_",
					 o == OP_FORCE ? "force_override" : op_names[o],
					 level_name(mc->cfg.configured[o]));
		return;
	}
	if (mc->cfg.kind == K_STOCK && (t[OP_FORCE] > LV_ALWAYS || mc->cfg.configured[OP_FORCE] > LV_ALWAYS))
		snprintf(ap->cmdline, sizeof(ap->cmdline), "proc_mem.force_override=%s",
			 level_name(t[OP_FORCE]));
	if (t[OP_OPEN_READ] > LV_ALWAYS || t[OP_OPEN_WRITE] > LV_ALWAYS || t[OP_WRITE] > LV_ALWAYS) {
		apply_enforcer(mc, t, ap);
	} else if (mc->en.loaded) {
		/* a config describes the whole policy: nothing restricted */
		snprintf(ap->enforce, sizeof(ap->enforce),
			 "--open-read=always --open-write=always --write=always");
	}
	if (mc->cfg.kind == K_NONE && t[OP_FORCE] > LV_ALWAYS)
		snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
			 "this kernel has no control of force (proc_mem.force_override came with 6.12)");
	note_measured(m, mc, t, ap);
}

static void print_head(const struct matrix *m, const struct machine *mc, const struct state *st)
{
	printf("kernel:     %s, %s controls; matrix columns: %s (force), %s (others)\n",
	       mc->cfg.release, kind_name(mc->cfg.kind),
	       mc->cfg.kind == K_PATCHED ? "patched" : mc->fam, "patched");
	printf("matrix:     %s (%d programs and attacks, %d configurations)\n", m->path,
	       m->nsubj, m->nconf);
	if (mc->permissive)
		printf("permissive: yes: the configured levels are logged, not enforced (in force: always)\n");
	if (mc->yama >= 0)
		printf("yama:       ptrace_scope=%d (process_vm_writev and ptrace attach: Yama's, not procmem's)\n",
		       mc->yama);
	else
		printf("yama:       none (process_vm_writev and ptrace attach: the ptrace access check alone)\n");
	if (mc->cfg.kind != K_PATCHED)
		printf("enforcer:   %s; BPF LSM %s\n",
		       mc->en.loaded && mc->en.have_policy ? "loaded" : "not loaded",
		       mc->bpf_lsm == 1 ? "active" : mc->bpf_lsm == 0 ? "not active" : "unknown");
	printf("observed:   ");
	if (!st->rec.nsources)
		printf("nothing (no --observe or --records)");
	for (int i = 0; i < st->rec.nsources; i++)
		printf("%s%s", i ? "; " : "", st->rec.sources[i]);
	printf(": %ld record%s", st->rec.records, st->rec.records == 1 ? "" : "s");
	if (st->rec.dropped)
		printf(", %ld dropped", st->rec.dropped);
	if (st->rec.unparsed)
		printf(", %ld lines not understood", st->rec.unparsed);
	printf("\n");
	if (st->rec.have_counters) {
		printf("counters:  ");
		for (int o = 0; o < NOPS; o++)
			printf(" %s +%ld", op_names[o], st->rec.counters[o]);
		printf(" (denied and would deny, during the observation)\n");
	}
}

static void print_seen(const struct state *st)
{
	int any = 0;

	printf("\nseen here:\n");
	for (int i = 0; i < st->nseen; i++) {
		const struct seen *s = &st->seen[i];
		char what[512] = "";
		size_t n = 0;
		long recs = 0;

		for (int o = 0; o < NOPS; o++)
			for (int r = 0; r < NRELS; r++)
				recs += s->rec[o][r];
		if (s->running_pid)
			n += (size_t)snprintf(what + n, sizeof(what) - n, ", running (pid %d)", s->running_pid);
		if (s->listener_pid && n < sizeof(what))
			n += (size_t)snprintf(what + n, sizeof(what) - n,
					      ", pid %d holds a seccomp user-notification listener",
					      s->listener_pid);
		if (s->holder_pid && n < sizeof(what))
			n += (size_t)snprintf(what + n, sizeof(what) - n, ", pid %d holds %s",
					      s->holder_pid, s->holds);
		if (recs && n < sizeof(what)) {
			n += (size_t)snprintf(what + n, sizeof(what) - n, ", %ld record%s:", recs,
					      recs == 1 ? "" : "s");
			for (int o = 0; o < NOPS; o++)
				for (int r = 0; r < NRELS; r++)
					if (s->rec[o][r] && n < sizeof(what))
						n += (size_t)snprintf(what + n, sizeof(what) - n, " %s/%s %ld",
								      op_names[o], rel_names[r], s->rec[o][r]);
		}
		if (s->installed[0] && n < sizeof(what))
			snprintf(what + n, sizeof(what) - n, ", installed (%s)%s", s->installed,
					      in_use(st, s) ? "" : ", not in use: not counted (--installed counts it)");
		printf("  %-14s %s%s\n", s->name, s->in_matrix ? "" : "(not in the matrix) ",
		       what[0] ? what + 2 : "");
		any = 1;
	}
	if (!any)
		printf("  nothing the matrix covers, no seccomp listener, no mem file open, no record\n");

}

static void print_levels(const struct machine *mc, const struct advice *a,
			 const struct profile *prof)
{
	char levels[128];

	level_list(levels, sizeof(levels), " ", NULL);
	printf("\n%s:\n", prof ? "profile" : "advice");
	if (prof)
		printf("  %s (%s)\n", prof->name, prof->title);
	printf("%-11s %-9s %-9s breaks at: %s\n", "operation", "in force",
	       prof ? "profile" : "advice", levels);
	for (int o = 0; o < NOPS; o++) {
		printf("%-11s %-9s %-9s %10s", op_names[o], level_name(mc->current[o]),
		       level_name(a->target[o]), "");
		for (int l = LV_ALWAYS; l < NLEVELS; l++) {
			if (mc->avail[o][l])
				printf(" %*d", (int)strlen(level_name((enum level)l)), a->at[o][l].nbr);
			else
				printf(" %*s", (int)strlen(level_name((enum level)l)), "-");
		}
		printf("\n");
	}
	for (int o = 0; o < NOPS; o++) {
		printf("\n%s=%s", op_names[o], level_name(a->target[o]));
		if (a->note[o])
			printf(" (%s)", a->note[o]);
		printf(":\n");
		for (int l = LV_ALWAYS; l < NLEVELS; l++) {
			const struct verdict *v = &a->at[o][l];

			if (!mc->avail[o][l] || l < (int)a->target[o])
				continue;
			printf("  %-7s %s", level_name((enum level)l),
			       v->nbr ? "breaks:" : "nothing seen here breaks");
			if (v->conf < 0)
				printf(" (the matrix has no column for it)");
			printf("\n");
			for (int i = 0; i < v->nbr; i++)
				printf("            %s\n", v->br[i].text);
			for (int i = 0; i < v->ncost && l == (int)a->target[o]; i++)
				printf("            cost: %s\n", v->cost[i].text);
		}
	}
}

/* For a row measured at one Yama ptrace_scope (id ending in -yamaN):
 * this machine's, to tell whether the row describes it; else "". */
static const char *yama_here(const struct machine *mc, const char *id)
{
	static char s[48];
	size_t n = strlen(id);

	if (n < 6 || strncmp(id + n - 6, "-yama", 5))
		return "";
	if (mc->yama < 0)
		snprintf(s, sizeof(s), "; here: no Yama");
	else
		snprintf(s, sizeof(s), "; here: ptrace_scope=%d", mc->yama);
	return s;
}

static void print_attacks(const struct matrix *m, const struct machine *mc,
			  const struct advice *a, const struct profile *prof)
{
	printf("\nattacks under the %s:\n", prof ? "profile" : "advice");
	for (int k = 0, na = 0; k < m->nsubj; k++) {
		int by = -1;

		if (strcmp(m->subj[k].kind, "attack"))
			continue;
		for (int o = 0; o < NOPS; o++)
			if (a->attack_conf[na][o] >= 0)
				by = a->attack_conf[na][o];
		if (a->attack_every[na]) {
			/* no level decides it: the matrix has one value everywhere */
			printf("  %-66s %s at every level (matrix: in every column, no level decides it%s)\n",
			       m->subj[k].title, a->attack_every[na], yama_here(mc, m->subj[k].id));
			na++;
			continue;
		}
		printf("  %-66s %s", m->subj[k].title, by >= 0 ? "blocked" : "allowed");
		for (int o = 0, first = 1; o < NOPS; o++)
			if (a->attack_conf[na][o] >= 0) {
				printf("%s%s %s", first ? " (matrix: " : ", ",
				       m->conf[a->attack_conf[na][o]].kernel,
				       m->conf[a->attack_conf[na][o]].label);
				first = 0;
			}
		printf("%s\n", by >= 0 ? ")" : "");
		na++;
	}
}

static void print_apply(const struct apply *ap)
{
	printf("\napply:\n");
	if (!ap->cmdline[0] && !ap->nsysctl && !ap->enforce[0])
		printf("  nothing: every operation stays at always\n");
	if (ap->cmdline[0])
		printf("  kernel command line:  %s\n", ap->cmdline);
	if (ap->nsysctl) {
		printf("  /etc/sysctl.d/60-procmem.conf:\n");
		for (int i = 0; i < ap->nsysctl; i++)
			printf("    %s\n", ap->sysctl[i]);
	}
	if (ap->enforce[0])
		printf("  /etc/procmem/enforce.conf:  %s\n", ap->enforce);
	for (int i = 0; i < ap->nnotes; i++)
		printf("  note: %s\n", ap->notes[i]);
}

static void print_text(const struct matrix *m, const struct machine *mc, const struct state *st,
		       const struct advice *a, const struct profile *prof, const struct apply *ap,
		       int rc)
{
	print_head(m, mc, st);
	print_seen(st);
	print_levels(mc, a, prof);
	print_attacks(m, mc, a, prof);
	print_apply(ap);
	if (rc == EXIT_OK || rc == EXIT_FINDING)
		printf("\nresult:     %s: the policy in force is %sthe %s\n",
		       rc == EXIT_OK ? "ok" : "differs", rc == EXIT_OK ? "" : "not ",
		       prof ? "profile" : "advice");
	else
		printf("\nresult:     %s\n", rc == EXIT_ADV_BREAKS ?
		       "breaks: the policy in force breaks something seen here" :
		       "profile-breaks: the profile would break something seen here");
}

static struct json_object *observed_json(const struct state *st)
{
	struct json_object *o = json_object_new_object(), *src = json_object_new_array();

	for (int i = 0; i < st->rec.nsources; i++)
		json_object_array_add(src, json_object_new_string(st->rec.sources[i]));
	pm_jset(o, "sources", src);
	pm_jset(o, "records", json_object_new_int64(st->rec.records));
	pm_jset(o, "dropped", json_object_new_int64(st->rec.dropped));
	pm_jset(o, "unparsed", json_object_new_int64(st->rec.unparsed));
	if (st->rec.have_counters) {
		struct json_object *c = json_object_new_object();

		for (int op = 0; op < NOPS; op++)
			pm_jset(c, op_names[op], json_object_new_int64(st->rec.counters[op]));
		pm_jset(o, "counters", c);
	} else {
		pm_jset(o, "counters", NULL);
	}
	return o;
}

static struct json_object *seen_json(const struct state *st)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < st->nseen; i++) {
		const struct seen *s = &st->seen[i];
		struct json_object *o = json_object_new_object(), *recs = json_object_new_object();

		pm_jset(o, "name", json_object_new_string(s->name));
		pm_jset(o, "matrix_subject", pm_jstr(s->in_matrix ? s->subject : NULL));
		pm_jset(o, "installed", pm_jstr(s->installed[0] ? s->installed : NULL));
		pm_jset(o, "running_pid", json_object_new_int(s->running_pid));
		pm_jset(o, "listener_pid", json_object_new_int(s->listener_pid));
		pm_jset(o, "holder_pid", json_object_new_int(s->holder_pid));
		pm_jset(o, "in_use", json_object_new_boolean(in_use(st, s)));
		for (int op = 0; op < NOPS; op++) {
			struct json_object *r = json_object_new_object();

			for (int rel = 0; rel < NRELS; rel++)
				pm_jset(r, rel_names[rel], json_object_new_int64(s->rec[op][rel]));
			pm_jset(recs, op_names[op], r);
		}
		pm_jset(o, "records", recs);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *ops_json(const struct matrix *m, const struct machine *mc,
				    const struct advice *a, const struct profile *prof)
{
	struct json_object *ops = json_object_new_object();

	for (int o = 0; o < NOPS; o++) {
		struct json_object *j = json_object_new_object(), *lv = json_object_new_object();

		pm_jset(j, "in_force", json_object_new_string(level_name(mc->current[o])));
		pm_jset(j, "source", pm_jstr(mc->cur_src[o]));
		pm_jset(j, prof ? "profile" : "advice", json_object_new_string(level_name(a->target[o])));
		pm_jset(j, "note", pm_jstr(a->note[o]));
		for (int l = LV_ALWAYS; l < NLEVELS; l++)
			if (mc->avail[o][l])
				pm_jset(lv, level_name((enum level)l), verdict_json(&a->at[o][l], m));
		pm_jset(j, "levels", lv);
		pm_jset(ops, op_names[o], j);
	}
	return ops;
}

static struct json_object *attacks_json(const struct matrix *m, const struct advice *a)
{
	struct json_object *at = json_object_new_object();

	for (int k = 0, na = 0; k < m->nsubj; k++) {
		struct json_object *j;
		int by = -1;

		if (strcmp(m->subj[k].kind, "attack"))
			continue;
		for (int o = 0; o < NOPS && by < 0; o++)
			if (a->attack_conf[na][o] >= 0)
				by = a->attack_conf[na][o];
		j = json_object_new_object();
		/* one value in every column: no level decides it ("by": null) */
		pm_jset(j, "result", json_object_new_string(a->attack_every[na] ? a->attack_every[na] :
							     by >= 0 ? "blocked" : "allowed"));
		pm_jset(j, "by", pm_jstr(by >= 0 ? m->conf[by].id : NULL));
		pm_jset(at, m->subj[k].id, j);
		na++;
	}
	return at;
}

static struct json_object *apply_json(const struct apply *ap)
{
	struct json_object *o = json_object_new_object(), *sy = json_object_new_array();
	struct json_object *notes = json_object_new_array();

	pm_jset(o, "cmdline", pm_jstr(ap->cmdline[0] ? ap->cmdline : NULL));
	for (int i = 0; i < ap->nsysctl; i++)
		json_object_array_add(sy, json_object_new_string(ap->sysctl[i]));
	pm_jset(o, "sysctl_d", sy);
	pm_jset(o, "enforce_conf", pm_jstr(ap->enforce[0] ? ap->enforce : NULL));
	for (int i = 0; i < ap->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(ap->notes[i]));
	pm_jset(o, "notes", notes);
	return o;
}

static const char *result_word(int rc)
{
	return rc == EXIT_OK ? "ok" : rc == EXIT_FINDING ? "could-tighten" :
	       rc == EXIT_ADV_BREAKS ? "breaks" : rc == EXIT_ADV_PROFILE ? "profile-breaks" : "";
}

static void print_json(const struct matrix *m, const struct machine *mc, const struct state *st,
		       const struct advice *a, const struct profile *prof, const struct apply *ap,
		       int rc)
{
	struct json_object *o = json_object_new_object(), *k = json_object_new_object();

	pm_jset(o, "command", json_object_new_string("advise"));
	pm_jset(k, "release", json_object_new_string(mc->cfg.release));
	pm_jset(k, "controls", json_object_new_string(kind_name(mc->cfg.kind)));
	pm_jset(k, "matrix_force_column",
		json_object_new_string(mc->cfg.kind == K_PATCHED ? "patched" : mc->fam));
	pm_jset(k, "enforcer", json_object_new_boolean(mc->en.loaded && mc->en.have_policy));
	pm_jset(k, "bpf_lsm", mc->bpf_lsm < 0 ? NULL : json_object_new_boolean(mc->bpf_lsm));
	pm_jset(k, "yama_ptrace_scope", mc->yama < 0 ? NULL : json_object_new_int(mc->yama));
	pm_jset(o, "kernel", k);
	pm_jset(o, "matrix", json_object_new_string(m->path));
	pm_jset(o, "observed", observed_json(st));
	pm_jset(o, "seen", seen_json(st));
	pm_jset(o, "profile", pm_jstr(prof ? prof->name : NULL));
	pm_jset(o, "operations", ops_json(m, mc, a, prof));
	pm_jset(o, "attacks", attacks_json(m, a));
	pm_jset(o, "apply", apply_json(ap));
	pm_jset(o, "result", json_object_new_string(result_word(rc)));
	pm_jset(o, "exit", json_object_new_int(rc));
	pm_json_print(o, 1);
}

/* ---- the command ---- */

static void on_access(void *ctx, const char *comm, int op, int self, int tracer)
{
	struct seen *s = seen_get(ctx, comm);

	if (s)
		s->rec[op][tracer ? REL_TRACER : self ? REL_SELF : REL_OTHER]++;
}

struct args {
	int json, observe, nrec;
	const char *matrix, *records[8];
	const struct profile *prof;
};

static void advise_help(void)
{
	fputs("usage: procmem advise [--json] [--observe SECONDS] [--records FILE]...\n"
	      "                      [--profile NAME] [--installed] [--program COMM=SUBJECT]...\n"
	      "                      [--matrix FILE]\n"
	      "The strictest /proc/PID/mem policy this machine can take, per operation:\n"
	      "the compatibility matrix, the programs here, the records of a permissive\n"
	      "period; what stricter levels break; the lines that apply it.\n"
	      "  --json                  machine-readable output\n"
	      "  --observe SECONDS       observe accesses for 1-86400 s (root)\n"
	      "  --records FILE          tracepoint or procmem watch --json lines (- stdin; 8 at most)\n"
	      "  --profile NAME          judge desktop, server, container-host or appliance\n"
	      "  --installed             count installed programs the matrix covers, not only running ones\n"
	      "  --program COMM=SUBJECT  judge command COMM as matrix subject SUBJECT (16 at most)\n"
	      "  --matrix FILE           the compatibility matrix to read\n"
	      "  -h, --help              this text\n"
	      "Exit status: 0 at the advice (or profile), 1 not at it, 2 usage, 3 cannot\n"
	      "read the matrix or observe, 11 the policy in force breaks something seen\n"
	      "here, 12 the profile would.\n", stdout);
}

static int add_program(struct state *st, const char *v)
{
	const char *eq = strchr(v, '=');

	if (!eq || eq == v || !eq[1] || eq - v > 15 || strlen(eq + 1) > 47)
		return pm_usage_error("advise", "--program takes COMM=SUBJECT (a matrix subject id), not '%s'",
				      v);
	if (st->nalias == MAX_ALIAS)
		return pm_usage_error("advise", "--program: at most %d", MAX_ALIAS);
	snprintf(st->alias[st->nalias].comm, sizeof(st->alias[0].comm), "%.*s", (int)(eq - v), v);
	snprintf(st->alias[st->nalias].subject, sizeof(st->alias[0].subject), "%s", eq + 1);
	st->nalias++;
	return EXIT_OK;
}

/* EXIT_OK, EXIT_USAGE said, or -1 for --help. */
static int parse_args(int argc, char **argv, struct args *ar, struct state *st)
{
	enum { O_JSON = 256, O_OBSERVE, O_RECORDS, O_MATRIX, O_PROFILE, O_INSTALLED, O_PROGRAM };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "observe", required_argument, NULL, O_OBSERVE },
		{ "records", required_argument, NULL, O_RECORDS },
		{ "matrix", required_argument, NULL, O_MATRIX },
		{ "profile", required_argument, NULL, O_PROFILE },
		{ "installed", no_argument, NULL, O_INSTALLED },
		{ "program", required_argument, NULL, O_PROGRAM },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long secs;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_JSON:
			ar->json = 1;
			break;
		case O_INSTALLED:
			st->count_installed = 1;
			break;
		case O_OBSERVE:
			if (pm_parse_long(optarg, 1, 86400, &secs))
				return pm_usage_error("advise", "--observe takes 1 to 86400 seconds, not '%s'",
						      optarg);
			ar->observe = (int)secs;
			break;
		case O_RECORDS:
			if (ar->nrec == 8)
				return pm_usage_error("advise", "--records: at most 8 files");
			ar->records[ar->nrec++] = optarg;
			break;
		case O_MATRIX:
			ar->matrix = optarg;
			break;
		case O_PROFILE:
			ar->prof = NULL;
			for (size_t k = 0; k < sizeof(profiles) / sizeof(profiles[0]); k++)
				if (!strcmp(optarg, profiles[k].name))
					ar->prof = &profiles[k];
			if (!ar->prof)
				return pm_usage_error("advise", "unknown profile '%s' (desktop, server, container-host, appliance)",
						      optarg);
			break;
		case O_PROGRAM:
			rc = add_program(st, optarg);
			if (rc)
				return rc;
			break;
		case 'h':
			return -1;
		default:
			return pm_opt_error("advise", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("advise", "unexpected argument '%s'", argv[optind]);
	return EXIT_OK;
}

/* Installed, running now, observed, running after. */
static int gather(struct state *st, const struct args *ar, const struct machine *mc)
{
	find_installed(st);
	scan_processes(st);
	for (int i = 0; i < ar->nrec; i++)
		if (records_read(&st->rec, ar->records[i]))
			return EXIT_NORUN;
	if (!ar->observe)
		return EXIT_OK;
	if (geteuid() != 0) {
		fprintf(stderr, "procmem: advise: --observe needs root\n");
		return EXIT_NORUN;
	}
	if (mc->cfg.kind == K_PATCHED && mc->cfg.have_sysctl) {
		if (records_observe(&st->rec, ar->observe, 1))
			return EXIT_NORUN;
	} else if (mc->en.loaded) {
		if (records_observe(&st->rec, ar->observe, 0))
			return EXIT_NORUN;
	} else {
		fprintf(stderr, "procmem: advise: nothing to observe with: no proc_mem tracepoint and no enforcer (procmem enforce --permissive)\n");
		return EXIT_NORUN;
	}
	scan_processes(st);
	return EXIT_OK;
}

/* Judges every available level of every operation; the exit status. */
static int decide(const struct matrix *m, const struct machine *mc, const struct state *st,
		  const struct profile *prof, struct advice *a)
{
	int breaks_now = 0, differs = 0, prof_breaks = 0;

	for (int o = 0; o < NOPS; o++) {
		for (int l = LV_ALWAYS; l < NLEVELS; l++)
			if (mc->avail[o][l])
				judge(m, mc, st, o, (enum level)l, &a->at[o][l]);
		judge(m, mc, st, o, mc->current[o], &a->now[o]);
		breaks_now |= a->now[o].nbr > 0;
		if (prof) {
			enum level want = prof->lv[o];

			/* A level this kernel lacks: the nearest looser one,
			 * never one that breaks more than the profile means to. */
			a->target[o] = want;
			while (a->target[o] > LV_ALWAYS && !mc->avail[o][a->target[o]])
				a->target[o]--;
			if (a->target[o] != want)
				a->note[o] = "this kernel lacks the profile's level; the nearest looser one";
			prof_breaks |= a->at[o][a->target[o]].nbr > 0;
		} else {
			a->target[o] = LV_ALWAYS;
			for (int l = NLEVELS - 1; l > LV_ALWAYS; l--)
				if (mc->avail[o][l] && !a->at[o][l].nbr) {
					a->target[o] = (enum level)l;
					break;
				}
		}
		differs |= a->target[o] != mc->current[o];
	}
	/* Attacks: blocked under the target if one operation's level alone
	 * blocks it in the matrix (a stricter combination only adds checks),
	 * unless the matrix has it at one value in every column: then no
	 * level decides it (blocked everywhere: by what the row sets, Yama's
	 * ptrace_scope=1, not by the level). */
	for (int k = 0, na = 0; k < m->nsubj && na < 16; k++) {
		if (strcmp(m->subj[k].kind, "attack"))
			continue;
		a->attack_every[na] = every_column(m, k);
		for (int o = 0; o < NOPS; o++) {
			int c = a->target[o] > LV_ALWAYS ? column(m, mc, o, a->target[o]) : -1;
			const struct mcell *cl = c >= 0 ? matrix_cell(m, k, c) : NULL;

			a->attack_conf[na][o] = cl && !strcmp(cl->value, "blocked") &&
						!a->attack_every[na] ? c : -1;
		}
		na++;
	}
	return breaks_now ? EXIT_ADV_BREAKS : prof_breaks ? EXIT_ADV_PROFILE :
	       differs ? EXIT_FINDING : EXIT_OK;
}

static int load_matrix(struct matrix *m, const struct args *ar, const struct state *st)
{
	char mpath[PATH_MAX], err[PATH_MAX + 160];

	if (matrix_find(ar->matrix, mpath, sizeof(mpath))) {
		fprintf(stderr, "procmem: advise: no compat-matrix.json found (--matrix FILE, or make install)\n");
		return EXIT_NORUN;
	}
	if (matrix_load(m, mpath, err, sizeof(err))) {
		fprintf(stderr, "procmem: advise: %s\n", err);
		return EXIT_NORUN;
	}
	for (int i = 0; i < st->nalias; i++) {
		int ok = 0;

		for (int k = 0; k < m->nsubj; k++)
			ok |= subject_matches(st->alias[i].subject, m->subj[k].id);
		if (!ok)
			return pm_usage_error("advise", "--program: the matrix has no subject '%s'",
					      st->alias[i].subject);
	}
	return EXIT_OK;
}

int cmd_advise(int argc, char **argv)
{
	static struct state st;
	static struct advice a;
	struct matrix m;
	struct machine mc;
	struct apply ap;
	struct args ar;
	int rc;

	memset(&st, 0, sizeof(st));
	memset(&a, 0, sizeof(a));
	memset(&ar, 0, sizeof(ar));
	memset(&m, 0, sizeof(m));
	st.rec.fn = on_access;
	st.rec.ctx = &st;
	rc = parse_args(argc, argv, &ar, &st);
	if (rc) {
		if (rc < 0)
			advise_help();
		return rc < 0 ? EXIT_OK : rc;
	}
	rc = load_matrix(&m, &ar, &st);
	if (!rc) {
		memset(&mc, 0, sizeof(mc));
		machine_read(&mc, &m);
		rc = gather(&st, &ar, &mc);
	}
	if (rc) {
		matrix_free(&m);
		return rc;
	}
	rc = decide(&m, &mc, &st, ar.prof, &a);
	make_apply(&m, &mc, a.target, &ap);
	note_yama(&m, &mc, &ap);
	if (ar.json)
		print_json(&m, &mc, &st, &a, ar.prof, &ap, rc);
	else
		print_text(&m, &mc, &st, &a, ar.prof, &ap, rc);
	matrix_free(&m);
	return rc;
}
