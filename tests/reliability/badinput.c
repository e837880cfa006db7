// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to the /proc/PID/mem policy: its sysctls and boot parameters.
 *
 *   badinput sysctl          in a guest booted with proc_mem.permissive=1
 *                            and every level at "always": the sysctl table
 *   badinput boots           the number of boots of the boot table
 *   badinput --cmdline N     the kernel parameters of boot N
 *   badinput boot N          in a guest booted with them: levels and log
 *
 * Every refused sysctl write must leave the whole policy (the levels,
 * permissive mode and the denial counters) as it was.  Expectations are
 * in the two tables below.  A row marked KNOWN is a disagreement of the
 * kernel with docs/interface.md already reported: it prints as SKIP while
 * the kernel disagrees, and fails once the kernel agrees so that the mark
 * is removed.  The tests in tests/conformance/transitions (each level
 * transition, "", "Never", "NEVER", "3", "-1", "ptrace x", "never\nx", a
 * 24-byte name, "nev" on force, one unprivileged and one user-namespace
 * write to force) are not repeated.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "sysctl.h"

#define SYS "/proc/sys/kernel/proc_mem/"
#define NOBODY 65534

static int n, failed, skipped, inputs;

/* One TAP line (kselftest.h): "@fmt@what", and @detail if it fails. */
static void tap(bool ok, bool known, const char *fmt, const char *what, const char *detail)
{
	n++;
	if (known && !ok) {
		skipped++;
		ksft_test_result_skip("known kernel disagreement: %s%s: %s\n", fmt, what, detail);
		return;
	}
	if (known) {
		ok = false;
		detail = "the kernel agrees now: remove the KNOWN mark";
	}
	if (!ok)
		failed++;
	ksft_test_result(ok, "%s%s%s%s\n", fmt, what, ok ? "" : ": ", ok ? "" : detail);
}

/* ---- sysctls ---- */

enum who { ROOT, NOBODY_USER, USERNS_ROOT };
enum outcome { OK, OK_NOOP, EINVAL_, EPERM_, EACCES_OPEN };
static const char *const outcome_names[] = {
	"ok", "ok (no change)", "EINVAL", "EPERM", "EACCES at open",
};

#define LONG_4K 4096
#define LONG_64K 65536
#define NUL_LEN(s) (sizeof(s) - 1)	/* a literal with NULs inside */

struct sysctl_case {
	enum who who;
	const char *file;
	const char *value;	/* NULL: @len bytes of @fill */
	size_t len;		/* 0: strlen(value) */
	char fill;
	long offset;		/* pwrite at this offset */
	enum outcome want;
	bool known;		/* KNOWN: see the comment at the top */
};

#define ROOT_BAD(f, v) { ROOT, f, v, 0, 0, 0, EINVAL_, false }

/* The sysctl table.  Booted permissive, every level "always". */
static const struct sysctl_case sysctl_cases[] = {
	/* odd spellings of level names: only "NAME" and "NAME\n" are names */
	ROOT_BAD("open_read", "never\n\n"), ROOT_BAD("open_write", "never\n\n"),
	ROOT_BAD("write", "never\n\n"), ROOT_BAD("force", "never\n\n"),
	ROOT_BAD("open_read", " never"), ROOT_BAD("open_write", "never "),
	ROOT_BAD("write", "\tnever"), ROOT_BAD("force", "never\r\n"),
	ROOT_BAD("open_read", "\n"), ROOT_BAD("open_write", "\n"),
	ROOT_BAD("write", ""), ROOT_BAD("open_read", ""),
	/* mixed case, every name and synonym */
	ROOT_BAD("open_read", "Self"), ROOT_BAD("open_write", "PTRACE"),
	ROOT_BAD("write", "Never\n"), ROOT_BAD("force", "Ptracer"),
	ROOT_BAD("open_read", "OFF"), ROOT_BAD("open_write", "aLL"),
	ROOT_BAD("write", "Always"), ROOT_BAD("force", "SELF\n"),
	/* numbers */
	ROOT_BAD("open_read", "0"), ROOT_BAD("open_write", "1"),
	ROOT_BAD("write", "2\n"), ROOT_BAD("force", "0x3"),
	ROOT_BAD("open_read", "+3"), ROOT_BAD("write", "1e3"),
	/* garbage */
	ROOT_BAD("open_read", "never,ptrace"), ROOT_BAD("open_write", "ptrace;"),
	ROOT_BAD("write", "%s%s%s%n"), ROOT_BAD("force", "\xff\xfe"),
	ROOT_BAD("open_read", "selfself"), ROOT_BAD("force", "ptrac"),
	/* lengths around the handler's 16-byte buffer, and far beyond */
	ROOT_BAD("force", "nevernevernever"),		/* 15 */
	ROOT_BAD("force", "nevernevernevern"),		/* 16 */
	ROOT_BAD("write", "never\n\n\n\n\n\n\n\n\n\n\n"),	/* 16 */
	ROOT_BAD("open_write", "ptraceptraceptrace\n"),
	{ ROOT, "force", NULL, LONG_4K, 'n', 0, EINVAL_, false },
	{ ROOT, "open_read", NULL, LONG_4K, '\n', 0, EINVAL_, false },
	{ ROOT, "write", NULL, LONG_64K, 'x', 0, EINVAL_, false },
	/* a name at an offset: the handler takes whole values only */
	{ ROOT, "force", "never", 0, 0, 1, EINVAL_, false },
	{ ROOT, "write", "never", 0, 0, 4096, EINVAL_, false },
	/* a NUL inside: not a name followed by an optional newline */
	{ ROOT, "force", "always\0junk", NUL_LEN("always\0junk"), 0, 0, EINVAL_, false },
	{ ROOT, "open_read", "always\0", NUL_LEN("always\0"), 0, 0, EINVAL_, false },
	{ ROOT, "write", "\0always", NUL_LEN("\0always"), 0, 0, EINVAL_, false },
	/* permissive: 1 or 0; in permissive mode "1" changes nothing */
	{ ROOT, "permissive", "1", 0, 0, 0, OK_NOOP, false },
	{ ROOT, "permissive", "1\n", 0, 0, 0, OK_NOOP, false },
	{ ROOT, "permissive", "", 0, 0, 0, OK_NOOP, false },	/* int sysctls: no-op */
	ROOT_BAD("permissive", "\n"), ROOT_BAD("permissive", "2"),
	ROOT_BAD("permissive", "-1"), ROOT_BAD("permissive", "1x"),
	ROOT_BAD("permissive", "yes"), ROOT_BAD("permissive", "off"),
	ROOT_BAD("permissive", "true"), ROOT_BAD("permissive", "4294967296"),
	ROOT_BAD("permissive", "99999999999999999999999999"),
	ROOT_BAD("permissive", "O"),
	{ ROOT, "permissive", NULL, LONG_4K, '0', 0, EINVAL_, false },
	/* nobody: the file mode; root of a user namespace: no CAP_SYS_ADMIN there */
	{ NOBODY_USER, "open_read", "never", 0, 0, 0, EACCES_OPEN, false },
	{ NOBODY_USER, "open_write", "never", 0, 0, 0, EACCES_OPEN, false },
	{ NOBODY_USER, "write", "never\n", 0, 0, 0, EACCES_OPEN, false },
	{ NOBODY_USER, "permissive", "0", 0, 0, 0, EACCES_OPEN, false },
	{ NOBODY_USER, "denied/force", "0", 0, 0, 0, EACCES_OPEN, false },
	{ NOBODY_USER, "would_deny/write", "0", 0, 0, 0, EACCES_OPEN, false },
	{ USERNS_ROOT, "open_read", "never", 0, 0, 0, EPERM_, false },
	{ USERNS_ROOT, "open_write", "self\n", 0, 0, 0, EPERM_, false },
	{ USERNS_ROOT, "write", "ptrace", 0, 0, 0, EPERM_, false },
	{ USERNS_ROOT, "force", "garbage", 0, 0, 0, EPERM_, false },
	{ USERNS_ROOT, "permissive", "0", 0, 0, 0, EPERM_, false },
	{ USERNS_ROOT, "denied/open_read", "0", 0, 0, 0, EACCES_OPEN, false },
	/* the counters are read-only, one value per file, even for root */
	{ ROOT, "denied/open_read", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "denied/open_write", "", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "denied/write", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "denied/force", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "would_deny/open_read", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "would_deny/open_write", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "would_deny/write", "0", 0, 0, 0, EACCES_OPEN, false },
	{ ROOT, "would_deny/force", "-1", 0, 0, 0, EACCES_OPEN, false },
	/* last, the writes that change something, checked by their effect */
	{ ROOT, "force", "self", 0, 0, 0, OK, false },
	{ ROOT, "force", "always", 0, 0, 0, EPERM_, false },
	{ ROOT, "force", "never\n", 0, 0, 0, OK, false },
	{ ROOT, "force", "ptracer", 0, 0, 0, EPERM_, false },
	{ ROOT, "force", "Never", 0, 0, 0, EINVAL_, false },
	{ ROOT, "permissive", "0", 0, 0, 0, OK, false },
	{ ROOT, "permissive", "1", 0, 0, 0, EPERM_, false },
	{ ROOT, "permissive", "2", 0, 0, 0, EINVAL_, false },
	{ ROOT, "permissive", "0\n", 0, 0, 0, OK_NOOP, false },
};

/* The whole policy as the sysctls show it. */
static void snapshot(char *buf, size_t size)
{
	static const char *const files[] = {
		"open_read", "open_write", "write", "force", "permissive",
		"denied/open_read", "denied/open_write", "denied/write",
		"denied/force", "would_deny/open_read", "would_deny/open_write",
		"would_deny/write", "would_deny/force",
	};
	size_t len = 0;
	char path[96];

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ssize_t r;
		int fd;

		snprintf(path, sizeof(path), SYS "%s", files[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s: ", files[i]);
		r = read(fd, buf + len, size - len - 1);
		close(fd);
		if (r > 0)
			len += (size_t)r;
		buf[len] = '\0';
	}
}

/* In a child, as @who: the write's errno, 0, or 255 when it cannot be tried. */
static int try_write(const struct sysctl_case *c, const char *value, size_t len)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 255;
	if (pid == 0) {
		char path[96];
		int fd;

		if (c->who == NOBODY_USER &&
		    (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY)))
			_exit(255);
		if (c->who == USERNS_ROOT) {
			fd = -1;
			if (unshare(CLONE_NEWUSER) == 0)
				fd = open("/proc/self/uid_map", O_WRONLY);
			if (fd < 0 || write(fd, "0 0 1", 5) != 5)
				_exit(255);
			close(fd);
		}
		snprintf(path, sizeof(path), SYS "%s", c->file);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			_exit(errno == EACCES ? 254 : 255);
		if (pwrite(fd, value, len, c->offset) < 0)
			_exit(errno);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

static int sysctl_table(void)
{
	static char big[LONG_64K];
	char before[1024], after[1024], what[200], detail[2300], shown[40], off[32];

	for (size_t i = 0; i < sizeof(sysctl_cases) / sizeof(sysctl_cases[0]); i++) {
		const struct sysctl_case *c = &sysctl_cases[i];
		const char *value = c->value;
		size_t len = c->len;
		enum outcome got, want;
		struct stat st;
		bool ok;
		int err;

		if (!value) {
			memset(big, c->fill, len);
			value = big;
		} else if (!len) {
			len = strlen(value);
		}
		snapshot(before, sizeof(before));
		err = try_write(c, value, len);
		snapshot(after, sizeof(after));
		got = err == 0 ? (strcmp(before, after) ? OK : OK_NOOP) :
		      err == EINVAL ? EINVAL_ : err == EPERM ? EPERM_ :
		      err == 254 ? EACCES_OPEN : (enum outcome)-1;
		want = c->want;
		/* v3: force stays __ro_after_init, its sysctl is 0444: every
		 * write is refused at open, root's too (6.1's v2: writable) */
		if (!strcmp(c->file, "force") && !stat(SYS "force", &st) &&
		    !(st.st_mode & 0222))
			want = EACCES_OPEN;
		ok = got == want;

		/* what was written, printable */
		size_t k = 0;

		shown[0] = '\0';
		for (size_t j = 0; j < len && k + 5 < sizeof(shown); j++)
			k += (size_t)snprintf(shown + k, sizeof(shown) - k,
					      value[j] >= 0x20 && value[j] < 0x7f ? "%c" : "\\x%02x",
					      (unsigned char)value[j]);
		off[0] = '\0';
		if (c->offset)
			snprintf(off, sizeof(off), ", at offset %ld", c->offset);
		snprintf(what, sizeof(what), "%s%s: '%s'%s (%zu bytes%s): %s",
			 c->who == ROOT ? "" : c->who == NOBODY_USER ? "nobody: " : "userns root: ",
			 c->file, shown, k < len ? "..." : "", len, off,
			 outcome_names[want]);
		k = (size_t)snprintf(detail, sizeof(detail), "got %s (errno %d)",
				     (int)got >= 0 && got <= EACCES_OPEN ? outcome_names[got] : "?",
				     err);
		if (strcmp(before, after))
			snprintf(detail + k, sizeof(detail) - k,
				 "; policy before: %s; after: %s", before, after);
		for (char *p = detail; *p; p++)
			if (*p == '\n')
				*p = ' ';
		inputs++;
		tap(ok, c->known, "sysctl ", what, detail);
	}
	return 0;
}

/* ---- boot parameters ---- */

#define L(x) "'" x "'"
#define NEVER5 "nevernevernevernevernevernevernevernevernevernever"
#define LONG250 NEVER5 NEVER5 NEVER5 NEVER5 NEVER5

/*
 * The boot table.  The Kconfig default of every level is "always".  The
 * expected levels are open_read open_write write force, then permissive;
 * each log line must be in the kernel log.
 */
static const struct boot {
	const char *what, *cmdline, *levels;
	int permissive;
	int inputs;
	const char *log[6];
	bool known;	/* the log lines are KNOWN to be missing */
} boots[] = {
	{ "empty values",
	  "proc_mem.force_override= proc_mem.restrict_foll_force= "
	  "proc_mem.restrict_open_read= proc_mem.restrict_open_write= "
	  "proc_mem.restrict_write= proc_mem.permissive=",
	  "always always always always", 0, 6,
	  { "proc_mem: invalid value '' for proc_mem.force_override, keeping always",
	    "proc_mem: invalid value '' for proc_mem.restrict_foll_force, keeping always",
	    "proc_mem: invalid value '' for proc_mem.restrict_open_read, keeping always",
	    "proc_mem: invalid value '' for proc_mem.restrict_open_write, keeping always",
	    "proc_mem: invalid value '' for proc_mem.restrict_write, keeping always" }, false },
	{ "no value at all",
	  "proc_mem.force_override proc_mem.restrict_foll_force "
	  "proc_mem.restrict_open_read proc_mem.restrict_open_write "
	  "proc_mem.restrict_write",
	  "always always always always", 0, 5,
	  { "proc_mem: proc_mem.force_override without a value, keeping always",
	    "proc_mem: proc_mem.restrict_foll_force without a value, keeping always",
	    "proc_mem: proc_mem.restrict_open_read without a value, keeping always",
	    "proc_mem: proc_mem.restrict_open_write without a value, keeping always",
	    "proc_mem: proc_mem.restrict_write without a value, keeping always" }, false },
	{ "mixed case",
	  "proc_mem.force_override=Never proc_mem.restrict_foll_force=PTRACE "
	  "proc_mem.restrict_open_read=Self proc_mem.restrict_open_write=ALL "
	  "proc_mem.restrict_write=Ptracer proc_mem.permissive=Maybe",
	  "always always always always", 0, 6,
	  { "proc_mem: invalid value 'Never' for proc_mem.force_override, keeping always",
	    "proc_mem: invalid value 'PTRACE' for proc_mem.restrict_foll_force, keeping always",
	    "proc_mem: invalid value 'Self' for proc_mem.restrict_open_read, keeping always",
	    "proc_mem: invalid value 'ALL' for proc_mem.restrict_open_write, keeping always",
	    "proc_mem: invalid value 'Ptracer' for proc_mem.restrict_write, keeping always" }, false },
	{ "numbers",
	  "proc_mem.force_override=3 proc_mem.restrict_foll_force=2 "
	  "proc_mem.restrict_open_read=1 proc_mem.restrict_open_write=-1 "
	  "proc_mem.restrict_write=0x3 proc_mem.permissive=2",
	  "always always always always", 0, 6,
	  { "proc_mem: invalid value '3' for proc_mem.force_override, keeping always",
	    "proc_mem: invalid value '2' for proc_mem.restrict_foll_force, keeping always",
	    "proc_mem: invalid value '1' for proc_mem.restrict_open_read, keeping always",
	    "proc_mem: invalid value '-1' for proc_mem.restrict_open_write, keeping always",
	    "proc_mem: invalid value '0x3' for proc_mem.restrict_write, keeping always" }, false },
	{ "overlong values (250 bytes)",
	  "proc_mem.force_override=" LONG250 " proc_mem.restrict_open_read=" LONG250
	  " proc_mem.restrict_open_write=" LONG250 " proc_mem.restrict_write=" LONG250,
	  "always always always always", 0, 4,
	  { "proc_mem: invalid value " L(LONG250) " for proc_mem.force_override, keeping always",
	    "proc_mem: invalid value " L(LONG250) " for proc_mem.restrict_open_read, keeping always",
	    "proc_mem: invalid value " L(LONG250) " for proc_mem.restrict_open_write, keeping always",
	    "proc_mem: invalid value " L(LONG250) " for proc_mem.restrict_write, keeping always" }, false },
	{ "garbage, and names that are not ours",
	  "proc_mem.force_override=\"ne ver\" proc_mem.restrict_foll_force=never=never "
	  "proc_mem.restrict_open_read=never,ptrace proc_mem.restrict_open_write=%s%n "
	  "proc_mem.restrict_write=p*trace proc_mem.permissive=-1 "
	  "proc_mem.Force_override=never proc_mem.restrict_open_reads=never "
	  "proc_mem.=never proc_mem.restrict_WRITE=never",
	  "always always always always", 0, 10,
	  { "proc_mem: invalid value 'ne ver' for proc_mem.force_override, keeping always",
	    "proc_mem: invalid value 'never=never' for proc_mem.restrict_foll_force, keeping always",
	    "proc_mem: invalid value 'never,ptrace' for proc_mem.restrict_open_read, keeping always",
	    "proc_mem: invalid value '%s%n' for proc_mem.restrict_open_write, keeping always",
	    "proc_mem: invalid value 'p*trace' for proc_mem.restrict_write, keeping always" }, false },
	/*
	 * Whitespace ends a value (a trailing newline or tab is a separator),
	 * quotes are removed, '-' is '_' in names, the last valid value wins
	 * and an invalid one keeps the level set before it.
	 */
	{ "separators, quotes, order",
	  "proc_mem.restrict_write=ptrace\n proc_mem.restrict-open-read=self\t "
	  "proc_mem.restrict_open_write=ptrace proc_mem.restrict_open_write=bogus "
	  "proc_mem.restrict_foll_force=self proc_mem.force_override=\"never\" "
	  "proc_mem.permissive=1 proc_mem.permissive=garbage",
	  "self ptrace ptrace never", 1, 8,
	  { "proc_mem: invalid value 'bogus' for proc_mem.restrict_open_write, keeping ptrace" },
	  false },
};

static int boot_check(int i)
{
	static char log[1 << 20];
	char levels[128] = "", detail[512], buf[32], what[160];
	const struct boot *b = &boots[i];
	size_t len = 0;
	FILE *f;
	int ops, permissive = -1;

	for (ops = 0; ops < PM_NR_OPS; ops++) {
		sysctl_read(pm_op_names[ops], buf, sizeof(buf));
		len += (size_t)snprintf(levels + len, sizeof(levels) - len, "%s%s",
					ops ? " " : "", buf);
	}
	f = fopen(SYS "permissive", "r");
	if (f) {
		if (fscanf(f, "%d", &permissive) != 1)
			permissive = -1;
		fclose(f);
	}
	snprintf(what, sizeof(what), "boot %d, %s: levels '%s' permissive %d",
		 i, b->what, b->levels, b->permissive);
	snprintf(detail, sizeof(detail), "got levels '%s' permissive %d", levels, permissive);
	tap(!strcmp(levels, b->levels) && permissive == b->permissive, false, "", what, detail);

	f = popen("dmesg", "r");
	len = f ? fread(log, 1, sizeof(log) - 1, f) : 0;
	if (f)
		pclose(f);
	log[len] = '\0';
	for (int l = 0; l < 6 && b->log[l]; l++) {
		snprintf(what, sizeof(what), "boot %d, %s: logged \"%.100s%s\"", i, b->what,
			 b->log[l], strlen(b->log[l]) > 100 ? "..." : "");
		tap(strstr(log, b->log[l]) != NULL, b->known, "", what, "not in the kernel log");
	}
	return 0;
}

int main(int argc, char **argv)
{
	int nboots = (int)(sizeof(boots) / sizeof(boots[0]));

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "boots")) {
		printf("%d\n", nboots);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--cmdline") && atoi(argv[2]) < nboots) {
		printf("%s", boots[atoi(argv[2])].cmdline);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "boot") && atoi(argv[2]) < nboots) {
		const struct boot *b = &boots[atoi(argv[2])];
		int lines = 0;

		while (lines < 6 && b->log[lines])
			lines++;
		ksft_print_header();
		ksft_set_plan(1 + lines);	/* the levels, each log line */
		boot_check(atoi(argv[2]));
		inputs = b->inputs;
	} else if (argc == 2 && !strcmp(argv[1], "sysctl")) {
		ksft_print_header();
		ksft_set_plan(sizeof(sysctl_cases) / sizeof(sysctl_cases[0]));
		sysctl_table();
	} else {
		fprintf(stderr, "usage: badinput sysctl | boots | --cmdline N | boot N\n");
		return 2;
	}
	ksft_print_msg("badinput: %d inputs, %d checks, %d failed, %d known disagreements\n",
		       inputs, n, failed, skipped);
	ksft_finished();
}
