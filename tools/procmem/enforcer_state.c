// SPDX-License-Identifier: GPL-2.0
/*
 * What is pinned under PM_PIN_DIR, and the enforcer as procmem status,
 * advise and metrics see it: the pins opened and checked (complete or
 * degraded), the counters, the configuration map, and the live
 * self-check that asks the programs for a verdict on procmem's own mem
 * file.  Loads, attaches and detaches nothing (loader.c does).
 */
#include "procmem.h"
#include "bpf/enforcer.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_FILE	"/run/procmem.lock"

const char *const pm_map_names[PM_NMAPS] = {
	"config", "policy", "cgcache", "files", "counters", "rate", "denials", "accesses",
	"fops",		/* the .bss of the programs: pm_mem_fops */
};
/* Programs and their links, pinned as prog_NAME and NAME. */
const char *const pm_hook_names[PM_NHOOKS] = { "file_open", "file_permission", "file_free" };
const char *const pm_prog_names[PM_NHOOKS] = {
	"pm_file_open", "pm_file_permission", "pm_file_free",
};

int pm_lock(void)
{
	int fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int pm_cfg_get(int fd, struct pm_config *c)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(fd, &zero, c);
}

int pm_cfg_set(int fd, const struct pm_config *c)
{
	__u32 zero = 0;

	return bpf_map_update_elem(fd, &zero, c, BPF_ANY);
}

/* ---- what is pinned ---- */

int pm_pin_get(const char *dir, const char *prefix, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s%s", dir, prefix, name);
	return bpf_obj_get(path);
}

void pm_state_close(struct pm_state *st)
{
	for (int i = 0; i < PM_NMAPS; i++)
		if (st->map[i] >= 0)
			close(st->map[i]);
	for (int i = 0; i < PM_NHOOKS; i++) {
		if (st->prog[i] >= 0)
			close(st->prog[i]);
		st->prog[i] = -1;
	}
	st->linked = 0;
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	st->loaded = 0;
}

static void addf(char *buf, size_t n, const char *fmt, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, fmt, len ? ", " : "", name);
}

/* Is @fd the program pinned as prog_NAME of hook @i (an LSM program of
 * that name)?  Its id, or 0. */
static __u32 prog_id(int fd, int i)
{
	struct bpf_prog_info pi;
	__u32 len = sizeof(pi);

	memset(&pi, 0, sizeof(pi));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &pi, &len) || pi.type != BPF_PROG_TYPE_LSM ||
	    strncmp(pi.name, pm_prog_names[i], sizeof(pi.name) - 1))
		return 0;
	return pi.id;
}

/*
 * The link pinned as NAME of hook @i in @dir: 1 if it is a BPF LSM link
 * of program @id, -1 if it is something else, 0 if there is none.  The
 * link's fd is closed before returning: pins alone hold links.
 */
static int link_check(const char *dir, int i, __u32 id)
{
	struct bpf_link_info li;
	__u32 len = sizeof(li);
	int fd = pm_pin_get(dir, "", pm_hook_names[i]), ok;

	if (fd < 0)
		return 0;
	memset(&li, 0, sizeof(li));
	ok = !bpf_obj_get_info_by_fd(fd, &li, &len) && li.type == BPF_LINK_TYPE_TRACING &&
	     li.tracing.attach_type == BPF_LSM_MAC && id && li.prog_id == id;
	close(fd);
	return ok ? 1 : -1;
}

/*
 * Is @fd a map whose values (its BTF) have a member @name?  An enforcer
 * pinned by another procmem version (an upgrade: the unit does not
 * reload it) has other maps than this one's programs expect.
 */
static int map_has_member(int fd, const char *name)
{
	struct bpf_map_info mi;
	__u32 len = sizeof(mi);
	const struct btf_type *t;
	struct btf *btf;
	int found = 0;

	memset(&mi, 0, sizeof(mi));
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || !mi.btf_id)
		return 0;
	btf = btf__load_from_kernel_by_id(mi.btf_id);
	if (!btf)
		return 0;
	t = btf__type_by_id(btf, mi.btf_value_type_id);
	for (int i = 0; t && btf_is_struct(t) && i < btf_vlen(t); i++)
		found |= !strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), name);
	btf__free(btf);
	return found;
}

/*
 * Is the map @fd of the layout this procmem reads (its value size, and
 * entries where they are counted)?  Another version's map, or a pin
 * replaced by another map, is read as missing: nothing of it is read
 * into buffers sized for this version's values.
 */
static int map_layout_ok(int fd, int i)
{
	static const struct { __u32 value_size, max_entries; } want[PM_NMAPS] = {
		[PM_MAP_CONFIG] = { sizeof(struct pm_config), 1 },
		[PM_MAP_POLICY] = { sizeof(struct pm_policy), 1 },
		[PM_MAP_COUNTERS] = { sizeof(__u64), PM_C_NR },
		[PM_MAP_FOPS] = { sizeof(__u64), 0 },
	};
	struct bpf_map_info mi;
	__u32 len = sizeof(mi);

	if (!want[i].value_size)
		return 1;
	memset(&mi, 0, sizeof(mi));
	return !bpf_obj_get_info_by_fd(fd, &mi, &len) && mi.value_size == want[i].value_size &&
	       (!want[i].max_entries || mi.max_entries == want[i].max_entries);
}

/*
 * Opens what is pinned under PM_PIN_DIR and says what is missing for
 * the policy it holds (st->degraded, st->missing): a pin that is not
 * procmem's (another program, a link of another program or type) is
 * missing.  0, or -1 when nothing is pinned.
 */
int pm_state_open(struct pm_state *st)
{
	__u32 zero = 0;
	unsigned int need;

	memset(st, 0, sizeof(*st));
	st->probe_scope = -1;
	for (int i = 0; i < PM_NMAPS; i++)
		st->map[i] = -1;
	for (int i = 0; i < PM_NHOOKS; i++)
		st->prog[i] = -1;
	if (access(PM_PIN_DIR, F_OK))
		return -1;
	st->loaded = 1;
	for (int i = 0; i < PM_NMAPS; i++) {
		st->map[i] = pm_pin_get(PM_PIN_DIR, "", pm_map_names[i]);
		if (st->map[i] >= 0 && !map_layout_ok(st->map[i], i)) {
			addf(st->missing, sizeof(st->missing), "%s%s (another version's layout)",
			     pm_map_names[i]);
			close(st->map[i]);
			st->map[i] = -1;
		} else if (st->map[i] < 0) {
			addf(st->missing, sizeof(st->missing), "%s%s", pm_map_names[i]);
		}
	}
	for (int i = 0; i < PM_NHOOKS; i++) {
		__u32 id;
		int l;

		st->prog[i] = pm_pin_get(PM_PIN_DIR, "prog_", pm_hook_names[i]);
		id = prog_id(st->prog[i], i);
		if (st->prog[i] >= 0 && !id) {
			addf(st->missing, sizeof(st->missing), "%sprog_%s (not procmem's program)",
			     pm_hook_names[i]);
			close(st->prog[i]);
			st->prog[i] = -1;
		} else if (st->prog[i] < 0) {
			addf(st->missing, sizeof(st->missing), "%sprog_%s", pm_hook_names[i]);
		}
		l = link_check(PM_PIN_DIR, i, id);
		if (l > 0)
			st->linked |= 1U << i;
		else if (l < 0)
			addf(st->missing, sizeof(st->missing), "%s%s (link: not procmem's)",
			     pm_hook_names[i]);
	}
	if (st->map[PM_MAP_CONFIG] >= 0 && !map_has_member(st->map[PM_MAP_CONFIG], "probe_tgid")) {
		addf(st->missing, sizeof(st->missing), "%s%s",
		     "this procmem's programs (another version loaded these)");
		close(st->map[PM_MAP_CONFIG]);
		st->map[PM_MAP_CONFIG] = -1;
	}
	if (st->map[PM_MAP_CONFIG] >= 0 &&
	    !bpf_map_lookup_elem(st->map[PM_MAP_CONFIG], &zero, &st->cfg))
		st->have_cfg = 1;
	if (st->map[PM_MAP_POLICY] >= 0 &&
	    !bpf_map_lookup_elem(st->map[PM_MAP_POLICY], &zero, &st->pol))
		st->have_policy = 1;
	if (st->have_policy && st->pol.noverrides > PM_OVERRIDES_MAX) {
		addf(st->missing, sizeof(st->missing), "%s%s", "a sane policy (too many overrides)");
		st->pol.noverrides = PM_OVERRIDES_MAX;
	}
	if (st->map[PM_MAP_FOPS] >= 0 &&
	    (bpf_map_lookup_elem(st->map[PM_MAP_FOPS], &zero, &st->mem_fops) || !st->mem_fops))
		addf(st->missing, sizeof(st->missing), "%s%s", "the mem file's f_op (fops)");
	if (!st->have_policy && st->map[PM_MAP_POLICY] >= 0)
		addf(st->missing, sizeof(st->missing), "%s%s", "the policy");
	need = st->have_policy ? pm_hooks_needed(&st->pol) : 1U << PM_HOOK_OPEN;
	for (int i = 0; i < PM_NHOOKS; i++)
		if ((need & (1U << i)) && !(st->linked & (1U << i)))
			addf(st->missing, sizeof(st->missing), "%s%s (link)", pm_hook_names[i]);
	if (st->have_cfg && (need & (1U << PM_HOOK_FREE)) && !(st->cfg.flags & PM_F_RECORD))
		addf(st->missing, sizeof(st->missing), "%s%s", "opener records (config)");
	st->degraded = st->missing[0] != 0;
	return 0;
}

int pm_counters(int fd, unsigned long long *sum)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *v;

	if (ncpu <= 0)
		return -1;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -1;
	for (__u32 i = 0; i < PM_C_NR; i++) {
		sum[i] = 0;
		if (bpf_map_lookup_elem(fd, &i, v)) {
			free(v);
			return -1;
		}
		for (int c = 0; c < ncpu; c++)
			sum[i] += v[c];
	}
	free(v);
	return 0;
}

/* The verdict a self access gets at @lv for @op (+1, as the programs store it). */
static int self_verdict(const struct pm_levels *lv, int op)
{
	int ok = lv->level[op] == PM_ALWAYS || lv->level[op] == PM_SELF;

	return 1 + (ok ? PM_V_ALLOWED : lv->permissive ? PM_V_WOULD_DENY : PM_V_DENIED);
}

/*
 * The live self-check: procmem opens its own mem file read-write (and
 * writes nothing through it, if file_permission is attached), named to
 * the programs by its inode number.  The programs decide these accesses
 * as any other, by the policy of the scope they find procmem in, store
 * the verdicts, that scope and the policy's generation for it and
 * enforce none.  0 when every attached hook decided as that scope's
 * levels in this policy say (st->probe_scope: the scope); else -1 and
 * @why.
 */
int pm_self_check(struct pm_state *st, char *why, size_t n)
{
	const struct pm_levels *lv;
	struct pm_config c;
	struct stat sb;
	int fd, path, scope, cfd = st->map[PM_MAP_CONFIG];
	int nops = (st->linked & (1U << PM_HOOK_PERMISSION)) ? PM_NOPS : PM_WRITE;
	char buf[1];

	if (cfd < 0 || !st->have_policy || pm_cfg_get(cfd, &c)) {
		snprintf(why, n, "no config or policy to probe");
		return -1;
	}
	/* O_PATH: no open for the hooks; it holds the inode the probe opens */
	path = open("/proc/self/mem", O_PATH | O_CLOEXEC);
	if (path < 0 || fstat(path, &sb)) {
		snprintf(why, n, "cannot stat /proc/self/mem: %s", strerror(errno));
		if (path >= 0)
			close(path);
		return -1;
	}
	memset(c.probe, 0, sizeof(c.probe));
	c.probe_scope = -1;
	c.probe_gen = 0;
	c.probe_ino = sb.st_ino;
	c.probe_tgid = (unsigned int)getpid();
	if (pm_cfg_set(cfd, &c)) {
		snprintf(why, n, "cannot set the probe");
		close(path);
		return -1;
	}
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd >= 0 && nops == PM_NOPS && pwrite(fd, buf, 0, (off_t)(unsigned long)buf) < 0)
		nops = -1;
	if (fd >= 0)
		close(fd);
	close(path);
	pm_cfg_get(cfd, &c);
	c.probe_ino = 0;
	c.probe_tgid = 0;
	pm_cfg_set(cfd, &c);
	if (fd < 0 || nops < 0) {
		snprintf(why, n, "the probe's own %s was refused: %s", fd < 0 ? "open" : "write",
			 strerror(errno));
		return -1;
	}
	scope = c.probe_scope;
	if (c.probe[PM_OPEN_READ] && c.probe_gen != st->pol.gen) {
		snprintf(why, n, "the programs decided by policy generation %u, not %u",
			 c.probe_gen, st->pol.gen);
		return -1;
	}
	if (c.probe[PM_OPEN_READ] && (scope < -1 || (scope >= st->pol.noverrides &&
						     scope != PM_OVERRIDES_MAX))) {
		snprintf(why, n, "the programs named scope %d of %d overrides", scope,
			 st->pol.noverrides);
		return -1;
	}
	lv = scope < 0 ? &st->pol.machine : scope == PM_OVERRIDES_MAX ? &st->pol.strictest :
	     &st->pol.ov[scope].lv;
	for (int o = 0; o < nops; o++) {
		int want = self_verdict(lv, o);

		if (c.probe[o] != want) {
			snprintf(why, n, "%s by procmem on its own mem file: the programs %s%s, the policy says %s",
				 op_names[o], c.probe[o] ? "decided " : "did not decide it",
				 c.probe[o] ? verdict_name(c.probe[o] - 1, VN_TEXT) : "",
				 verdict_name(want - 1, VN_TEXT));
			return -1;
		}
	}
	st->probe_scope = scope;
	return 0;
}

/* ---- the enforcer as procmem status and advise see it ---- */

int enforcer_loaded(void)
{
	return access(PM_PIN_DIR, F_OK) == 0;
}

int enforcer_read(struct enforcer *e)
{
	struct pm_state st;
	unsigned long long n[PM_C_NR];
	const struct pm_levels *lv;
	char why[256];
	__u64 key, next;
	int lock, probed = 0;

	memset(e, 0, sizeof(*e));
	e->scope = -1;
	for (int o = 0; o < NOPS; o++)
		e->level[o] = LV_UNKNOWN;
	if (!enforcer_loaded())
		return 0;
	e->loaded = 1;
	lock = geteuid() == 0 ? pm_lock() : -1;	/* no enforce in between */
	if (pm_state_open(&st)) {
		snprintf(e->error, sizeof(e->error), "cannot open %s", PM_PIN_DIR);
		if (lock >= 0)
			close(lock);
		return -1;
	}
	if (st.map[PM_MAP_CONFIG] < 0 && st.map[PM_MAP_POLICY] < 0) {
		snprintf(e->error, sizeof(e->error), "cannot open the pinned maps: %s",
			 strerror(errno));
		pm_state_close(&st);
		if (lock >= 0)
			close(lock);
		return -1;
	}
	/* from a pid namespace procmem cannot name itself to the programs:
	 * no live probe there, the pinned state alone */
	if (st.degraded)
		snprintf(e->error, sizeof(e->error), "degraded: missing %s", st.missing);
	else if (pm_initial_pidns() && pm_self_check(&st, why, sizeof(why)))
		snprintf(e->error, sizeof(e->error), "degraded: %s", why);
	else
		probed = pm_initial_pidns();
	if (st.have_policy) {
		/* the scope the programs decided procmem's probe by; without
		 * a probe, the one procmem's cgroup path names */
		if (probed) {
			e->scope = st.probe_scope;
		} else {
			char cg[256];

			pm_own_cgroup(cg, sizeof(cg));
			e->scope = pm_scope_of(&st.pol, cg);
		}
		lv = e->scope < 0 ? &st.pol.machine :
		     e->scope >= PM_OVERRIDES_MAX ? &st.pol.strictest : &st.pol.ov[e->scope].lv;
		if (e->scope >= PM_OVERRIDES_MAX)
			snprintf(e->scope_path, sizeof(e->scope_path), "strictest (cgroup too deep)");
		else if (e->scope >= 0)
			pm_path_join(&st.pol.ov[e->scope], e->scope_path, sizeof(e->scope_path));
		e->have_policy = 1;
		for (int o = 0; o < PM_NOPS; o++)
			e->level[o] = level_of(lv->level[o]);
		e->permissive = lv->permissive;
		e->overrides = st.pol.noverrides;
	}
	if (st.map[PM_MAP_COUNTERS] >= 0 && !pm_counters(st.map[PM_MAP_COUNTERS], n))
		for (int o = 0; o < PM_NOPS; o++) {
			e->denied[o] = n[PM_C_DECIDED(PM_V_DENIED, o)];
			e->would_deny[o] = n[PM_C_DECIDED(PM_V_WOULD_DENY, o)];
			e->allowed[o] = n[PM_C_DECIDED(PM_V_ALLOWED, o)];
		}
	if (st.map[PM_MAP_FILES] >= 0)
		for (int err = bpf_map_get_next_key(st.map[PM_MAP_FILES], NULL, &next); !err;
		     err = bpf_map_get_next_key(st.map[PM_MAP_FILES], &key, &next)) {
			key = next;
			e->files++;
		}
	pm_state_close(&st);
	if (lock >= 0)
		close(lock);
	return e->error[0] ? -1 : 0;
}
