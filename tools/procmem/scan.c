// SPDX-License-Identifier: GPL-2.0
/*
 * procmem scan: which processes hold a /proc/PID/mem file open now.
 * Walks /proc/N/fd (pm_fd_each), matches link targets .../P/mem and .../P/task/T/mem
 * on a procfs, reads the access mode from /proc/N/fdinfo/FD.  Processes
 * whose fds we may not read are counted and listed, not skipped.
 */
#include "procmem.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LISTED 50

struct holder {
	int pid, fd, target, task;	/* task: -1 for /proc/P/mem */
	int gone;			/* link says "(deleted)" */
	int foreign;			/* on another procfs mount: the pid
					 * may be of another pid namespace */
	char comm[64], tcomm[64], mode[4];
	unsigned long flags;
};

struct scan {
	struct holder *h;
	size_t nh, cap;
	int scanned, ndenied, gone, denied_err;
	int denied[MAX_LISTED];
};

/* One process's walk: its pid, the scan, the dev of our /proc. */
struct walk {
	int pid;
	struct scan *sc;
	dev_t proc_dev;
};

static int scan_fd(void *ctx, int fd, char *link)
{
	const struct walk *w = ctx;
	struct scan *sc = w->sc;
	int pid = w->pid;
	char path[96];
	struct holder x;
	struct stat st;

	memset(&x, 0, sizeof(x));
	x.fd = fd;
	if (!pm_mem_fd(pid, x.fd, link, &x.target, &x.task, &x.gone))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, x.fd);
	x.pid = pid;
	x.foreign = stat(path, &st) == 0 && st.st_dev != w->proc_dev;
	pm_read_comm(pid, x.comm, sizeof(x.comm));
	if (x.gone)
		snprintf(x.tcomm, sizeof(x.tcomm), "(exited)");
	else if (x.foreign)
		snprintf(x.tcomm, sizeof(x.tcomm), "(other procfs mount)");
	else
		pm_read_comm(x.task > 0 ? x.task : x.target, x.tcomm, sizeof(x.tcomm));
	if (pm_fd_flags(pid, x.fd, &x.flags) < 0)
		snprintf(x.mode, sizeof(x.mode), "?");
	else
		snprintf(x.mode, sizeof(x.mode), "%s",
			 (x.flags & O_ACCMODE) == O_RDONLY ? "r" :
			 (x.flags & O_ACCMODE) == O_WRONLY ? "w" : "rw");
	if (sc->nh == sc->cap) {
		size_t ncap = sc->cap ? sc->cap * 2 : 16;
		struct holder *nhp = realloc(sc->h, ncap * sizeof(*nhp));

		if (!nhp)
			return 1;
		sc->h = nhp;
		sc->cap = ncap;
	}
	sc->h[sc->nh++] = x;
	return 0;
}

static void print_json(const struct scan *sc, int rc)
{
	struct json_object *o = json_object_new_object(), *hs = json_object_new_array();
	struct json_object *ni = json_object_new_object(), *pids = json_object_new_array();

	pm_jset(o, "command", json_object_new_string("scan"));
	for (size_t i = 0; i < sc->nh; i++) {
		const struct holder *h = &sc->h[i];
		struct json_object *j = json_object_new_object();
		char flags[32];

		snprintf(flags, sizeof(flags), "0%lo", h->flags);
		pm_jset(j, "pid", json_object_new_int(h->pid));
		pm_jset(j, "comm", json_object_new_string(h->comm));
		pm_jset(j, "fd", json_object_new_int(h->fd));
		pm_jset(j, "mode", json_object_new_string(h->mode));
		pm_jset(j, "flags", json_object_new_string(flags));
		pm_jset(j, "target", json_object_new_int(h->target));
		pm_jset(j, "task", h->task > 0 ? json_object_new_int(h->task) : NULL);
		pm_jset(j, "target_comm", pm_jstr(h->gone || h->foreign ? NULL : h->tcomm));
		pm_jset(j, "target_exited", json_object_new_boolean(h->gone));
		pm_jset(j, "other_procfs", json_object_new_boolean(h->foreign));
		json_object_array_add(hs, j);
	}
	pm_jset(o, "holders", hs);
	pm_jset(o, "scanned", json_object_new_int(sc->scanned));
	pm_jset(o, "exited_during_scan", json_object_new_int(sc->gone));
	pm_jset(ni, "count", json_object_new_int(sc->ndenied));
	pm_jset(ni, "error", pm_jstr(sc->ndenied ? strerror(sc->denied_err) : NULL));
	for (int i = 0; i < sc->ndenied && i < MAX_LISTED; i++)
		json_object_array_add(pids, json_object_new_int(sc->denied[i]));
	pm_jset(ni, "pids", pids);
	pm_jset(o, "not_inspected", ni);
	pm_jset(o, "exit", json_object_new_int(rc));
	pm_json_print(o, 1);
}

static void print_text(const struct scan *sc)
{
	const struct holder *h = sc->h;

	if (sc->nh)
		printf("%-7s %-16s %-4s %-4s %-7s %s\n", "PID", "COMM", "FD",
		       "MODE", "TARGET", "TARGET_COMM");
	for (size_t i = 0; i < sc->nh; i++) {
		char target[32];

		if (h[i].task > 0)
			snprintf(target, sizeof(target), "%d/%d", h[i].target, h[i].task);
		else
			snprintf(target, sizeof(target), "%d", h[i].target);
		printf("%-7d %-16s %-4d %-4s %-7s %s\n", h[i].pid, h[i].comm,
		       h[i].fd, h[i].mode, target, h[i].tcomm);
	}
	printf("%zu open /proc/PID/mem file%s; %d process%s inspected",
	       sc->nh, sc->nh == 1 ? "" : "s", sc->scanned, sc->scanned == 1 ? "" : "es");
	if (sc->gone)
		printf(", %d exited during the scan", sc->gone);
	printf("\n");
	if (sc->ndenied) {
		printf("not inspected: %d process%s (%s):", sc->ndenied,
		       sc->ndenied == 1 ? "" : "es", strerror(sc->denied_err));
		for (int i = 0; i < sc->ndenied && i < MAX_LISTED; i++)
			printf(" %d", sc->denied[i]);
		printf("%s\n", sc->ndenied > MAX_LISTED ? " ..." : "");
	}
}

static void scan_help(void)
{
	fputs("usage: procmem scan [--json]\n"
	      "Processes holding a /proc/PID/mem file open now.\n"
	      "  --json      machine-readable output\n"
	      "  -h, --help  this text\n"
	      "Exit status: 0 complete, 1 some processes could not be inspected,\n"
	      "2 usage, 3 /proc unreadable.\n", stdout);
}

static int scan_walk(struct scan *sc)
{
	struct dirent *e;
	struct stat st;
	DIR *proc = opendir("/proc");

	if (!proc) {
		fprintf(stderr, "procmem: cannot read /proc: %s\n", strerror(errno));
		return EXIT_NORUN;
	}
	if (stat("/proc/self", &st) < 0) {
		fprintf(stderr, "procmem: cannot stat /proc/self: %s\n", strerror(errno));
		closedir(proc);
		return EXIT_NORUN;
	}
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		struct walk w = { .pid = (int)pid, .sc = sc, .proc_dev = st.st_dev };

		if (!isdigit((unsigned char)e->d_name[0]) || *end)
			continue;
		if (pm_fd_each((int)pid, scan_fd, &w) == 0) {
			sc->scanned++;
		} else if (errno == ENOENT || errno == ESRCH) {
			sc->gone++;
		} else {
			if (sc->ndenied < MAX_LISTED)
				sc->denied[sc->ndenied] = (int)pid;
			sc->ndenied++;
			sc->denied_err = errno;
		}
	}
	closedir(proc);
	return EXIT_OK;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan sc;
	int c, json = 0, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			scan_help();
			return EXIT_OK;
		default:
			return pm_opt_error("scan", c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("scan", "unexpected argument '%s'", argv[optind]);
	memset(&sc, 0, sizeof(sc));
	rc = scan_walk(&sc);
	if (rc)
		return rc;
	rc = sc.ndenied ? EXIT_FINDING : EXIT_OK;
	if (json)
		print_json(&sc, rc);
	else
		print_text(&sc);
	free(sc.h);
	return rc;
}
