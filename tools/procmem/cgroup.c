// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup-v2 paths as the enforcer's programs match them: from the root
 * of the v2 hierarchy, component by component (bpf/enforcer.bpf.c walks
 * kernfs names up to that root).  A path an administrator gives may be
 * under a mount that is not that root: systemd's hybrid layout mounts
 * the v2 hierarchy at /sys/fs/cgroup/unified, and a container's
 * /sys/fs/cgroup is a subtree of it (its mountinfo root is the
 * subtree's path).  Such a path is resolved through the mount's root;
 * in a cgroup namespace even that root is shown relative to the
 * namespace, so procmem enforce refuses --cgroup there.  A relative
 * path is relative to /sys/fs/cgroup; one that exists is taken
 * canonical (realpath); one under no cgroup2 mount and not under
 * /sys/fs/cgroup is taken as a path from the v2 root ("/system.slice").
 */
#include "procmem.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pm_initial_cgroupns(void)
{
	char self[64], init[64];
	ssize_t a = readlink("/proc/self/ns/cgroup", self, sizeof(self) - 1);
	ssize_t b = readlink("/proc/1/ns/cgroup", init, sizeof(init) - 1);

	if (a < 0 || b < 0)
		return access("/proc/self/ns/cgroup", F_OK) ? 1 : -1;	/* no cgroup ns: one */
	self[a] = init[b] = 0;
	return !strcmp(self, init);
}

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = 0;
}

/* Is @dir @path or an ancestor of it (whole components)?  Its length. */
static size_t under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/' ? 0 : (size_t)-1;
	if (strncmp(path, dir, n) || (path[n] && path[n] != '/'))
		return (size_t)-1;
	return n;
}

/*
 * The cgroup2 mounts, one at a time: @fn(root, mountpoint, arg) until it
 * returns non-zero; that value, or 0.
 */
static int each_cgroup2(int (*fn)(const char *, const char *, void *), void *arg)
{
	char line[2 * PATH_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int rc = 0;

	if (!f)
		return 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		char root[PATH_MAX], mnt[PATH_MAX], fstype[64];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2)
			continue;
		unescape(root);
		unescape(mnt);
		rc = fn(root, mnt, arg);
	}
	fclose(f);
	return rc;
}

struct resolve {
	const char *path;
	size_t best;		/* length of the longest mount point matched */
	char root[PATH_MAX];	/* its root */
	int found;
};

static int longest(const char *root, const char *mnt, void *arg)
{
	struct resolve *r = arg;
	size_t n = under(r->path, mnt);

	/* the longest mount point; among equals the last listed, the one on top */
	if (n != (size_t)-1 && (!r->found || n >= r->best)) {
		r->found = 1;
		r->best = n;
		snprintf(r->root, sizeof(r->root), "%s", root);
	}
	return 0;
}

int pm_cgroup_resolve(const char *path, char *out, size_t n, char *why, size_t wn)
{
	char abs[PATH_MAX], canon[PATH_MAX];
	struct resolve r = { .path = abs };
	const char *rest;

	/* relative: to /sys/fs/cgroup, as the help says */
	if ((size_t)snprintf(abs, sizeof(abs), "%s%s%s", path[0] == '/' ? "" : PM_CGROUP_ROOT,
			     path[0] == '/' ? "" : "/", path) >= sizeof(abs)) {
		snprintf(why, wn, "too long");
		return -1;
	}
	/* a path that exists, canonical (symbolic links, "//") */
	if (realpath(abs, canon))
		snprintf(abs, sizeof(abs), "%s", canon);
	each_cgroup2(longest, &r);
	if (!r.found) {
		if (under(abs, PM_CGROUP_ROOT) != (size_t)-1) {
			snprintf(why, wn, "under %s but not under a cgroup2 mount (cgroup v1 there?): name the path from the cgroup-v2 root",
				 PM_CGROUP_ROOT);
			return -1;
		}
		snprintf(out, n, "%s", abs);	/* a path from the v2 root */
		return 0;
	}
	rest = abs + r.best;
	if ((size_t)snprintf(out, n, "%s%s", strcmp(r.root, "/") ? r.root : "", rest) >= n) {
		snprintf(why, wn, "too long");
		return -1;
	}
	if (!out[0])
		snprintf(out, n, "/");
	return 0;
}

static int v2_root(const char *root, const char *mnt, void *arg)
{
	if (strcmp(root, "/"))
		return 0;
	snprintf(arg, PATH_MAX, "%s", mnt);
	return 1;
}

int pm_cgroup_dir(const char *rel, char *out, size_t n)
{
	char mnt[PATH_MAX];

	if (!each_cgroup2(v2_root, mnt))
		return -1;
	snprintf(out, n, "%s%s", strcmp(mnt, "/") ? mnt : "", rel);
	return 0;
}

/* procmem's own cgroup-v2 path, "/" if none. */
void pm_own_cgroup(char *path, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "r");

	snprintf(path, n, "/");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, n, "%s", line + 3);
			break;
		}
	fclose(f);
}
