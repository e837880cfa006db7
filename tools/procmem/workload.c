// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads by name: the cgroup-v2 path (from the v2 root, as the
 * enforcer's overrides match it) of a systemd unit, a podman or docker
 * container, or a Kubernetes pod, asked of whoever names them:
 *
 *  - a unit: systemd (systemctl show): its ControlGroup while it runs,
 *    else the path its slice implies (a unit's cgroup is SLICE/UNIT,
 *    and slice a-b.slice is /a.slice/a-b.slice);
 *  - a container: podman, then docker (container inspect): the cgroup
 *    of its running process, read from /proc/PID/cgroup, up to the
 *    component that holds the container's id (podman's crun runs the
 *    process in libpod-<id>.scope/container, and what the container
 *    makes below it is the container's too).  A container that does
 *    not run has no cgroup, and is refused;
 *  - a pod, by UID: the kubelet's cgroup for it, found where the
 *    kubelet makes it (systemd driver: kubepods.slice/
 *    [kubepods-QOS.slice/]kubepods-[QOS-]pod<UID, '-' as '_'>.slice;
 *    cgroupfs driver: kubepods/[QOS/]pod<UID>).
 *
 * Each answers 0 with the path and a label naming the workload for
 * people ("unit:nginx.service", "podman:web", "pod:UID"), or
 * EXIT_NO_WORKLOAD (the unit, container, pod or its manager is not
 * there) or EXIT_NO_CGROUP (a name that cannot be one) with one line in
 * @why.  Names go to the managers as one argument after "--".
 */
#include "procmem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Runs @argv (PATH searched) with stdout and stderr into @out (at most
 * @n - 1 bytes kept, NUL-terminated).  Its exit status; -1 with errno
 * ENOENT when there is no such program, other errno on failure.
 */
static int run(char *const argv[], char *out, size_t n)
{
	int fd[2], status;
	size_t len = 0;
	ssize_t r;
	pid_t pid;

	out[0] = 0;
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		execvp(argv[0], argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(fd[1]);
	while ((r = read(fd[0], out + len, n - 1 - len)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && (len += (size_t)r) == n - 1)
			break;
	out[len] = 0;
	/* the rest, unread, so that the child never blocks on a full pipe */
	while (len == n - 1 && read(fd[0], (char[256]){ 0 }, 256) > 0)
		;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		errno = ENOENT;
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The first line of @s, for a message: at most 160 bytes, escaped. */
static const char *first_line(const char *s, char *buf, size_t n)
{
	size_t len = strcspn(s, "\n");

	if (len > 160)
		len = 160;
	pm_escape(buf, n, s, len);
	return buf;
}

/* Only these bytes, and not first a '-': what a unit, container or pod
 * name can hold, so that nothing else reaches a manager. */
static int name_ok(const char *s, const char *extra)
{
	if (!*s || *s == '-' || strlen(s) >= PM_LABEL_MAX - 16)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return 0;
	return 1;
}

static int bad_name(const char *kind, const char *name, char *why, size_t wn)
{
	char esc[PM_LABEL_MAX * 4];

	pm_escape(esc, sizeof(esc), name, strlen(name) < 200 ? strlen(name) : 200);
	snprintf(why, wn, "%s '%s': not a name one can have (letters, digits and %s; no '/', '..' or newline)",
		 kind, esc, !strcmp(kind, "unit") ? "'_.:@\\-'" : "'_.-'");
	return EXIT_NO_CGROUP;
}

/* Slice a-b.slice is /a.slice/a-b.slice; -.slice is the root (""). */
static int slice_path(const char *slice, char *out, size_t n)
{
	size_t len = 0, stem = strlen(slice) - strlen(".slice");

	out[0] = 0;
	if (!strcmp(slice, "-.slice"))
		return 0;
	for (size_t i = 0; i <= stem; i++) {
		if (i < stem && slice[i] != '-')
			continue;
		if (i == 0 || slice[i - 1] == '-')
			return -1;	/* "-a.slice", "a--b.slice": no such slice */
		len += (size_t)snprintf(out + len, n - len, "/%.*s.slice", (int)i, slice);
		if (len >= n)
			return -1;
	}
	return 0;
}

/* KEY=VALUE of systemctl show's @text, into @val; 0 if present. */
static int show_value(const char *text, const char *key, char *val, size_t n)
{
	size_t k = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, k) && l[k] == '=') {
			snprintf(val, n, "%.*s", (int)strcspn(l + k + 1, "\n"), l + k + 1);
			return 0;
		}
	return -1;
}

int pm_unit_cgroup(const char *unit, char *path, size_t n, char *label, size_t ln,
		   char *why, size_t wn)
{
	char out[4096], id[256], load[64], cg[PATH_MAX];
	char *argv[] = { "systemctl", "show", "-p", "Id", "-p", "LoadState", "-p", "ControlGroup",
			 "-p", "Slice", "--", (char *)unit, NULL };
	struct stat st;
	int rc;

	if (!name_ok(unit, "_.:@\\-"))
		return bad_name("unit", unit, why, wn);
	/* sd_booted(): systemd runs as PID 1 */
	if (lstat("/run/systemd/system", &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, wn, "unit %s: systemd is not running here (no /run/systemd/system)", unit);
		return EXIT_NO_WORKLOAD;
	}
	rc = run(argv, out, sizeof(out));
	if (rc < 0) {
		snprintf(why, wn, "unit %s: cannot run systemctl: %s", unit, strerror(errno));
		return EXIT_NO_WORKLOAD;
	}
	if (rc || show_value(out, "Id", id, sizeof(id)) || show_value(out, "LoadState", load, sizeof(load))) {
		char msg[200];

		snprintf(why, wn, "unit %s: systemctl show failed: %s", unit,
			 first_line(out, msg, sizeof(msg)));
		return EXIT_NO_WORKLOAD;
	}
	if (!strcmp(load, "not-found") || !id[0]) {
		snprintf(why, wn, "unit %s: no such unit (systemd: LoadState=%s)", unit, load);
		return EXIT_NO_WORKLOAD;
	}
	if (show_value(out, "ControlGroup", cg, sizeof(cg)) || !cg[0]) {
		char slice[256];
		size_t len = strlen(id);
		int is_slice = len > 6 && !strcmp(id + len - 6, ".slice");

		/* not running: the path its slice implies */
		if (!is_slice && (show_value(out, "Slice", slice, sizeof(slice)) || !slice[0])) {
			snprintf(why, wn, "unit %s: no cgroup and no slice (a %s unit has none)", id,
				 strrchr(id, '.') ? strrchr(id, '.') + 1 : "such");
			return EXIT_NO_WORKLOAD;
		}
		if (slice_path(is_slice ? id : slice, cg, sizeof(cg))) {
			snprintf(why, wn, "unit %s: slice %s is not a name systemd gives", id,
				 is_slice ? id : slice);
			return EXIT_NO_WORKLOAD;
		}
		if (!is_slice)
			snprintf(cg + strlen(cg), sizeof(cg) - strlen(cg), "/%s", id);
	}
	if (!cg[0] || !strcmp(cg, "/")) {
		snprintf(why, wn, "unit %s is the root cgroup: leave the unit out for the machine", id);
		return EXIT_NO_CGROUP;
	}
	snprintf(path, n, "%s", cg);
	snprintf(label, ln, "unit:%s", id);
	return EXIT_OK;
}

/* "0::PATH" of /proc/PID/cgroup. */
static int pid_cgroup(long pid, char *path, size_t n)
{
	char file[64], buf[8192], *l;

	snprintf(file, sizeof(file), "/proc/%ld/cgroup", pid);
	if (pm_read_small(file, buf, sizeof(buf)) < 0)
		return -1;
	for (l = buf; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "0::", 3)) {
			snprintf(path, n, "%.*s", (int)strcspn(l + 3, "\n"), l + 3);
			return path[0] == '/' ? 0 : -1;
		}
	return -1;
}

/* @path cut after its last component that holds @id, if one does. */
static void cut_at_id(char *path, const char *id)
{
	char *hit = NULL;

	for (char *c = path; c && *c; c = strchr(c + 1, '/')) {
		size_t len = strcspn(c + 1, "/");

		if (memmem(c + 1, len, id, strlen(id)))
			hit = c + 1 + len;
	}
	if (hit)
		*hit = 0;
}

/* One runtime's answer for @name: 1 found (id, pid, its name), 0 not
 * found (@why says why), -1 the runtime is not installed. */
static int inspect(const char *rt, const char *name, char *id, long *pid, char *cname,
		   char *why, size_t wn)
{
	char out[4096];
	char *argv[] = { (char *)rt, "container", "inspect", "--format",
			 "{{.Id}} {{.State.Pid}} {{.Name}}", "--", (char *)name, NULL };
	int rc = run(argv, out, sizeof(out));

	if (rc < 0 && errno == ENOENT)
		return -1;
	if (rc || sscanf(out, "%127s %ld %127s", id, pid, cname) != 3) {
		char msg[200];

		snprintf(why, wn, "%s: %s", rt, rc < 0 ? strerror(errno) : first_line(out, msg, sizeof(msg)));
		return 0;
	}
	return 1;
}

int pm_container_cgroup(const char *name, char *path, size_t n, char *label, size_t ln,
			char *why, size_t wn)
{
	static const char *const runtimes[] = { "podman", "docker" };
	char id[128], cname[128], fid[128] = "", fname[128] = "", miss[2][240] = { "", "" };
	const char *found = NULL;
	int installed = 0;
	long pid = 0, fpid = 0;

	if (!name_ok(name, "_.-"))
		return bad_name("container", name, why, wn);
	for (int i = 0; i < 2; i++) {
		int r = inspect(runtimes[i], name, id, &pid, cname, miss[i], sizeof(miss[i]));

		installed += r >= 0;
		if (r <= 0)
			continue;
		if (found) {
			snprintf(why, wn, "container %s: both podman and docker have one of that name: name its cgroup (--cgroup)",
				 name);
			return EXIT_NO_WORKLOAD;
		}
		found = runtimes[i];
		snprintf(fid, sizeof(fid), "%s", id);
		snprintf(fname, sizeof(fname), "%s", cname[0] == '/' ? cname + 1 : cname);
		fpid = pid;
	}
	if (!installed) {
		snprintf(why, wn, "container %s: no container runtime here (neither podman nor docker is installed)",
			 name);
		return EXIT_NO_WORKLOAD;
	}
	if (!found) {
		snprintf(why, wn, "container %s: no such container (%s%s%s)", name, miss[0],
			 miss[0][0] && miss[1][0] ? "; " : "", miss[1]);
		return EXIT_NO_WORKLOAD;
	}
	if (fpid <= 0) {
		snprintf(why, wn, "container %s (%s %.12s) is not running: its cgroup exists only while it runs; start it, or name the path (--cgroup)",
			 name, found, fid);
		return EXIT_NO_WORKLOAD;
	}
	if (pid_cgroup(fpid, path, n) || !strcmp(path, "/")) {
		snprintf(why, wn, "container %s (%s %.12s): its process %ld is gone or in the root cgroup",
			 name, found, fid, fpid);
		return EXIT_NO_WORKLOAD;
	}
	if (strlen(fid) >= 12)
		cut_at_id(path, fid);
	snprintf(label, ln, "%s:%s", found, fname);
	return EXIT_OK;
}

/* Is @path a directory?  Then it is copied to @out (if it fits). */
static int dir_at(const char *path, char *out, size_t n)
{
	struct stat st;
	size_t len = strlen(path);

	if (len >= n || stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	memcpy(out, path, len + 1);
	return 1;
}

/* Looks for directory @want under @dir and one level below it. */
static int find_below(const char *dir, const char *want, char *out, size_t n)
{
	char sub[PATH_MAX * 2 + 2 * PM_NAME_MAX];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(sub, sizeof(sub), "%s/%s", dir, want);
	if (dir_at(sub, out, n))
		return 1;
	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/%s", dir, d->d_name, want);
		found = dir_at(sub, out, n);
	}
	closedir(dp);
	return found;
}

int pm_pod_cgroup(const char *uid, char *path, size_t n, char *label, size_t ln,
		  char *why, size_t wn)
{
	static const char *const qos[] = { "", "burstable", "besteffort" };
	char root[PATH_MAX], dir[PATH_MAX + 32], want[PM_NAME_MAX], u[64], hit[PATH_MAX];
	size_t len = strlen(uid);

	if (!name_ok(uid, "-_") || len > 40)
		return bad_name("pod", uid, why, wn);
	if (pm_cgroup_dir("", root, sizeof(root))) {
		snprintf(why, wn, "pod %s: no mount of the cgroup-v2 root here to look in", uid);
		return EXIT_NO_WORKLOAD;
	}
	/* systemd driver: '-' of the UID as '_' (a '-' separates slices) */
	for (size_t i = 0; i <= len; i++)
		u[i] = uid[i] == '-' ? '_' : uid[i];
	for (size_t q = 0; q < sizeof(qos) / sizeof(qos[0]); q++) {
		snprintf(want, sizeof(want), "kubepods-%s%spod%s.slice", qos[q], q ? "-" : "", u);
		snprintf(dir, sizeof(dir), "%s/kubepods.slice", root);
		if (find_below(dir, want, hit, sizeof(hit)))
			break;
		hit[0] = 0;
	}
	/* cgroupfs driver: the UID as it is */
	snprintf(want, sizeof(want), "pod%s", uid);
	snprintf(dir, sizeof(dir), "%s/kubepods", root);
	if (!hit[0] && !find_below(dir, want, hit, sizeof(hit))) {
		snprintf(why, wn, "pod %s: no such pod's cgroup under kubepods.slice or kubepods (not running on this node?)",
			 uid);
		return EXIT_NO_WORKLOAD;
	}
	snprintf(path, n, "%s", hit + strlen(root));
	snprintf(label, ln, "pod:%s", uid);
	return EXIT_OK;
}
