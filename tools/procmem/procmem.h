/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procmem: which /proc/PID/mem policy is in force on this kernel.
 * Shared definitions of the subcommands (main.c's table: status.c,
 * scan.c, enforce.c, watch.c, advise.c, metrics.c) and the modules under
 * them, in the layers of README.md's "Layout", each calling only those
 * below it: the policy model (policy.c), the command line's conventions
 * (cli.c), JSON (output.c), /proc readers (procfs.c); the configuration
 * (config.c), the probes (probe.c), cgroup-v2 paths (cgroup.c), the
 * patched kernel's tracepoint (tracepoint.c), the compatibility matrix
 * (matrix.c), can the enforcer load here (ready.c), what is pinned
 * (enforcer_state.c); the enforcer's lifecycle (loader.c); status's
 * judgement (assess.c), accesses as they are decided (events.c);
 * observed records (records.c).  Nothing below calls a subcommand, and
 * no subcommand another.
 */
#ifndef PROCMEM_H
#define PROCMEM_H

#include <stdio.h>
#include <sys/types.h>

#include "bpf/enforcer.h"

#ifndef PROCMEM_VERSION
#define PROCMEM_VERSION "unknown"
#endif

/* Exit codes, one meaning each, documented in procmem.1 and main.c. */
enum {
	EXIT_OK = 0,		/* status: policies agree; scan: complete */
	EXIT_FINDING = 1,	/* status: mismatch/weaker; scan: incomplete */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NORUN = 3,		/* probes or scan could not run */
	/* enforce: refusals, nothing applied */
	EXIT_NOT_ROOT = 4,	/* not root */
	EXIT_NO_BPF_LSM = 5,	/* BPF LSM not active (lsm= to add is printed) */
	EXIT_NO_BTF = 6,	/* no /sys/kernel/btf/vmlinux */
	EXIT_NO_CGROUP = 7,	/* --cgroup path too deep or a bad name */
	EXIT_BPF = 8,		/* loading, attaching or pinning failed */
	EXIT_NOT_ENFORCING = 9,	/* the self-check failed: the previous policy kept */
	EXIT_LOCKDOWN = 10,	/* lockdown forbids what this kernel needs */
	/* advise */
	EXIT_ADV_BREAKS = 11,	/* the policy in force breaks something seen here */
	EXIT_ADV_PROFILE = 12,	/* --profile: it would break something seen here */
	/* enforce: a refusal, nothing applied (after advise's two) */
	EXIT_BTF_LACKS = 13,	/* the kernel's BTF lacks a type, field, hook or helper */
	EXIT_NO_WORKLOAD = 14,	/* the unit, container or pod (or its manager) is not there */
};

/* ---- the policy model (policy.c): pure, tested on the host ---- */
/* Levels, loosest first; LV_UNKNOWN when not known.  The numbers of
 * levels and operations are the BPF programs' (bpf/enforcer.h); force,
 * which no LSM hook sees, comes after the enforcer's operations. */
enum level { LV_UNKNOWN = -1, LV_ALWAYS = PM_ALWAYS, LV_SELF = PM_SELF,
	     LV_PTRACE = PM_PTRACE, LV_NEVER = PM_NEVER };
#define NLEVELS PM_NR_LEVELS	/* levels are 0 .. NLEVELS - 1 */
enum op { OP_OPEN_READ = PM_OPEN_READ, OP_OPEN_WRITE = PM_OPEN_WRITE,
	  OP_WRITE = PM_WRITE, OP_FORCE = PM_NOPS, NOPS };
/* Who performs a probed operation: the target itself, a process that
 * does not trace the target, the target's active ptracer. */
enum rel { REL_SELF, REL_OTHER, REL_TRACER, NRELS };
enum outcome { PR_NOT_RUN, PR_ALLOWED, PR_DENIED, PR_ERROR };

extern const char *const op_names[NOPS];
extern const char *const rel_names[NRELS];
const char *level_name(enum level lv);
/* A level as a number from the kernel or the programs; LV_UNKNOWN if none. */
enum level level_of(unsigned int n);
const char *outcome_name(enum outcome o);
/*
 * Parses a level name, with the synonyms of Adrian Ratiu's "proc: restrict
 * /proc/pid/mem" v6 (2024) if @synonyms.
 */
enum level parse_level(const char *s, int synonyms);
/* The levels' names joined by @sep ("always, self, ptrace, never"), then
 * the synonyms after @syn_sep if not NULL. */
void level_list(char *buf, size_t n, const char *sep, const char *syn_sep);
/* A verdict (PM_V_*) by name: VN_TEXT "would-deny" (text, watch's JSON),
 * VN_KEY "would_deny" (status's JSON keys, metrics' labels). */
enum verdict_spelling { VN_TEXT, VN_KEY };
const char *verdict_name(int v, enum verdict_spelling how);
int op_index(const char *s);		/* -1: not an operation's name */

/* The enforcer's policy arithmetic, the programs' rules in C. */
/* Hooks (bits PM_HOOK_*) the policy needs attached. */
unsigned int pm_hooks_needed(const struct pm_policy *p);
/* Sorts the overrides, fills their levels in force, cand[] and strictest. */
void pm_policy_finish(struct pm_policy *p);
/* A cgroup-v2 path's components; their number, or PM_SPLIT_*. */
enum { PM_SPLIT_NAME = -1, PM_SPLIT_DEEP = -2, PM_SPLIT_GLOB = -3 };
int pm_path_split(const char *path, char (*comp)[PM_NAME_MAX]);
void pm_path_join(const struct pm_override *ov, char *buf, size_t n);
int pm_scope_of(const struct pm_policy *p, const char *path);
/* Each override's counters' slot, kept from @prev (may be NULL) for the
 * same path; the slots that now count for another path (bits). */
unsigned int pm_policy_slots(struct pm_policy *next, const struct pm_policy *prev);
/* "open_read=L open_write=L write=L permissive=N" */
void pm_levels_text(char *buf, size_t n, const struct pm_levels *lv);
/* What changed from @a to @b, a line per scope to @say; how many lines. */
int pm_policy_diff(const struct pm_policy *a, const struct pm_policy *b,
		   void (*say)(const char *line, void *arg), void *arg);
enum { PM_HOOK_OPEN, PM_HOOK_PERMISSION, PM_HOOK_FREE, PM_NHOOKS };
/* The kernel's levels @lv (sources @src) composed with the enforcer @e's:
 * the stricter of the two, for the operations the enforcer has. */
struct enforcer;
void policy_in_force(enum level lv[NOPS], const char *src[NOPS], const struct enforcer *e);

/* ---- configuration (config.c) ---- */
enum kernel_kind {
	K_NONE,		/* no /proc/PID/mem controls (before 6.12) */
	K_STOCK,	/* mainline: proc_mem.force_override only */
	K_PATCHED,	/* this project's series: docs/interface.md */
};

#define MAX_PARAMS 16
struct param {			/* one proc_mem.* boot parameter */
	char name[64];		/* without the "proc_mem." prefix */
	char value[64];
	int has_value;
	int op;			/* enum op, -1 for permissive/unknown */
	int known;		/* the running kernel implements it */
	enum level level;	/* parsed value, LV_UNKNOWN if invalid */
	int valid;		/* the kernel would accept the value */
	int bool_val;		/* permissive: the value */
};

struct config {
	char release[128];
	int major, minor;
	enum kernel_kind kind;
	const char *kind_basis;		/* how kind was decided */

	struct param params[MAX_PARAMS];
	int nparams;
	int cmdline_read;

	char kconfig_src[160];		/* "" if no kernel config found */
	char kconfig_err[320];
	enum level kconfig[NOPS];	/* LV_UNKNOWN: no such option set */
	char kconfig_sym[NOPS][48];

	int have_sysctl;
	enum level sysctl[NOPS];
	int sysctl_permissive;		/* -1 unreadable */
	long denied[NOPS][2];		/* denied, would_deny; -1 unknown */

	/* The result: what the kernel holds, and where it comes from. */
	enum level configured[NOPS];
	const char *source[NOPS];	/* sysctl, cmdline, kconfig, default, fixed */
	int permissive;
};

const char *kind_name(enum kernel_kind k);	/* patched, stock, none */
void config_read(struct config *c);
/* Reads /proc/sys/kernel/proc_mem/{denied,would_deny}/OP, per op. */
int read_denied(long (*out)[2]);

/* ---- probes (probe.c) ---- */
struct probe_result {
	enum outcome out;
	int err;		/* errno of the call that decided it */
	char how[200];		/* what was done */
	int counted;		/* the kernel's denial counters were read */
	long d_denied;		/* how much the probe raised the op's */
	long d_would;		/* "denied" and "would deny" counters */
};

struct probes {
	struct probe_result r[NOPS][NRELS];
	int ran;		/* 0: could not run at all */
	char fatal[160];	/* why some probes could not run */
};

/* Runs every probe in a forked child; never fails, see ->ran/->fatal. */
void probes_run(struct probes *p, int timeout_s);
/* Infers a level from the three relations' outcomes; *why on unknown. */
enum level probes_level(const struct probes *p, int op, const char **why);
/* The same, with "would deny" counted as denied (permissive mode). */
enum level probes_level_enforced(const struct probes *p, int op,
				 const char **why);

/* ---- the command line's conventions (cli.c) ---- */
/* One line "procmem: CMD: MSG (procmem CMD --help)" on stderr; EXIT_USAGE. */
int pm_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* getopt_long returned ':' or '?' (optstring starting with ':'). */
int pm_opt_error(const char *cmd, int c, char **argv);
/* A whole decimal number in [min, max]; 0, or -1 if not. */
int pm_parse_long(const char *s, long min, long max, long *out);
/* @len bytes of @src for a terminal, NUL-terminated in @dst: printable
 * ASCII as it is, '\\' doubled, \n and \t, any other byte \xHH. */
void pm_escape(char *dst, size_t n, const char *src, size_t len);

/* ---- JSON output (output.c, json-c) ---- */
struct json_object;
struct json_object *pm_jstr(const char *s);	/* NULL: JSON null */
struct json_object *pm_jlevel(enum level lv);	/* LV_UNKNOWN: null */
void pm_jset(struct json_object *o, const char *key, struct json_object *v);
/* Prints @o (indented if @pretty, else one line) and frees it. */
void pm_json_print(struct json_object *o, int pretty);
/* @text (@len bytes) as one strict JSON document, nothing after it but
 * white space; NULL and in @err ("not JSON: ... at byte N") if not. */
struct json_object *pm_json_parse(const char *text, size_t len, char *err, size_t errlen);

/* ---- /proc readers (procfs.c) ---- */
/* A small file into @buf, NUL-terminated; its length, or -1. */
ssize_t pm_read_small(const char *path, char *buf, size_t size);
/* The first line of @path without its newline; 0, or -1 (none). */
int pm_read_line(const char *path, char *buf, size_t n);
/* @fn for each open fd of @pid with its link's target (modifiable),
 * until @fn returns nonzero; 0, or -1 with errno: /proc/PID/fd unreadable. */
int pm_fd_each(int pid, int (*fn)(void *ctx, int fd, char *link), void *ctx);
/* /proc/PID/comm, "?" if unreadable. */
void pm_read_comm(int pid, char *buf, size_t n);
/* Is procmem in the initial pid namespace (NSpid: one pid)? */
int pm_initial_pidns(void);
/* TracerPid of @pid, 0 if none or unreadable. */
int pm_tracer_of(int pid);
/* The open flags of /proc/PID/fd/FD from fdinfo; 0, or -1 unreadable. */
int pm_fd_flags(int pid, int fd, unsigned long *flags);
/* Is fd @fd of @pid, whose link is @link (modified: " (deleted)" cut),
 * a procfs mem file?  1 with *target, *task (-1 for /proc/P/mem),
 * *gone (its process exited); 0 if not. */
int pm_mem_fd(int pid, int fd, char *link, int *target, int *task, int *gone);

/* ---- cgroup-v2 paths as the programs match them (cgroup.c) ---- */
#define PM_CGROUP_ROOT	"/sys/fs/cgroup"
/* Is procmem in the initial cgroup namespace?  1, 0, -1 unknown. */
int pm_initial_cgroupns(void);
/*
 * The path, relative to the cgroup-v2 root, that @path names: a path
 * under a cgroup2 mount (the real root or a subtree of it, as systemd's
 * hybrid layout or a container shows it) resolved through the mount's
 * root; any other path taken as relative to the v2 root.  0 and @out,
 * or -1 and @why.
 */
int pm_cgroup_resolve(const char *path, char *out, size_t n, char *why, size_t wn);
/* Where a v2-root-relative path is on this machine (a mount of the v2
 * root); 0, or -1 when no mount of the root is visible. */
int pm_cgroup_dir(const char *rel, char *out, size_t n);
/* procmem's own cgroup-v2 path, "/" if none. */
void pm_own_cgroup(char *path, size_t n);

/* ---- workloads by name, as cgroup-v2 paths (workload.c, above cgroup.c) ---- */
/* A systemd unit's, a podman or docker container's, a pod's (by UID):
 * EXIT_OK with the path from the v2 root and a label for people
 * ("unit:nginx.service", "podman:web", "pod:UID"); else EXIT_NO_WORKLOAD
 * or EXIT_NO_CGROUP and the one line in @why. */
int pm_unit_cgroup(const char *unit, char *path, size_t n, char *label, size_t ln,
		   char *why, size_t wn);
int pm_container_cgroup(const char *name, char *path, size_t n, char *label, size_t ln,
			char *why, size_t wn);
int pm_pod_cgroup(const char *uid, char *path, size_t n, char *label, size_t ln,
		  char *why, size_t wn);

/* ---- can the enforcer load here (ready.c) ---- */
/*
 * Answered from what the kernel shows, loading, attaching and mounting
 * nothing, for procmem enforce (before it loads anything), status and
 * advise: EXIT_OK, or the status procmem enforce would refuse with and
 * in @why the one line it would print (without "procmem: "):
 * EXIT_NO_BTF (no /sys/kernel/btf/vmlinux), EXIT_NO_BPF_LSM (not in
 * /sys/kernel/security/lsm; an unreadable list is not refused here),
 * EXIT_BTF_LACKS (a type or field the programs read, in none of its
 * CO-RE spellings, an LSM hook or a BPF helper missing from the BTF:
 * "this kernel's BTF has no struct kernfs_node field parent or
 * __parent: the enforcer cannot load here"), EXIT_LOCKDOWN (6.1 under
 * lockdown=confidentiality).  Any user may call it; PROCMEM_BTF=FILE
 * (tests only) replaces the kernel's BTF.
 */
int enforcer_ready(char *why, size_t len);
/* The same checks with what they learnt.  @strict (procmem enforce):
 * securityfs is mounted if need be and an unreadable LSM list refuses. */
struct pm_ready {
	int lsm;		/* BPF LSM 1 active, 0 not, -1 unknown */
	int cast;		/* the bpf_rdonly_cast object (else enforcer_read) */
	char param[300];	/* lsm=LIST,bpf to boot with when lsm is 0 */
};
int pm_ready(char *why, size_t n, int strict, struct pm_ready *r);
/* enforcer_ready(), with @param and *lsm of struct pm_ready. */
int pm_loadable(char *why, size_t n, char *param, size_t pn, int *lsm);

/* ---- what is pinned, the enforcer as status sees it (enforcer_state.c) ---- */
#define PM_PIN_DIR	"/sys/fs/bpf/procmem"

enum { PM_MAP_CONFIG, PM_MAP_POLICY, PM_MAP_CGCACHE, PM_MAP_FILES, PM_MAP_COUNTERS,
       PM_MAP_RATE, PM_MAP_DENIALS, PM_MAP_ACCESSES, PM_MAP_FOPS, PM_NMAPS };
extern const char *const pm_map_names[PM_NMAPS];
/* Programs and their links, pinned as prog_NAME and NAME; the programs' names. */
extern const char *const pm_hook_names[PM_NHOOKS];
extern const char *const pm_prog_names[PM_NHOOKS];

/*
 * What is pinned under PM_PIN_DIR (fds -1 where missing).  Links are
 * checked, never held: a link pin counts (bit in linked) when it is a
 * BPF LSM link of the pinned program, and its fd is closed at once, so
 * that unpinning detaches whoever else runs.
 */
struct pm_state {
	int loaded;		/* PM_PIN_DIR exists */
	int map[PM_NMAPS], prog[PM_NHOOKS];
	unsigned int linked;	/* bit hook: attached by procmem's own link pin */
	int have_cfg, have_policy;
	struct pm_config cfg;
	struct pm_policy pol;
	unsigned long long mem_fops;	/* the programs' pm_mem_fops */
	int degraded;		/* something the policy needs is missing */
	char missing[320];	/* what, for the one line that says so */
	int probe_scope;	/* after pm_self_check(): the scope that decided it */
};

/* Serialises procmem commands that change the enforcer; the fd, or -1. */
int pm_lock(void);
int pm_state_open(struct pm_state *st);		/* -1: nothing pinned */
void pm_state_close(struct pm_state *st);
int pm_counters(int fd, unsigned long long *sum);	/* PM_C_NR, all CPUs */
/* The live self-check of the pinned programs: 0, or -1 and @why. */
int pm_self_check(struct pm_state *st, char *why, size_t n);
/* The configuration map's one element. */
int pm_cfg_get(int fd, struct pm_config *c);
int pm_cfg_set(int fd, const struct pm_config *c);
/* The pin @dir/PREFIXNAME, opened; -1 if none. */
int pm_pin_get(const char *dir, const char *prefix, const char *name);

/* The enforcer as procmem status, advise and metrics see it. */
struct enforcer {
	int loaded;		/* pinned under PM_PIN_DIR */
	int have_policy;	/* a policy applies to our cgroup */
	enum level level[NOPS];	/* open_read, open_write, write; force: unknown */
	int permissive;
	int scope;		/* override index, -1: the machine's */
	char scope_path[256];
	long overrides;		/* cgroup overrides */
	long files;		/* open mem files with opener records */
	unsigned long long denied[PM_NOPS], would_deny[PM_NOPS], allowed[PM_NOPS];
	char error[400];	/* "degraded: ...", or why it could not be read */
};

int enforcer_loaded(void);
int enforcer_read(struct enforcer *e);

/* ---- the enforcer's lifecycle: load, attach, apply, unload (loader.c) ---- */
extern int pm_verbose;		/* --verbose: libbpf's log with a refusal */
/* Prints "procmem: MSG" (after libbpf's log with --verbose); returns @rc. */
int pm_refuse(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pm_bpffs(void);
/* Removes what a killed load left (PM_PIN_DIR_new_*, _old_*); with the lock. */
void pm_sweep(void);
int pm_apply(const struct pm_policy *pol);
int pm_watch_allowed(int on);
void pm_unpin_dir(const char *dir);

/* ---- procmem status's judgement (assess.c) ---- */
#define MAX_LINES 32

struct lines {
	char s[MAX_LINES][640];
	int n;
};

/* Whether the enforcer could provide what this kernel lacks: procmem
 * enforce's own checks, read once. */
struct remedy {
	int rc, lsm;
	char why[400], param[300];
};

/* What status found: the inputs and the judgement of them. */
struct status {
	struct config c;
	struct enforcer en;
	struct probes p;
	struct lines find, notes, lack;
	struct remedy rm;
	enum level measured[NOPS], enforced[NOPS];
	const char *why[NOPS];
	int rc;
	const char *result;
};

/* Reads the configured policy (the enforcer's composed in), runs the
 * probes, judges; prints nothing.  The exit status status gives. */
int assess(struct status *s, int timeout);

/* ---- mem file accesses as they are decided (events.c) ---- */
/* One access, from either source; -1 (or NULL): the source lacks it. */
struct access {
	long long ts_ns;		/* CLOCK_MONOTONIC */
	const char *op, *level, *verdict, *scope;
	const char *workload;		/* the override's unit or container; NULL */
	long long gen;			/* the policy's generation */
	int permissive, tracer;
	long long pid, tid, uid, target_pid, target_tid, cgroup;
	const char *comm, *target_comm;
};

struct events {
	/* an access; nonzero: no more (the rest of a batch is not handed on) */
	int (*access)(void *ctx, const struct access *a);
	/* events lost, per verdict: @d a full ring dropped, @l over a
	 * bucket's rate; @before: before this reader started */
	void (*lost)(void *ctx, const unsigned long long *d, const unsigned long long *l,
		     int before);
	void (*started)(void *ctx);	/* reading from now on; NULL: nothing */
	int (*more)(void *ctx);		/* asked between reads; 0: stop */
	void *ctx;
};

/* The enforcer's ring buffers (@all: the allowed accesses too), else the
 * patched kernel's tracepoint, until the callbacks or the enforcer end
 * it.  Root only.  EXIT_OK, or a refusal (said in one line). */
int events_run(const struct events *ev, int all);

/* ---- the patched kernel's tracepoint (tracepoint.c) ---- */
struct tp_record {		/* one proc_mem:proc_mem_deny event */
	long long ts_ns;	/* CLOCK_MONOTONIC, 0 if not read */
	char op[16], level[16];
	int permissive, tracer;
	int target_pid, pid;
	unsigned int uid;
	char target_comm[16], comm[16];
};

/* Is the tracepoint there (tracefs mounted if it was not)? */
int tp_available(void);
/* A tracefs instance procmem-TAG-PID with the event on; returns its
 * trace_pipe (non-blocking) or -1 with @err set. */
int tp_open(const char *tag, char *inst, size_t n, char *err, size_t errlen);
void tp_close(int fd, const char *inst);
/* A trace_pipe line: 1 an event in *r, 0 no event (*lost: events the
 * buffer lost, from a LOST line), -1 an event that does not parse. */
int tp_parse(const char *line, struct tp_record *r, unsigned long *lost);

/* Lines read from a pipe or file as they come. */
struct linebuf {
	char buf[8192];
	size_t len;
};

/* Reads what @fd has now and hands each whole line to @fn, until @fn
 * returns nonzero; 1 read something, 0 nothing yet, -1 end or error.
 * A line longer than the buffer is dropped. */
int lines_read(struct linebuf *l, int fd, int (*fn)(void *ctx, char *line), void *ctx);

/* ---- the compatibility matrix (matrix.c) ---- */
struct mconf { const char *id, *kernel, *op, *level, *label, *policy, *force; };
struct msubj { const char *id, *title, *kind; };
struct mcell { int s, c; const char *value, *detail; };

struct matrix {
	struct json_object *root;
	char path[4096];
	struct mconf *conf;
	struct msubj *subj;
	struct mcell *cell;
	int nconf, nsubj, ncell;
};

/* The matrix: @opt, $PROCMEM_MATRIX, PREFIX/share/procmem next to the
 * installed binary, the build tree's docs/, /usr/share/procmem. */
int matrix_find(const char *opt, char *out, size_t n);
int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen);
void matrix_free(struct matrix *m);
const struct mcell *matrix_cell(const struct matrix *m, int s, int c);
/* The configuration of kernel family @fam that sets @op to @lv alone;
 * else its configuration at the kernel's defaults where those hold @op
 * at @lv (Debian's 7.x: force=ptrace); for "always", the configuration
 * without restriction; -1 none. */
int matrix_conf(const struct matrix *m, const char *fam, int op, enum level lv);
/* The kernel family whose columns measure this kernel: Debian's own
 * (debian-MAJOR.MINOR) where the matrix has it, else "patched" on a
 * patched kernel, "stock" on others; into @fam. */
void matrix_family(const struct matrix *m, const struct config *c, char *fam, size_t n);
/* The configuration of kernel family @fam (with the enforcer or not)
 * whose id ends in @suffix; -1 none. */
int matrix_conf_named(const struct matrix *m, const char *fam, const char *suffix);
/* The titles of the programs that break under configuration @conf,
 * "; "-separated, into @buf; how many. */
int matrix_breaks(const struct matrix *m, int conf, char *buf, size_t n);

/* ---- observed accesses (records.c) ---- */
/* Tracepoint lines and procmem watch --json lines, from files or live;
 * each access to @fn. */
struct records {
	void (*fn)(void *ctx, const char *comm, int op, int self, int tracer);
	void *ctx;
	long records, dropped, unparsed;
	char sources[4][4096 + 64];
	int nsources;
	long counters[NOPS];	/* kernel counters during observation */
	int have_counters;
};

void records_line(struct records *r, const char *line);
int records_read(struct records *r, const char *file);	/* -1: said why */
/* Observes for @secs (SIGINT/SIGTERM end it early) through the
 * tracepoint or the enforcer's events (events_run(), with the allowed
 * accesses); -1: said why. */
int records_observe(struct records *r, int secs, int tracepoint);

/* ---- subcommands: main.c's table; each parses its own options ---- */
int cmd_status(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_enforce(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_metrics(int argc, char **argv);

#endif
