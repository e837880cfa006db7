// SPDX-License-Identifier: GPL-2.0
/*
 * counting: the patched kernel counts what the policy really decided.
 * In a patched guest booted with proc_mem.force_override=never (force is
 * read-only at runtime) and every other level at "always", enforcing or
 * with proc_mem.permissive=1; the mode is read from
 * /proc/sys/kernel/proc_mem/permissive.  The rows of cases[] run in order
 * and only raise levels (through the sysctls), accessing the process's own
 * memory through /proc/self/mem; each row says the outcome in both modes
 * and which counters move by exactly one (denied/OP when enforcing,
 * would_deny/OP in permissive mode); every other of the eight counters
 * must stay as it was.  TAP output (kselftest.h), one line per row.
 *
 * - A force denial is counted once per read() or write() that failed for
 *   want of FOLL_FORCE, and only then: enforcing, where the mapping lacks
 *   the permission and FOLL_FORCE would have overridden it (the FOLL_FORCE
 *   half of mm/gup.c's check_vma_flags()); permissive, where the retry
 *   with FOLL_FORCE succeeded.  A write to a MAP_SHARED read-only mapping
 *   and an access at an unmapped address fail with EIO with FOLL_FORCE
 *   too: EIO in both modes, nothing counted.  A write to a private
 *   read-only hugetlb page: FOLL_FORCE makes it succeed on 7.x, as
 *   stock's does there (a force denial, and '+' in permissive mode),
 *   while 6.x's gup refuses it either way (EIO, nothing counted; measured:
 *   EIO on 6.1 and 6.12, success on 7.2; hugetlb_forced()).
 * - Enforcing, "FOLL_FORCE would have overridden it" is asked of the
 *   mapping's flags alone (v5 names the count for that): what fails with
 *   FOLL_FORCE too within a mapping FOLL_FORCE could open is counted,
 *   while permissive mode's retry fails and counts nothing.  Measured
 *   here: a write past the end of the file a private read-only mapping
 *   maps, a write into a guard region (MADV_GUARD_INSTALL, Linux 6.13 and
 *   later) of a private read-only mapping, and a write to a poisoned page
 *   of one (MADV_HWPOISON, CONFIG_MEMORY_FAILURE: the debug kernel).  A
 *   read of PROT_NONE secretmem (memfd_secret(), CONFIG_SECRETMEM: the
 *   debug kernel) is counted in neither mode: FOLL_FORCE never opens
 *   secretmem.  Where the kernel lacks the feature the row is skipped,
 *   naming what is missing.
 * - An O_RDWR open is checked for open_read, then open_write: refused, it
 *   is one denial, of the first refusing operation; in permissive mode one
 *   would-deny of each operation that would refuse.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest.h"
#include "denials.h"
#include "sysctl.h"

#define SYS	PM_SYS
#define NR_OPS	PM_NR_OPS
#define HUGE_SZ	(2UL << 20)
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif
#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

static const char *const *const ops = pm_op_names;

enum kase {
	OPEN_RDWR,	/* open /proc/self/mem O_RDWR */
	WR_PRIVATE_RO,	/* write a private anonymous read-only page (COW) */
	RD_PROT_NONE,	/* read a private anonymous PROT_NONE page */
	WR_SHARED_MAYWRITE, /* write a MAP_SHARED PROT_READ mapping of an O_RDWR file */
	WR_SHARED_RDONLY, /* the same of an O_RDONLY file (no VM_MAYWRITE) */
	WR_HUGETLB_RO,	/* write a private read-only hugetlb page */
	RD_UNMAPPED,	/* read an address no mapping covers */
	WR_UNMAPPED,	/* write an address no mapping covers */
	WR_PAST_EOF,	/* write a private read-only file mapping past EOF */
	WR_GUARD_RO,	/* write a guard region of a private read-only mapping */
	WR_HWPOISON_RO,	/* write a poisoned private read-only page */
	RD_SECRETMEM,	/* read PROT_NONE secretmem */
};

static const struct row {
	const char *op, *level;	/* raised to before the case, op NULL: as is */
	enum kase kase;
	const char *what;
	char enforcing, permissive;	/* '+' success, 'A' EACCES, 'I' EIO */
	/* the operations counted once, enforcing and permissive; NULL: none */
	const char *counted[2];
} cases[] = {
	{ NULL, NULL, WR_PRIVATE_RO,
	  "write to a private read-only page", 'I', '+', { "force", "force" } },
	{ NULL, NULL, RD_PROT_NONE, "read a PROT_NONE page", 'I', '+', { "force", "force" } },
	{ NULL, NULL, WR_SHARED_MAYWRITE,
	  "write to a shared read-only mapping (VM_MAYWRITE, not COW)", 'I', 'I',
	  { NULL, NULL } },
	{ NULL, NULL, WR_SHARED_RDONLY,
	  "write to a shared mapping of a read-only file", 'I', 'I', { NULL, NULL } },
	/* 7.x: '+' when permissive, force counted both ways (counted()) */
	{ NULL, NULL, WR_HUGETLB_RO,
	  "write to a private read-only hugetlb page", 'I', 'I', { NULL, NULL } },
	{ NULL, NULL, RD_UNMAPPED, "read an unmapped address", 'I', 'I', { NULL, NULL } },
	{ NULL, NULL, WR_UNMAPPED, "write an unmapped address", 'I', 'I', { NULL, NULL } },
	/* what FOLL_FORCE cannot cure in a mapping it could open: counted */
	{ NULL, NULL, WR_PAST_EOF,
	  "write a private read-only file mapping past EOF", 'I', 'I', { "force", NULL } },
	{ NULL, NULL, WR_GUARD_RO,
	  "write a guard region of a private read-only mapping", 'I', 'I', { "force", NULL } },
	{ NULL, NULL, WR_HWPOISON_RO,
	  "write a poisoned private read-only page", 'I', 'I', { "force", NULL } },
	{ NULL, NULL, RD_SECRETMEM, "read PROT_NONE secretmem", 'I', 'I', { NULL, NULL } },
	{ "open_write", "never", OPEN_RDWR,
	  "O_RDWR open refused by open_write only", 'A', '+', { "open_write", "open_write" } },
	{ "open_read", "never", OPEN_RDWR,
	  "O_RDWR open refused by open_read and open_write", 'A', '+',
	  { "open_read", "open_read open_write" } },
};

/* A FOLL_FORCE write of a private read-only hugetlb page breaks COW on
 * 7.x as on any other private page; 6.x's gup refused it with EIO. */
static bool hugetlb_forced(void)
{
	FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
	int major = 0;

	if (f) {
		if (fscanf(f, "%d", &major) != 1)
			major = 0;
		fclose(f);
	}
	return major >= 7;
}

/* The operations @r counts in @permissive mode. */
static const char *counted(const struct row *r, bool permissive)
{
	if (r->kase == WR_HUGETLB_RO && hugetlb_forced())
		return "force";
	return r->counted[permissive];
}

/* Is @op one of the space-separated names of @list? */
static bool named(const char *list, const char *op)
{
	size_t len = strlen(op);

	for (const char *p = list; p && (p = strstr(p, op)); p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

/* "open_read=L open_write=L write=L force=L", as the sysctls say */
static void levels(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int op = 0; op < NR_OPS; op++) {
		char val[32];

		if (sysctl_read(ops[op], val, sizeof(val)))
			strcpy(val, "?");
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s",
					op ? " " : "", ops[op], val);
		if (len >= size)
			break;
	}
}

/* A page (or huge page) to access, with the byte it holds; NULL to skip. */
static unsigned char *make_page(enum kase kase, const char **skip)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	char path[] = "/tmp/counting.XXXXXX";
	unsigned char *p;
	int fd;

	switch (kase) {
	case WR_PRIVATE_RO:
	case RD_PROT_NONE:
		p = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		*p = 0x22;
		if (mprotect(p, pagesz, kase == WR_PRIVATE_RO ? PROT_READ : PROT_NONE))
			return NULL;
		return p;
	case WR_SHARED_MAYWRITE:
	case WR_SHARED_RDONLY:
		fd = mkstemp(path);
		if (fd < 0 || write(fd, "\x22", 1) != 1 || ftruncate(fd, pagesz))
			return NULL;
		if (kase == WR_SHARED_RDONLY) {
			close(fd);
			fd = open(path, O_RDONLY);
		}
		unlink(path);
		p = mmap(NULL, pagesz, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		return p == MAP_FAILED ? NULL : p;
	case RD_UNMAPPED:
	case WR_UNMAPPED:
		/* below mmap_min_addr (4096 at least): nothing can map it */
		return (unsigned char *)(uintptr_t)pagesz;
	case WR_PAST_EOF:
		/* two pages of a one-page file: the second is past EOF */
		fd = mkstemp(path);
		if (fd < 0 || write(fd, "\x22", 1) != 1 || ftruncate(fd, pagesz))
			return NULL;
		unlink(path);
		p = mmap(NULL, 2 * pagesz, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		return p == MAP_FAILED ? NULL : p + pagesz;
	case WR_GUARD_RO:
	case WR_HWPOISON_RO:
		p = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		*p = 0x22;
		if (mprotect(p, pagesz, PROT_READ))
			return NULL;
		if (!madvise(p, pagesz, kase == WR_GUARD_RO ? MADV_GUARD_INSTALL :
			     MADV_HWPOISON))
			return p;
		*skip = kase == WR_GUARD_RO ?
			"no MADV_GUARD_INSTALL (Linux 6.13 and later)" :
			"no MADV_HWPOISON (CONFIG_MEMORY_FAILURE)";
		return NULL;
	case RD_SECRETMEM:
		fd = syscall(SYS_memfd_secret, 0);
		if (fd < 0) {
			*skip = "no memfd_secret() (CONFIG_SECRETMEM)";
			return NULL;
		}
		if (ftruncate(fd, pagesz))
			return NULL;
		p = mmap(NULL, pagesz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED)
			return NULL;
		*p = 0x22;
		return mprotect(p, pagesz, PROT_NONE) ? NULL : p;
	case WR_HUGETLB_RO:
		if (write_file("/proc/sys/vm/nr_hugepages", 0, "1")) {
			*skip = "no /proc/sys/vm/nr_hugepages";
			return NULL;
		}
		p = mmap(NULL, HUGE_SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p == MAP_FAILED) {
			*skip = "no huge page to map";
			return NULL;
		}
		*p = 0x22;
		return mprotect(p, HUGE_SZ, PROT_READ) ? NULL : p;
	default:
		return NULL;
	}
}

/*
 * MADV_HWPOISON poisons a page this process maps, and the kernel sends it
 * SIGBUS (BUS_MCEERR_AR) on the way back from madvise(): caught and
 * ignored, as the kernel's own hwpoison selftests do.
 */
static void on_sigbus(int sig)
{
	(void)sig;
}

/* The case's outcome: '+', 'A', 'I', 'D' wrong data, or 'E' other error. */
static char run(enum kase kase, unsigned char *page)
{
	unsigned char byte = 0x5a;
	int fd, err = 0;
	ssize_t n;

	bool rd = kase == RD_PROT_NONE || kase == RD_UNMAPPED || kase == RD_SECRETMEM;

	fd = open("/proc/self/mem", (rd ? O_RDONLY : kase == OPEN_RDWR ? O_RDWR : O_WRONLY) |
		  O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES ? 'A' : 'E';
	if (rd) {
		n = pread(fd, &byte, 1, (off_t)(uintptr_t)page);
		if (n == 1 && byte != 0x22)
			err = EBADMSG;
	} else if (kase != OPEN_RDWR) {
		n = pwrite(fd, &byte, 1, (off_t)(uintptr_t)page);
	} else {
		n = 1;
	}
	if (n < 0)
		err = errno;
	close(fd);
	/* a write that said yes must have landed (the page is readable) */
	if (!err && !rd && kase != OPEN_RDWR && kase != WR_UNMAPPED && *page != 0x5a)
		err = EBADMSG;
	return !err ? '+' : err == EACCES ? 'A' : err == EIO ? 'I' :
	       err == EBADMSG ? 'D' : 'E';
}

int main(void)
{
	size_t nr = sizeof(cases) / sizeof(cases[0]);
	long long before[2][NR_OPS], after[2][NR_OPS];
	char buf[16] = "";
	bool permissive;

	struct sigaction sa = { .sa_handler = on_sigbus };

	ksft_print_header();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	if (sysctl_read("permissive", buf, sizeof(buf))) {
		ksft_set_plan(1);
		ksft_test_result_fail("no " SYS "permissive: not the patched kernel\n");
		ksft_finished();
	}
	permissive = atoi(buf) == 1;
	if (sysctl_read("force", buf, sizeof(buf)) || strcmp(buf, "never")) {
		ksft_set_plan(1);
		ksft_test_result_fail("force is not never: boot with proc_mem.force_override=never\n");
		ksft_finished();
	}
	ksft_set_plan(nr);
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &cases[i];
		char want = permissive ? r->permissive : r->enforcing, got;
		const char *skip = NULL;
		char detail[256] = "", level[128];
		unsigned char *page = NULL;
		bool ok = true;

		if (permissive && r->kase == WR_HUGETLB_RO && hugetlb_forced())
			want = '+';

		if (r->op) {
			if (sysctl_write(r->op, r->level)) {
				ksft_test_result_fail("cannot set %s=%s\n", r->op, r->level);
				continue;
			}
		}
		levels(level, sizeof(level));
		if (r->kase != OPEN_RDWR && !(page = make_page(r->kase, &skip))) {
			if (skip)
				ksft_test_result_skip("%s: %s\n", r->what, skip);
			else
				ksft_test_result_fail("%s: cannot set up the page\n", r->what);
			continue;
		}
		if (read_denials(before)) {
			ksft_test_result_fail("%s: no counters " SYS "{denied,would_deny}/OP\n",
					      r->what);
			continue;
		}
		got = run(r->kase, page);
		if (read_denials(after))
			memset(after, 0xff, sizeof(after));
		if (got != want) {
			ok = false;
			snprintf(detail, sizeof(detail), ": got '%c', want '%c'", got, want);
		}
		for (int k = 0; k < 2; k++)
			for (int op = 0; op < NR_OPS; op++) {
				long long d = after[k][op] - before[k][op];
				long long w = k == permissive &&
					      named(counted(r, permissive), ops[op]);

				if (d != w) {
					size_t len = strlen(detail);

					ok = false;
					snprintf(detail + len, sizeof(detail) - len,
						 "; %s/%s moved %+lld, want %+lld",
						 k ? "would_deny" : "denied", ops[op], d, w);
				}
			}
		ksft_test_result(ok, "%s, %s, %s: %c, %s%s%s%s\n",
				 permissive ? "permissive" : "enforcing",
				 level, r->what, want,
				 counted(r, permissive) ? (permissive ? "would_deny/" : "denied/") :
				 "no counter moves", counted(r, permissive) ? counted(r, permissive) : "",
				 counted(r, permissive) ? " +1" : "", detail);
	}
	ksft_finished();
}
