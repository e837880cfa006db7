// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/PID/mem policy as docs/interface.md states it.
 *
 * Reading of the contract, where it leaves room, decided here:
 * - open() first passes the ptrace access check (stock): a process of
 *   another uid gets EACCES and no policy counter moves.
 * - O_RDWR is checked for open_read, then for open_write; enforcing, when
 *   the first refuses the second is not asked: one refused open is one
 *   denial.  In permissive mode each operation that would refuse counts
 *   one would-deny (series v3).
 * - write is checked once the address space is held, before anything else
 *   of a write(); force on the access.
 * - self is tied to the opener (v2): at write and force it admits the
 *   target only through an fd opened by a task then on the target's mm or
 *   its tracer, not one a deputy opened and sent (SCM_RIGHTS).
 * - An address space that is gone (the target exec'd) reads and writes as
 *   0 bytes at every level, with no check and nothing counted (stock's
 *   end of file).
 * - force: FOLL_FORCE overrides a missing read or write permission when
 *   the mapping may get it (VM_MAYREAD/VM_MAYWRITE, not so for a shared
 *   read-only file mapping).  Withholding it from an access that then
 *   fails is one force denial only where FOLL_FORCE would have helped
 *   (series v4): enforcing, the mapping may get the permission; in
 *   permissive mode, the retry with FOLL_FORCE succeeded.  An access that
 *   fails either way (a write to a shared read-only mapping) is EIO with
 *   nothing counted, in both modes.
 * - An address no mapping covers fails with EIO at every level: FOLL_FORCE
 *   would not cure it, so it is no force denial and nothing is counted
 *   (the open and write checks come first, as for any address).
 */
#include "model.h"

#include <errno.h>
#include <string.h>

const char *const m_op_names[M_NR_OPS] = {
	"open_read", "open_write", "write", "force",
};
const char *const m_level_names[M_NR_LEVELS] = {
	"always", "self", "ptrace", "never",
};
const char *const m_rel_names[R_NR] = {
	"self", "tracer", "parent", "inherit", "detached", "execed", "deputy",
	"tracerfd", "otheruid",
};
const char *const m_mode_names[MODE_NR] = { "rdonly", "wronly", "rdwr" };
const char *const m_access_names[ACC_NR] = { "none", "read", "write" };
const char *const m_prot_names[P_NR] = {
	"rw", "ro", "none", "rx", "shared_ro",
};
const char *const m_result_names[RES_NR] = {
	"ok", "open:EACCES", "EACCES", "EIO", "EBADF", "EOF",
};

bool m_mutate;

/* What the accessor is to the target at one moment. */
struct ctx {
	bool own_mm;	/* the file's mm is the accessor's own */
	bool tracer;	/* active ptracer, target still on the file's mm */
	bool opener;	/* the file was opened by a task then on its mm, or T */
};

int m_parse_level(const char *name)
{
	static const struct { const char *name; enum m_level level; } names[] = {
		{ "always", M_ALWAYS }, { "self", M_SELF },
		{ "ptrace", M_PTRACE }, { "never", M_NEVER },
		/* Adrian Ratiu's "proc: restrict /proc/pid/mem" v6 synonyms */
		{ "off", M_ALWAYS }, { "ptracer", M_PTRACE }, { "all", M_NEVER },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			return (int)names[i].level;
	return -1;
}

static bool allowed(enum m_level level, struct ctx c)
{
	switch (level) {
	case M_ALWAYS:
		return true;
	case M_SELF:	/* tied to the opener: not a deputy's fd */
		return (c.own_mm && c.opener) || (c.tracer && !m_mutate);
	case M_PTRACE:
		return c.tracer;
	default:
		return false;
	}
}

/* A denial: counted; true if the operation goes on (permissive). */
static bool deny(struct m_state *s, enum m_op op)
{
	if (s->permissive) {
		s->would[op]++;
		return true;
	}
	s->denied[op]++;
	return false;
}

static bool check(struct m_state *s, enum m_op op, struct ctx c)
{
	return allowed(s->level[op], c) || deny(s, op);
}

enum m_result m_run(struct m_state *s, const struct m_case *c)
{
	struct ctx at_open = { false, false, false }, at_access = { false, false, false };
	bool readable, writable, may, gone = false;

	switch (c->rel) {
	case R_SELF:
		at_open.own_mm = at_access.own_mm = true;
		at_open.opener = at_access.opener = true;
		break;
	case R_TRACER:
		at_open.tracer = at_access.tracer = true;
		at_open.opener = at_access.opener = true;
		break;
	case R_PARENT:
		break;
	case R_INHERIT:
		at_open.own_mm = at_open.opener = true;
		break;
	case R_DEPUTY:
		at_access.own_mm = true;
		break;
	case R_TRACERFD:
		at_open.tracer = at_open.opener = true;
		at_access.own_mm = at_access.opener = true;
		break;
	case R_DETACHED:
		at_open.tracer = at_open.opener = at_access.opener = true;
		break;
	case R_EXECED:
		at_open.tracer = at_open.opener = at_access.opener = true;
		gone = true;
		break;
	default:
		return RES_OPEN_EACCES;
	}

	if (c->mode != MODE_WRONLY && !check(s, M_OPEN_READ, at_open))
		return RES_OPEN_EACCES;
	if (c->mode != MODE_RDONLY && !check(s, M_OPEN_WRITE, at_open))
		return RES_OPEN_EACCES;

	switch (c->access) {
	case ACC_NONE:
		return RES_OK;
	case ACC_READ:
		if (c->mode == MODE_WRONLY)
			return RES_EBADF;
		break;
	default:
		if (c->mode == MODE_RDONLY)
			return RES_EBADF;
		if (gone)
			return RES_EOF;
		if (!check(s, M_WRITE, at_access))
			return RES_EACCES;
		break;
	}
	if (gone)
		return RES_EOF;

	if (c->prot == P_UNMAPPED)
		return RES_EIO;	/* nothing to force: no denial */
	readable = c->prot != P_NONE;
	writable = c->prot == P_RW;
	if (c->access == ACC_READ) {
		may = true;
		if (readable)
			return RES_OK;
	} else {
		may = c->prot != P_SHARED_RO;
		if (writable)
			return RES_OK;
	}
	if (!may)
		return RES_EIO;	/* FOLL_FORCE would not cure it: no denial */
	if (!allowed(s->level[M_FORCE], at_access) && !deny(s, M_FORCE))
		return RES_EIO;
	return RES_OK;
}

int m_sysctl_level(struct m_state *s, enum m_op op, const char *value)
{
	char name[64];
	size_t len = strlen(value);
	int level;

	if (len >= sizeof(name))
		return -EINVAL;
	memcpy(name, value, len + 1);
	if (len && name[len - 1] == '\n')
		name[len - 1] = '\0';
	level = m_parse_level(name);
	if (level < 0)
		return -EINVAL;
	if (level < (int)s->level[op])
		return -EPERM;
	s->level[op] = (enum m_level)level;
	return 0;
}

int m_sysctl_permissive(struct m_state *s, int val)
{
	if (val && !s->permissive)
		return -EPERM;
	s->permissive = val != 0;
	return 0;
}
