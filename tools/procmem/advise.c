// SPDX-License-Identifier: GPL-2.0
/*
 * procmem advise: the strictest /proc/PID/mem policy this machine can
 * take, operation by operation, and what each stricter level would break.
 *
 * Three sources (issue 15):
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
 */
#include "procmem.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* advise's own exit codes beyond procmem.h's 0-3 (procmem.1). */
enum {
	EXIT_ADV_BREAKS = 4,	/* the policy in force breaks something seen here */
	EXIT_ADV_PROFILE = 5,	/* --profile: it would break something seen here */
};

#define MATRIX_NAME "compat-matrix.json"
#define LSM_LIST "/sys/kernel/security/lsm"

/* ---- a small JSON reader (RFC 8259; the matrix is its only big input) ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype t;
	int b;
	double num;
	char *str;		/* J_STR, UTF-8 */
	int n;			/* J_ARR, J_OBJ: members */
	struct jv *v;
	char **k;		/* J_OBJ: keys */
};

struct jp {
	const char *p, *start;
	char err[128];
	int depth;
};

static int jfail(struct jp *j, const char *what)
{
	if (!j->err[0])
		snprintf(j->err, sizeof(j->err), "%s at byte %ld", what, (long)(j->p - j->start));
	return -1;
}

static void jws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static void put_utf8(char **o, unsigned long c)
{
	if (c < 0x80) {
		*(*o)++ = (char)c;
	} else if (c < 0x800) {
		*(*o)++ = (char)(0xc0 | c >> 6);
		*(*o)++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*(*o)++ = (char)(0xe0 | c >> 12);
		*(*o)++ = (char)(0x80 | (c >> 6 & 0x3f));
		*(*o)++ = (char)(0x80 | (c & 0x3f));
	} else {
		*(*o)++ = (char)(0xf0 | c >> 18);
		*(*o)++ = (char)(0x80 | (c >> 12 & 0x3f));
		*(*o)++ = (char)(0x80 | (c >> 6 & 0x3f));
		*(*o)++ = (char)(0x80 | (c & 0x3f));
	}
}

static int hex4(const char *s, unsigned long *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		*out = *out << 4 | (unsigned long)d;
	}
	return 0;
}

static int jstring(struct jp *j, char **out)
{
	const char *s = ++j->p;	/* after the quote */
	char *o;

	/* Escapes only shrink: the raw length bounds the decoded one. */
	while (*j->p && *j->p != '"')
		j->p += *j->p == '\\' && j->p[1] ? 2 : 1;
	if (*j->p != '"')
		return jfail(j, "unterminated string");
	*out = o = malloc((size_t)(j->p - s) + 1);
	if (!o)
		return jfail(j, "out of memory");
	for (const char *p = s; p < j->p; p++) {
		unsigned long c, lo;

		if ((unsigned char)*p < 0x20)
			return jfail(j, "control character in string");
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case '"': case '\\': case '/': *o++ = *p; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (j->p - p < 5 || hex4(p + 1, &c))
				return jfail(j, "bad \\u escape");
			p += 4;
			if (c >= 0xd800 && c < 0xdc00 && j->p - p >= 7 && p[1] == '\\' &&
			    p[2] == 'u' && !hex4(p + 3, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			}
			put_utf8(&o, c);
			break;
		default:
			return jfail(j, "bad escape in string");
		}
	}
	*o = '\0';
	j->p++;
	return 0;
}

static int jvalue(struct jp *j, struct jv *v);

static int jmembers(struct jp *j, struct jv *v, int obj)
{
	char close = obj ? '}' : ']';
	int cap = 0;

	j->p++;
	jws(j);
	if (*j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			struct jv *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v->v, (size_t)cap * sizeof(*nv));
			if (!nv)
				return jfail(j, "out of memory");
			v->v = nv;
			if (obj) {
				char **nk = realloc(v->k, (size_t)cap * sizeof(*nk));

				if (!nk)
					return jfail(j, "out of memory");
				v->k = nk;
			}
		}
		memset(&v->v[v->n], 0, sizeof(v->v[0]));
		jws(j);
		if (obj) {
			v->k[v->n] = NULL;
			if (*j->p != '"')
				return jfail(j, "expected a key");
			if (jstring(j, &v->k[v->n]))
				return -1;
			jws(j);
			if (*j->p != ':') {
				v->n++;
				return jfail(j, "expected ':'");
			}
			j->p++;
		}
		v->n++;
		if (jvalue(j, &v->v[v->n - 1]))
			return -1;
		jws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == close) {
			j->p++;
			return 0;
		}
		return jfail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int jvalue(struct jp *j, struct jv *v)
{
	char *end;

	memset(v, 0, sizeof(*v));
	jws(j);
	if (++j->depth > 64)
		return jfail(j, "nested too deeply");
	switch (*j->p) {
	case '{':
		v->t = J_OBJ;
		if (jmembers(j, v, 1))
			return -1;
		break;
	case '[':
		v->t = J_ARR;
		if (jmembers(j, v, 0))
			return -1;
		break;
	case '"':
		v->t = J_STR;
		if (jstring(j, &v->str))
			return -1;
		break;
	default:
		if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
			v->t = J_BOOL;
			v->b = *j->p == 't';
			j->p += v->b ? 4 : 5;
		} else if (!strncmp(j->p, "null", 4)) {
			v->t = J_NULL;
			j->p += 4;
		} else if (*j->p == '-' || isdigit((unsigned char)*j->p)) {
			v->t = J_NUM;
			v->num = strtod(j->p, &end);
			j->p = end;
		} else {
			return jfail(j, *j->p ? "unexpected character" : "unexpected end");
		}
	}
	j->depth--;
	return 0;
}

static void jfree(struct jv *v)
{
	for (int i = 0; i < v->n; i++) {
		jfree(&v->v[i]);
		if (v->t == J_OBJ)
			free(v->k[i]);
	}
	free(v->v);
	free(v->k);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

/* Parses all of text; 0 or -1 with err. */
static int jparse(const char *text, struct jv *v, char *err, size_t errlen)
{
	struct jp j = { .p = text, .start = text };

	if (!jvalue(&j, v)) {
		jws(&j);
		if (!*j.p)
			return 0;
		jfail(&j, "trailing text");
	}
	snprintf(err, errlen, "%s", j.err);
	jfree(v);
	return -1;
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->k[i], key))
			return &o->v[i];
	return NULL;
}

static const char *jstr(const struct jv *o, const char *key)
{
	const struct jv *v = jget(o, key);

	return v && v->t == J_STR ? v->str : NULL;
}

static long jnum(const struct jv *o, const char *key, long dflt)
{
	const struct jv *v = jget(o, key);

	if (v && v->t == J_NUM)
		return (long)v->num;
	if (v && v->t == J_BOOL)
		return v->b;
	return dflt;
}

/* ---- the matrix ---- */

struct mconf { const char *id, *kernel, *op, *level, *label; };
struct msubj { const char *id, *title, *kind; };
struct mcell { int s, c; const char *value, *detail; };

struct matrix {
	struct jv root;
	char path[PATH_MAX];
	struct mconf *conf;
	struct msubj *subj;
	struct mcell *cell;
	int nconf, nsubj, ncell;
};

static char *slurp(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap += 65536);

			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0 && len < (16u << 20));
	if (ferror(f) || len >= (16u << 20)) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ? strerror(errno) : "larger than 16 MiB");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	char jerr[128];
	char *text = slurp(path, err, errlen);
	const struct jv *cf, *sb, *cl;

	if (!text)
		return -1;
	if (!realpath(path, m->path))
		snprintf(m->path, sizeof(m->path), "%s", path);
	if (jparse(text, &m->root, jerr, sizeof(jerr))) {
		snprintf(err, errlen, "%s: not JSON: %s", path, jerr);
		free(text);
		return -1;
	}
	free(text);
	cf = jget(&m->root, "configs");
	sb = jget(&m->root, "subjects");
	cl = jget(&m->root, "cells");
	if (!cf || cf->t != J_ARR || !sb || sb->t != J_ARR || !cl || cl->t != J_ARR) {
		snprintf(err, errlen, "%s: no configs, subjects and cells arrays: not the compatibility matrix", path);
		return -1;
	}
	m->conf = calloc((size_t)cf->n + 1, sizeof(*m->conf));
	m->subj = calloc((size_t)sb->n + 1, sizeof(*m->subj));
	m->cell = calloc((size_t)cl->n + 1, sizeof(*m->cell));
	if (!m->conf || !m->subj || !m->cell) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < cf->n; i++) {
		const struct jv *o = &cf->v[i];
		struct mconf *c = &m->conf[m->nconf];

		c->id = jstr(o, "id");
		c->kernel = jstr(o, "kernel");
		c->op = jstr(o, "op");
		c->level = jstr(o, "level");
		c->label = jstr(o, "label");
		if (!c->id || !c->kernel || !c->op || !c->level) {
			snprintf(err, errlen, "%s: configs[%d] lacks id, kernel, op or level", path, i);
			return -1;
		}
		if (!c->label)
			c->label = c->id;
		m->nconf++;
	}
	for (int i = 0; i < sb->n; i++) {
		const struct jv *o = &sb->v[i];
		struct msubj *s = &m->subj[m->nsubj];

		s->id = jstr(o, "id");
		s->title = jstr(o, "title");
		s->kind = jstr(o, "kind");
		if (!s->id || !s->kind) {
			snprintf(err, errlen, "%s: subjects[%d] lacks id or kind", path, i);
			return -1;
		}
		if (!s->title)
			s->title = s->id;
		m->nsubj++;
	}
	for (int i = 0; i < cl->n; i++) {
		const struct jv *o = &cl->v[i];
		const char *sid = jstr(o, "subject"), *cid = jstr(o, "config");
		struct mcell *c = &m->cell[m->ncell];

		c->s = c->c = -1;
		c->value = jstr(o, "value");
		c->detail = jstr(o, "detail");
		if (!sid || !cid || !c->value) {
			snprintf(err, errlen, "%s: cells[%d] lacks subject, config or value", path, i);
			return -1;
		}
		for (int k = 0; k < m->nsubj; k++)
			if (!strcmp(m->subj[k].id, sid))
				c->s = k;
		for (int k = 0; k < m->nconf; k++)
			if (!strcmp(m->conf[k].id, cid))
				c->c = k;
		if (c->s < 0 || c->c < 0) {
			snprintf(err, errlen, "%s: cells[%d] names an unknown subject or config", path, i);
			return -1;
		}
		if (!c->detail)
			c->detail = "";
		m->ncell++;
	}
	return 0;
}

static void matrix_free(struct matrix *m)
{
	jfree(&m->root);
	free(m->conf);
	free(m->subj);
	free(m->cell);
}

static const struct mcell *cell_at(const struct matrix *m, int s, int c)
{
	for (int i = 0; i < m->ncell; i++)
		if (m->cell[i].s == s && m->cell[i].c == c)
			return &m->cell[i];
	return NULL;
}

/* The configuration of kernel family @fam that sets @op to @lv alone;
 * for "always", the configuration without restriction. */
static int conf_find(const struct matrix *m, const char *fam, int op, enum level lv)
{
	for (int i = 0; i < m->nconf; i++)
		if (!strcmp(m->conf[i].kernel, fam) && !strcmp(m->conf[i].op, op_names[op]) &&
		    !strcmp(m->conf[i].level, level_name(lv)))
			return i;
	if (lv != LV_ALWAYS)
		return -1;
	for (int i = 0; i < m->nconf; i++)
		if (!strcmp(m->conf[i].kernel, fam) && !strcmp(m->conf[i].op, "defaults"))
			return i;
	for (int i = 0; i < m->nconf; i++)
		if (!strcmp(m->conf[i].kernel, fam) && !strcmp(m->conf[i].level, "always"))
			return i;
	return -1;
}

/* ---- the machine ---- */

struct machine {
	struct config cfg;
	struct enforcer en;
	enum level current[NOPS];	/* in force (permissive: always) */
	const char *cur_src[NOPS];
	int permissive;			/* kernel's or enforcer's */
	char fam[24];			/* the matrix's kernel column for force */
	int avail[NOPS][LV_NEVER + 1];	/* levels this kernel can apply */
	int bpf_lsm;			/* 1 active, 0 not, -1 unknown */
	char lsm_list[256];
};

static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void machine_read(struct machine *mc, const struct matrix *m)
{
	char ver[512] = "";

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
	if (mc->en.loaded && mc->en.have_policy) {
		if (mc->en.permissive)
			mc->permissive = 1;
		else
			for (int o = 0; o < OP_FORCE; o++)
				if (mc->en.level[o] > mc->current[o]) {
					mc->current[o] = mc->en.level[o];
					mc->cur_src[o] = "bpf";
				}
	}
	mc->bpf_lsm = -1;
	if (!read_line(LSM_LIST, mc->lsm_list, sizeof(mc->lsm_list))) {
		char l[260];

		snprintf(l, sizeof(l), ",%s,", mc->lsm_list);
		mc->bpf_lsm = strstr(l, ",bpf,") != NULL;
	}

	/* The matrix column for force: Debian's own kernels have theirs. */
	snprintf(mc->fam, sizeof(mc->fam), "%s",
		 mc->cfg.kind == K_PATCHED ? "patched" : "stock");
	read_line("/proc/version", ver, sizeof(ver));
	if (mc->cfg.kind != K_PATCHED && strstr(ver, "Debian")) {
		char deb[24];

		snprintf(deb, sizeof(deb), "debian-%d.%d", mc->cfg.major, mc->cfg.minor);
		for (int i = 0; i < m->nconf; i++)
			if (!strcmp(m->conf[i].kernel, deb))
				snprintf(mc->fam, sizeof(mc->fam), "%s", deb);
	}

	for (int o = 0; o < NOPS; o++) {
		mc->avail[o][LV_ALWAYS] = 1;
		for (int l = LV_SELF; l <= LV_NEVER; l++) {
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
		return conf_find(m, "patched", op, lv);
	c = conf_find(m, mc->fam, op, lv);
	return c >= 0 ? c : conf_find(m, "stock", op, lv);
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
	long records, dropped, unparsed;
	char sources[4][PATH_MAX + 64];
	int nsources;
	long counters[NOPS];	/* kernel counters during --observe; -1 unread */
	int have_counters;
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

static void read_comm(int pid, char *buf, size_t n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_line(path, buf, n))
		snprintf(buf, n, "?");
}

static int tracer_of(int pid)
{
	char path[64], line[256];
	FILE *f;
	int t = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &t) == 1)
			break;
	fclose(f);
	return t;
}

/* A /proc/N/mem or /proc/N/task/T/mem link: N (T: the tid) or 0. */
static int mem_target(const char *link)
{
	int n = 0, t = 0, len = 0;

	if (sscanf(link, "/proc/%d/mem%n", &n, &len) == 1 && !link[len])
		return n;
	len = 0;
	if (sscanf(link, "/proc/%d/task/%d/mem%n", &n, &t, &len) == 2 && !link[len])
		return n;
	return 0;
}

static int fd_mode(int pid, const char *fd)
{
	char path[96], line[128];
	unsigned long flags = 0;
	FILE *f;
	int got = 0;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%.40s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (!got && fgets(line, sizeof(line), f))
		got = sscanf(line, "flags: %lo", &flags) == 1;
	fclose(f);
	return got ? (int)(flags & O_ACCMODE) : -1;
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
		struct seen *s;
		DIR *fds;
		struct dirent *f;
		ssize_t n;
		int pid = atoi(e->d_name);

		if (pid <= 0 || pid == self)
			continue;
		read_comm(pid, comm, sizeof(comm));
		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : comm;
		/* Known programs and aliases by command or executable name. */
		for (int pass = 0; pass < 2; pass++) {
			const char *name = pass ? base : comm;
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
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((f = readdir(fds))) {
			char link[PATH_MAX];
			int target, mode;

			if (f->d_name[0] == '.')
				continue;
			n = readlinkat(dirfd(fds), f->d_name, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			if (!strcmp(link, "anon_inode:seccomp notify")) {
				s = seen_get(st, comm);
				if (s && !s->listener_pid) {
					s->listener_pid = pid;
					if (!s->in_matrix) {
						s->subject = "supervisor";
						s->in_matrix = 1;
					}
				}
			} else if ((target = mem_target(link)) > 0 &&
				   (mode = fd_mode(pid, f->d_name)) >= 0) {
				int rel = target == pid ? REL_SELF :
					  tracer_of(target) == pid ? REL_TRACER : REL_OTHER;

				s = seen_get(st, comm);
				if (!s)
					continue;
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
		}
		closedir(fds);
	}
	closedir(proc);
}

/* ---- observed records ---- */

static int op_index(const char *s)
{
	for (int o = 0; o < NOPS; o++)
		if (!strcmp(s, op_names[o]))
			return o;
	return -1;
}

static void record(struct state *st, const char *comm, int op, int self, int tracer)
{
	struct seen *s = seen_get(st, comm[0] ? comm : "?");

	if (!s)
		return;
	st->records++;
	s->rec[op][tracer ? REL_TRACER : self ? REL_SELF : REL_OTHER]++;
}

/* One line: the tracepoint's (trace_pipe) or procmem watch --json's. */
static void parse_record(struct state *st, const char *line)
{
	struct tp_record r;
	unsigned long lost;
	int o;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '\n' || *line == '#')
		return;
	if (*line == '{') {
		struct jv v;
		char err[128];
		const char *c;

		if (jparse(line, &v, err, sizeof(err))) {
			st->unparsed++;
			return;
		}
		if (jget(&v, "dropped")) {
			/* per verdict: events the ring dropped and those limited */
			static const char *const kinds[] = { "dropped", "limited" };

			for (int k = 0; k < 2; k++) {
				const struct jv *d = jget(&v, kinds[k]);

				for (int i = 0; d && d->t == J_OBJ && i < d->n; i++)
					st->dropped += (long)d->v[i].num;
			}
		} else if (jstr(&v, "op") && (o = op_index(jstr(&v, "op"))) >= 0) {
			c = jstr(&v, "comm");
			record(st, c ? c : "?", o,
			       jnum(&v, "pid", -1) == jnum(&v, "target_pid", -2),
			       (int)jnum(&v, "tracer", 0));
		} else {
			st->unparsed++;
		}
		jfree(&v);
		return;
	}
	switch (tp_parse(line, &r, &lost)) {
	case 1:
		if ((o = op_index(r.op)) >= 0) {
			record(st, r.comm, o, r.pid == r.target_pid, r.tracer);
			return;
		}
		st->unparsed++;
		return;
	case 0:
		st->dropped += (long)lost;
		if (!lost && (strstr(line, "proc_mem_deny:") || strstr(line, "\"op\"")))
			st->unparsed++;
		return;
	default:
		st->unparsed++;
	}
}

static int read_records(struct state *st, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	char line[4096];

	if (!f) {
		fprintf(stderr, "procmem: advise: cannot read %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		parse_record(st, line);
	if (f != stdin)
		fclose(f);
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]), "records from %s", file);
	return 0;
}

/* SIGINT or SIGTERM ends --observe early; the advice is still given. */
static volatile sig_atomic_t obs_stop;

static void on_stop(int sig)
{
	(void)sig;
	obs_stop = 1;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int on_line(void *st, char *line)
{
	parse_record(st, line);
	return 0;
}

/* Reads lines from fd for @ms milliseconds or until end of file (or,
 * if @stoppable, SIGINT/SIGTERM); each line to parse_record. */
static void pump(struct state *st, int fd, long long ms, int stoppable)
{
	struct linebuf l = { .len = 0 };
	long long end = now_ms() + ms;

	for (;;) {
		long long left = end - now_ms();
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (left <= 0 || (stoppable && obs_stop))
			break;
		if (poll(&p, 1, (int)(left > 200 ? 200 : left)) <= 0)
			continue;
		if (lines_read(&l, fd, on_line, st) < 0)
			break;
	}
	if (l.len)
		parse_record(st, l.buf);
}

/* The patched kernel: a tracefs instance of our own with the tracepoint. */
static int observe_tracepoint(struct state *st, int secs)
{
	char inst[128], err[256];
	long before[NOPS][2], after[NOPS][2];
	long long t0;
	int fd, have;

	fd = tp_open("advise", inst, sizeof(inst), err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "procmem: advise: %s\n", err);
		return -1;
	}
	have = !read_denied(before);
	t0 = now_ms();
	fprintf(stderr, "procmem: advise: observing for %d s (tracepoint proc_mem:proc_mem_deny)\n", secs);
	pump(st, fd, secs * 1000LL, 1);
	have = have && !read_denied(after);
	/* What the kernel buffered until now is read too. */
	pump(st, fd, 300, 0);
	tp_close(fd, inst);
	st->have_counters = have;
	for (int o = 0; o < NOPS && have; o++)
		st->counters[o] = after[o][0] - before[o][0] + after[o][1] - before[o][1];
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]),
			 "tracepoint proc_mem:proc_mem_deny for %lld s%s", (now_ms() - t0 + 500) / 1000,
			 obs_stop ? " (ended by a signal)" : "");
	return 0;
}

/* Has @pid installed its SIGTERM handler? */
static int watch_ready(pid_t pid)
{
	char path[64], line[128];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1)
			break;
	fclose(f);
	return (mask >> (SIGTERM - 1)) & 1;
}

/* A stock kernel with the enforcer: our own `procmem watch --json`. */
static int observe_watch(struct state *st, int secs)
{
	int p[2], status;
	long long t0;
	pid_t child;

	if (pipe(p))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl("/proc/self/exe", "procmem", "watch", "--json", "--all", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/* Ready once it catches SIGTERM: it reads the ring buffer then, and
	 * the buffer keeps what came before. */
	for (int i = 0; i < 200 && !watch_ready(child); i++)
		poll(NULL, 0, 50);
	t0 = now_ms();
	fprintf(stderr, "procmem: advise: observing for %d s (procmem watch)\n", secs);
	pump(st, p[0], secs * 1000LL, 1);
	pump(st, p[0], 600, 0);		/* what is on its way */
	kill(child, SIGTERM);
	pump(st, p[0], 5000, 0);	/* to its end of file */
	close(p[0]);
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || (WEXITSTATUS(status) && WEXITSTATUS(status) != EXIT_OK)) {
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
			goto ok;
		fprintf(stderr, "procmem: advise: procmem watch failed (status %d)\n",
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -1;
	}
ok:
	if (st->nsources < 4)
		snprintf(st->sources[st->nsources++], sizeof(st->sources[0]),
			 "procmem watch (BPF LSM enforcer) for %lld s%s", (now_ms() - t0 + 500) / 1000,
			 obs_stop ? " (ended by a signal)" : "");
	return 0;
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
				    !(c = cell_at(m, k, v->conf)))
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

static void verdict_json(const struct verdict *v, const struct matrix *m)
{
	printf("\"matrix\": ");
	if (v->conf >= 0) {
		printf("{\"config\": ");
		json_str(stdout, m->conf[v->conf].id);
		printf("}");
	} else {
		printf("null");
	}
	printf(", \"breaks\": [");
	for (int i = 0; i < v->nbr; i++) {
		printf("%s{\"who\": ", i ? ", " : "");
		json_str(stdout, v->br[i].who->name);
		printf(", \"why\": ");
		json_str(stdout, v->br[i].text);
		printf("}");
	}
	printf("], \"fallbacks\": [");
	for (int i = 0; i < v->ncost; i++) {
		printf("%s{\"who\": ", i ? ", " : "");
		json_str(stdout, v->cost[i].who->name);
		printf(", \"why\": ");
		json_str(stdout, v->cost[i].text);
		printf("}");
	}
	printf("]");
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
	struct verdict at[NOPS][LV_NEVER + 1];
	struct verdict now[NOPS];	/* under the policy in force */
	int attack_conf[16][NOPS];	/* per attack subject: blocking column, -1 */
};

static const char *kind_word(enum kernel_kind k)
{
	return k == K_PATCHED ? "patched" : k == K_STOCK ? "stock" : "none";
}

/* The lines that apply @a on this kernel. */
struct apply {
	char cmdline[256];
	char sysctl[4][96];
	int nsysctl;
	char enforce[160];
	char notes[4][256];
	int nnotes;
};

static void make_apply(const struct machine *mc, const enum level *t, struct apply *ap)
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
			if (mc->cfg.configured[o] > t[o] && ap->nnotes < 4)
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
		snprintf(ap->enforce, sizeof(ap->enforce), "--open-read=%s --open-write=%s --write=%s",
			 level_name(t[OP_OPEN_READ]), level_name(t[OP_OPEN_WRITE]),
			 level_name(t[OP_WRITE]));
		if (mc->bpf_lsm == 0) {
			char l[300];

			snprintf(l, sizeof(l), ",%s", mc->lsm_list);
			snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
				 "BPF LSM is not active: boot with lsm=%.180s,bpf for procmem enforce",
				 strncmp(l, ",capability,", 12) ? mc->lsm_list : mc->lsm_list + 11);
		}
	} else if (mc->en.loaded) {
		/* a config describes the whole policy: nothing restricted */
		snprintf(ap->enforce, sizeof(ap->enforce),
			 "--open-read=always --open-write=always --write=always");
	}
	if (mc->cfg.kind == K_NONE && t[OP_FORCE] > LV_ALWAYS)
		snprintf(ap->notes[ap->nnotes++], sizeof(ap->notes[0]),
			 "this kernel has no control of force (proc_mem.force_override came with 6.11)");
}

static void print_text(const struct matrix *m, const struct machine *mc, const struct state *st,
		       const struct advice *a, const struct profile *prof, const struct apply *ap,
		       int rc)
{
	static const char *const results[] = {
		"ok: the policy in force is the ",
		"differs: the policy in force is not the ",
		"", "",
		"breaks: the policy in force breaks something seen here",
		"profile-breaks: the profile would break something seen here",
	};
	int any;

	printf("kernel:     %s, %s controls; matrix columns: %s (force), %s (others)\n",
	       mc->cfg.release, kind_word(mc->cfg.kind),
	       mc->cfg.kind == K_PATCHED ? "patched" : mc->fam, "patched");
	printf("matrix:     %s (%d programs and attacks, %d configurations)\n", m->path,
	       m->nsubj, m->nconf);
	if (mc->permissive)
		printf("permissive: yes: the configured levels are logged, not enforced (in force: always)\n");
	if (mc->cfg.kind != K_PATCHED)
		printf("enforcer:   %s; BPF LSM %s\n",
		       mc->en.loaded && mc->en.have_policy ? "loaded" : "not loaded",
		       mc->bpf_lsm == 1 ? "active" : mc->bpf_lsm == 0 ? "not active" : "unknown");
	printf("observed:   ");
	if (!st->nsources)
		printf("nothing (no --observe or --records)");
	for (int i = 0; i < st->nsources; i++)
		printf("%s%s", i ? "; " : "", st->sources[i]);
	printf(": %ld record%s", st->records, st->records == 1 ? "" : "s");
	if (st->dropped)
		printf(", %ld dropped", st->dropped);
	if (st->unparsed)
		printf(", %ld lines not understood", st->unparsed);
	printf("\n");
	if (st->have_counters) {
		printf("counters:  ");
		for (int o = 0; o < NOPS; o++)
			printf(" %s +%ld", op_names[o], st->counters[o]);
		printf(" (denied and would deny, during the observation)\n");
	}
	printf("\nseen here:\n");
	any = 0;
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

	printf("\n%s:\n", prof ? "profile" : "advice");
	if (prof)
		printf("  %s (%s)\n", prof->name, prof->title);
	printf("%-11s %-9s %-9s %s\n", "operation", "in force", prof ? "profile" : "advice",
	       "breaks at: always self ptrace never");
	for (int o = 0; o < NOPS; o++) {
		printf("%-11s %-9s %-9s %10s", op_names[o], level_name(mc->current[o]),
		       level_name(a->target[o]), "");
		for (int l = LV_ALWAYS; l <= LV_NEVER; l++) {
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
		for (int l = LV_ALWAYS; l <= LV_NEVER; l++) {
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
	printf("\nattacks under the %s:\n", prof ? "profile" : "advice");
	for (int k = 0, na = 0; k < m->nsubj; k++) {
		int by = -1;

		if (strcmp(m->subj[k].kind, "attack"))
			continue;
		for (int o = 0; o < NOPS; o++)
			if (a->attack_conf[na][o] >= 0)
				by = a->attack_conf[na][o];
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
	printf("\nresult:     %s%s\n", results[rc],
	       rc > EXIT_FINDING ? "" : prof ? "profile" : "advice");
}

static void print_json(const struct matrix *m, const struct machine *mc, const struct state *st,
		       const struct advice *a, const struct profile *prof, const struct apply *ap,
		       int rc)
{
	static const char *const results[] = { "ok", "could-tighten", "", "", "breaks",
					       "profile-breaks" };

	printf("{\n  \"command\": \"advise\",\n  \"kernel\": {\"release\": ");
	json_str(stdout, mc->cfg.release);
	printf(", \"controls\": \"%s\", \"matrix_force_column\": ", kind_word(mc->cfg.kind));
	json_str(stdout, mc->cfg.kind == K_PATCHED ? "patched" : mc->fam);
	printf(", \"enforcer\": %s, \"bpf_lsm\": %s},\n",
	       mc->en.loaded && mc->en.have_policy ? "true" : "false",
	       mc->bpf_lsm == 1 ? "true" : mc->bpf_lsm == 0 ? "false" : "null");
	printf("  \"matrix\": ");
	json_str(stdout, m->path);
	printf(",\n  \"observed\": {\"sources\": [");
	for (int i = 0; i < st->nsources; i++) {
		printf("%s", i ? ", " : "");
		json_str(stdout, st->sources[i]);
	}
	printf("], \"records\": %ld, \"dropped\": %ld, \"unparsed\": %ld, \"counters\": ",
	       st->records, st->dropped, st->unparsed);
	if (st->have_counters) {
		printf("{");
		for (int o = 0; o < NOPS; o++)
			printf("%s\"%s\": %ld", o ? ", " : "", op_names[o], st->counters[o]);
		printf("}");
	} else {
		printf("null");
	}
	printf("},\n  \"seen\": [");
	for (int i = 0; i < st->nseen; i++) {
		const struct seen *s = &st->seen[i];

		printf("%s\n    {\"name\": ", i ? "," : "");
		json_str(stdout, s->name);
		printf(", \"matrix_subject\": ");
		json_str(stdout, s->in_matrix ? s->subject : NULL);
		printf(", \"installed\": ");
		json_str(stdout, s->installed[0] ? s->installed : NULL);
		printf(", \"running_pid\": %d, \"listener_pid\": %d, \"holder_pid\": %d, \"in_use\": %s, \"records\": {",
		       s->running_pid, s->listener_pid, s->holder_pid, in_use(st, s) ? "true" : "false");
		for (int o = 0; o < NOPS; o++) {
			printf("%s\"%s\": {", o ? ", " : "", op_names[o]);
			for (int r = 0; r < NRELS; r++)
				printf("%s\"%s\": %ld", r ? ", " : "", rel_names[r], s->rec[o][r]);
			printf("}");
		}
		printf("}}");
	}
	printf("%s],\n  \"profile\": ", st->nseen ? "\n  " : "");
	json_str(stdout, prof ? prof->name : NULL);
	printf(",\n  \"operations\": {\n");
	for (int o = 0; o < NOPS; o++) {
		printf("    \"%s\": {\"in_force\": \"%s\", \"source\": ", op_names[o],
		       level_name(mc->current[o]));
		json_str(stdout, mc->cur_src[o]);
		printf(", \"%s\": \"%s\", \"note\": ", prof ? "profile" : "advice",
		       level_name(a->target[o]));
		json_str(stdout, a->note[o]);
		printf(", \"levels\": {");
		for (int l = LV_ALWAYS, first = 1; l <= LV_NEVER; l++) {
			if (!mc->avail[o][l])
				continue;
			printf("%s\n      \"%s\": {", first ? "" : ",", level_name((enum level)l));
			verdict_json(&a->at[o][l], m);
			printf("}");
			first = 0;
		}
		printf("}}%s\n", o < NOPS - 1 ? "," : "");
	}
	printf("  },\n  \"attacks\": {");
	for (int k = 0, na = 0; k < m->nsubj; k++) {
		int by = -1;

		if (strcmp(m->subj[k].kind, "attack"))
			continue;
		for (int o = 0; o < NOPS && by < 0; o++)
			if (a->attack_conf[na][o] >= 0)
				by = a->attack_conf[na][o];
		printf("%s\n    ", na ? "," : "");
		json_str(stdout, m->subj[k].id);
		printf(": {\"result\": \"%s\", \"by\": ", by >= 0 ? "blocked" : "allowed");
		json_str(stdout, by >= 0 ? m->conf[by].id : NULL);
		printf("}");
		na++;
	}
	printf("\n  },\n  \"apply\": {\"cmdline\": ");
	json_str(stdout, ap->cmdline[0] ? ap->cmdline : NULL);
	printf(", \"sysctl_d\": [");
	for (int i = 0; i < ap->nsysctl; i++) {
		printf("%s", i ? ", " : "");
		json_str(stdout, ap->sysctl[i]);
	}
	printf("], \"enforce_conf\": ");
	json_str(stdout, ap->enforce[0] ? ap->enforce : NULL);
	printf(", \"notes\": [");
	for (int i = 0; i < ap->nnotes; i++) {
		printf("%s", i ? ", " : "");
		json_str(stdout, ap->notes[i]);
	}
	printf("]},\n  \"result\": \"%s\",\n  \"exit\": %d\n}\n", results[rc], rc);
}

/* ---- the command ---- */

static int adv_usage(const char *fmt, const char *arg)
{
	fputs("procmem: advise: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'procmem --help'.\n", stderr);
	return EXIT_USAGE;
}

/* The matrix: --matrix, $PROCMEM_MATRIX, next to the installed binary
 * (PREFIX/bin -> PREFIX/share/procmem), or the build tree's docs/. */
static int find_matrix(const char *opt, char *out, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len;
	const char *env = getenv("PROCMEM_MATRIX");

	if (opt || (env && *env)) {
		snprintf(out, n, "%s", opt ? opt : env);
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		char *slash;

		exe[len] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(out, n, "%.3900s/../share/procmem/" MATRIX_NAME, exe);
		if (!access(out, R_OK))
			return 0;
		snprintf(out, n, "%.3900s/../../docs/" MATRIX_NAME, exe);
		if (!access(out, R_OK))
			return 0;
	}
	snprintf(out, n, "/usr/share/procmem/" MATRIX_NAME);
	return access(out, R_OK) ? -1 : 0;
}

int cmd_advise(int argc, char **argv)
{
	static struct state st;
	static struct advice a;
	struct matrix m;
	struct machine mc;
	struct apply ap;
	const struct profile *prof = NULL;
	const char *matrix_opt = NULL, *records[8];
	char mpath[PATH_MAX], err[PATH_MAX + 160];
	int json = 0, observe = 0, nrec = 0, rc, breaks_now = 0, differs = 0, prof_breaks = 0;

	memset(&st, 0, sizeof(st));
	memset(&a, 0, sizeof(a));
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = NULL;

		if (!strcmp(arg, "advise"))
			continue;
		if (!strncmp(arg, "--", 2) && strchr(arg, '=')) {
			static char opt[64];

			snprintf(opt, sizeof(opt), "%.*s", (int)(strchr(arg, '=') - arg), arg);
			val = strchr(arg, '=') + 1;
			arg = opt;
		}
#define VALUE() (val ? val : i + 1 < argc ? argv[++i] : NULL)
		if (!strcmp(arg, "--json")) {
			json = 1;
		} else if (!strcmp(arg, "--installed")) {
			st.count_installed = 1;
		} else if (!strcmp(arg, "--observe")) {
			const char *v = VALUE();
			char *end;
			long s;

			if (!v)
				return adv_usage("%s needs a number of seconds", arg);
			errno = 0;
			s = strtol(v, &end, 10);
			if (errno || end == v || *end || s < 1 || s > 86400)
				return adv_usage("--observe takes 1 to 86400 seconds, not '%s'", v);
			observe = (int)s;
		} else if (!strcmp(arg, "--records")) {
			const char *v = VALUE();

			if (!v)
				return adv_usage("%s needs a file", arg);
			if (nrec == 8)
				return adv_usage("%s: at most 8 files", arg);
			records[nrec++] = v;
		} else if (!strcmp(arg, "--matrix")) {
			matrix_opt = VALUE();
			if (!matrix_opt)
				return adv_usage("%s needs a file", arg);
		} else if (!strcmp(arg, "--profile")) {
			const char *v = VALUE();

			if (!v)
				return adv_usage("%s needs a name (desktop, server, container-host, appliance)", arg);
			for (size_t k = 0; k < sizeof(profiles) / sizeof(profiles[0]); k++)
				if (!strcmp(v, profiles[k].name))
					prof = &profiles[k];
			if (!prof)
				return adv_usage("unknown profile '%s' (desktop, server, container-host, appliance)", v);
		} else if (!strcmp(arg, "--program")) {
			const char *v = VALUE();
			const char *eq = v ? strchr(v, '=') : NULL;

			if (!eq || eq == v || !eq[1] || eq - v > 15 || strlen(eq + 1) > 47)
				return adv_usage("--program takes COMM=SUBJECT (a matrix subject id), not '%s'",
						 v ? v : "");
			if (st.nalias == MAX_ALIAS)
				return adv_usage("%s: at most 16", arg);
			snprintf(st.alias[st.nalias].comm, sizeof(st.alias[0].comm), "%.*s",
				 (int)(eq - v), v);
			snprintf(st.alias[st.nalias].subject, sizeof(st.alias[0].subject), "%s", eq + 1);
			st.nalias++;
		} else {
			return adv_usage("unknown argument '%s'", argv[i]);
		}
#undef VALUE
	}

	if (find_matrix(matrix_opt, mpath, sizeof(mpath))) {
		fprintf(stderr, "procmem: advise: no %s found (--matrix FILE, or make install)\n",
			MATRIX_NAME);
		return EXIT_NORUN;
	}
	memset(&m, 0, sizeof(m));
	if (matrix_load(&m, mpath, err, sizeof(err))) {
		fprintf(stderr, "procmem: advise: %s\n", err);
		matrix_free(&m);
		return EXIT_NORUN;
	}
	for (int i = 0; i < st.nalias; i++) {
		int ok = 0;

		for (int k = 0; k < m.nsubj; k++)
			ok |= subject_matches(st.alias[i].subject, m.subj[k].id);
		if (!ok) {
			matrix_free(&m);
			return adv_usage("--program: the matrix has no subject '%s'", st.alias[i].subject);
		}
	}
	memset(&mc, 0, sizeof(mc));
	machine_read(&mc, &m);

	/* What is here: installed, running now, observed, running after. */
	find_installed(&st);
	scan_processes(&st);
	for (int i = 0; i < nrec; i++)
		if (read_records(&st, records[i])) {
			matrix_free(&m);
			return EXIT_NORUN;
		}
	if (observe) {
		int r;

		if (geteuid() != 0) {
			fprintf(stderr, "procmem: advise: --observe needs root\n");
			matrix_free(&m);
			return EXIT_NORUN;
		}
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		if (mc.cfg.kind == K_PATCHED && mc.cfg.have_sysctl)
			r = observe_tracepoint(&st, observe);
		else if (mc.en.loaded)
			r = observe_watch(&st, observe);
		else {
			fprintf(stderr, "procmem: advise: nothing to observe with: no proc_mem tracepoint and no enforcer (procmem enforce --permissive)\n");
			r = -1;
		}
		if (r) {
			matrix_free(&m);
			return EXIT_NORUN;
		}
		scan_processes(&st);
	}

	/* Judge every available level of every operation. */
	for (int o = 0; o < NOPS; o++) {
		for (int l = LV_ALWAYS; l <= LV_NEVER; l++)
			if (mc.avail[o][l])
				judge(&m, &mc, &st, o, (enum level)l, &a.at[o][l]);
		judge(&m, &mc, &st, o, mc.current[o], &a.now[o]);
		breaks_now |= a.now[o].nbr > 0;
		if (prof) {
			enum level want = prof->lv[o];

			/* A level this kernel lacks: the nearest looser one,
			 * never one that breaks more than the profile means to. */
			a.target[o] = want;
			while (a.target[o] > LV_ALWAYS && !mc.avail[o][a.target[o]])
				a.target[o]--;
			if (a.target[o] != want)
				a.note[o] = "this kernel lacks the profile's level; the nearest looser one";
			prof_breaks |= a.at[o][a.target[o]].nbr > 0;
		} else {
			a.target[o] = LV_ALWAYS;
			for (int l = LV_NEVER; l > LV_ALWAYS; l--)
				if (mc.avail[o][l] && !a.at[o][l].nbr) {
					a.target[o] = (enum level)l;
					break;
				}
		}
		differs |= a.target[o] != mc.current[o];
	}
	/* Attacks: blocked under the target if one operation's level alone
	 * blocks it in the matrix (a stricter combination only adds checks). */
	for (int k = 0, na = 0; k < m.nsubj && na < 16; k++) {
		if (strcmp(m.subj[k].kind, "attack"))
			continue;
		for (int o = 0; o < NOPS; o++) {
			int c = a.target[o] > LV_ALWAYS ? column(&m, &mc, o, a.target[o]) : -1;
			const struct mcell *cl = c >= 0 ? cell_at(&m, k, c) : NULL;

			a.attack_conf[na][o] = cl && !strcmp(cl->value, "blocked") ? c : -1;
		}
		na++;
	}
	make_apply(&mc, a.target, &ap);

	rc = breaks_now ? EXIT_ADV_BREAKS : prof_breaks ? EXIT_ADV_PROFILE :
	     differs ? EXIT_FINDING : EXIT_OK;
	if (json)
		print_json(&m, &mc, &st, &a, prof, &ap, rc);
	else
		print_text(&m, &mc, &st, &a, prof, &ap, rc);
	matrix_free(&m);
	return rc;
}
