// SPDX-License-Identifier: GPL-2.0
/*
 * The compatibility matrix, docs/compat-matrix.json (installed as
 * PREFIX/share/procmem/compat-matrix.json): the measured verdict of each
 * program and attack under each configuration, read with json-c.
 */
#include "procmem.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MATRIX_NAME "compat-matrix.json"
#define MATRIX_MAX (16u << 20)

int matrix_find(const char *opt, char *out, size_t n)
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

/* The file, NUL-terminated, at most MATRIX_MAX bytes; NULL and @err. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - *len < 4096) {
			char *nb = realloc(buf, cap += 65536);

			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n > 0 && *len < MATRIX_MAX);
	if (ferror(f) || *len >= MATRIX_MAX) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ? strerror(errno) : "larger than 16 MiB");
		goto fail;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

/* The whole file as one JSON document; NULL and @err. */
static struct json_object *parse_file(const char *path, char *err, size_t errlen)
{
	struct json_object *root;
	size_t len;
	char *text = slurp(path, &len, err, errlen), why[160];

	if (!text)
		return NULL;
	root = pm_json_parse(text, len, why, sizeof(why));
	free(text);
	if (!root)
		snprintf(err, errlen, "%s: %s", path, why);
	return root;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *jarray(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

static int load_configs(struct matrix *m, struct json_object *cf, char *err, size_t errlen)
{
	for (size_t i = 0; i < json_object_array_length(cf); i++) {
		struct json_object *o = json_object_array_get_idx(cf, i);
		struct mconf *c = &m->conf[m->nconf];

		c->id = jstr(o, "id");
		c->kernel = jstr(o, "kernel");
		c->op = jstr(o, "op");
		c->level = jstr(o, "level");
		c->label = jstr(o, "label");
		c->policy = jstr(o, "policy");
		c->force = jstr(o, "force");
		if (!c->id || !c->kernel || !c->op || !c->level) {
			snprintf(err, errlen, "%s: configs[%zu] lacks id, kernel, op or level", m->path, i);
			return -1;
		}
		if (!c->label)
			c->label = c->id;
		m->nconf++;
	}
	return 0;
}

static int load_subjects(struct matrix *m, struct json_object *sb, char *err, size_t errlen)
{
	for (size_t i = 0; i < json_object_array_length(sb); i++) {
		struct json_object *o = json_object_array_get_idx(sb, i);
		struct msubj *s = &m->subj[m->nsubj];

		s->id = jstr(o, "id");
		s->title = jstr(o, "title");
		s->kind = jstr(o, "kind");
		if (!s->id || !s->kind) {
			snprintf(err, errlen, "%s: subjects[%zu] lacks id or kind", m->path, i);
			return -1;
		}
		if (!s->title)
			s->title = s->id;
		m->nsubj++;
	}
	return 0;
}

static int load_cells(struct matrix *m, struct json_object *cl, char *err, size_t errlen)
{
	for (size_t i = 0; i < json_object_array_length(cl); i++) {
		struct json_object *o = json_object_array_get_idx(cl, i);
		const char *sid = jstr(o, "subject"), *cid = jstr(o, "config");
		struct mcell *c = &m->cell[m->ncell];

		c->s = c->c = -1;
		c->value = jstr(o, "value");
		c->detail = jstr(o, "detail");
		if (!sid || !cid || !c->value) {
			snprintf(err, errlen, "%s: cells[%zu] lacks subject, config or value", m->path, i);
			return -1;
		}
		for (int k = 0; k < m->nsubj; k++)
			if (!strcmp(m->subj[k].id, sid))
				c->s = k;
		for (int k = 0; k < m->nconf; k++)
			if (!strcmp(m->conf[k].id, cid))
				c->c = k;
		if (c->s < 0 || c->c < 0) {
			snprintf(err, errlen, "%s: cells[%zu] names an unknown subject or config", m->path, i);
			return -1;
		}
		if (!c->detail)
			c->detail = "";
		m->ncell++;
	}
	return 0;
}

int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	struct json_object *cf, *sb, *cl;

	memset(m, 0, sizeof(*m));
	m->root = parse_file(path, err, errlen);
	if (!m->root)
		return -1;
	if (!realpath(path, m->path))
		snprintf(m->path, sizeof(m->path), "%s", path);
	cf = jarray(m->root, "configs");
	sb = jarray(m->root, "subjects");
	cl = jarray(m->root, "cells");
	if (!cf || !sb || !cl) {
		snprintf(err, errlen, "%s: no configs, subjects and cells arrays: not the compatibility matrix",
			 path);
		return -1;
	}
	m->conf = calloc(json_object_array_length(cf) + 1, sizeof(*m->conf));
	m->subj = calloc(json_object_array_length(sb) + 1, sizeof(*m->subj));
	m->cell = calloc(json_object_array_length(cl) + 1, sizeof(*m->cell));
	if (!m->conf || !m->subj || !m->cell) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (load_configs(m, cf, err, errlen) || load_subjects(m, sb, err, errlen) ||
	    load_cells(m, cl, err, errlen))
		return -1;
	return 0;
}

void matrix_free(struct matrix *m)
{
	json_object_put(m->root);
	free(m->conf);
	free(m->subj);
	free(m->cell);
	memset(m, 0, sizeof(*m));
}

const struct mcell *matrix_cell(const struct matrix *m, int s, int c)
{
	for (int i = 0; i < m->ncell; i++)
		if (m->cell[i].s == s && m->cell[i].c == c)
			return &m->cell[i];
	return NULL;
}

int matrix_conf(const struct matrix *m, const char *fam, int op, enum level lv)
{
	for (int i = 0; i < m->nconf; i++)
		if (!strcmp(m->conf[i].kernel, fam) && !strcmp(m->conf[i].op, op_names[op]) &&
		    !strcmp(m->conf[i].level, level_name(lv)))
			return i;
	for (int i = 0; i < m->nconf; i++) {
		char want[48];
		const char *p = m->conf[i].policy;
		size_t k;

		if (strcmp(m->conf[i].kernel, fam) || strcmp(m->conf[i].op, "defaults"))
			continue;
		/* the force level it boots with: Debian's 7.x, ptrace */
		if (op == OP_FORCE && m->conf[i].force && !strcmp(m->conf[i].force, level_name(lv)))
			return i;
		if (!p)
			continue;
		k = (size_t)snprintf(want, sizeof(want), "%s=%s", op_names[op], level_name(lv));
		for (; (p = strstr(p, want)); p += k)
			if ((p == m->conf[i].policy || p[-1] == ' ') && (p[k] == ' ' || !p[k]))
				return i;
	}
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

void matrix_family(const struct matrix *m, const struct config *c, char *fam, size_t n)
{
	char ver[512] = "", deb[24];

	snprintf(fam, n, "%s", c->kind == K_PATCHED ? "patched" : "stock");
	pm_read_line("/proc/version", ver, sizeof(ver));
	if (c->kind == K_PATCHED || !strstr(ver, "Debian"))
		return;
	snprintf(deb, sizeof(deb), "debian-%d.%d", c->major, c->minor);
	for (int i = 0; i < m->nconf; i++)
		if (!strcmp(m->conf[i].kernel, deb)) {
			snprintf(fam, n, "%s", deb);
			return;
		}
}

int matrix_conf_named(const struct matrix *m, const char *fam, const char *suffix)
{
	size_t f = strlen(fam), k = strlen(suffix);

	for (int i = 0; i < m->nconf; i++) {
		const char *id = m->conf[i].id, *kn = m->conf[i].kernel;
		size_t n = strlen(id);

		if (!strncmp(kn, fam, f) && (!kn[f] || kn[f] == '+') && n >= k &&
		    !strcmp(id + n - k, suffix))
			return i;
	}
	return -1;
}

int matrix_breaks(const struct matrix *m, int conf, char *buf, size_t n)
{
	size_t len = 0;
	int k = 0;

	buf[0] = '\0';
	for (int s = 0; s < m->nsubj; s++) {
		const struct mcell *c = matrix_cell(m, s, conf);

		if (!c || strcmp(m->subj[s].kind, "program") || strcmp(c->value, "breaks"))
			continue;
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? "; " : "",
						m->subj[s].title ? m->subj[s].title : m->subj[s].id);
		k++;
	}
	return k;
}
