/* A JIT in the style of Julia's: code pages are mapped read+exec only and
 * code is emitted by pwrite() to /proc/self/mem (which punches through the
 * page protection with FOLL_FORCE).  When that is refused, it falls back to
 * a dual mapping of a memfd (one writable view, one executable view).
 * Last line: "=> works: path=procmem ...", "=> fallback: path=memfd ..." (it
 * works, through the fallback), or "=> breaks: ...". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* int f(int x) { return x * 7 + 1; } */
static const unsigned char code[] = {
	0x89, 0xf8,		/* mov %edi,%eax */
	0x6b, 0xc0, 0x07,	/* imul $7,%eax,%eax */
	0x83, 0xc0, 0x01,	/* add $1,%eax */
	0xc3,			/* ret */
};

typedef int (*fn)(int);

static char why[128] = "";

static fn emit_procmem(size_t size)
{
	void *rx = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd;

	if (rx == MAP_FAILED)
		return NULL;
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open /proc/self/mem: %s", strerror(errno));
		return NULL;
	}
	ssize_t n = pwrite(fd, code, sizeof(code), (off_t)(unsigned long)rx);
	int err = errno;
	close(fd);
	if (n != (ssize_t)sizeof(code)) {
		snprintf(why, sizeof(why), "pwrite /proc/self/mem: %s", n < 0 ? strerror(err) : "short");
		munmap(rx, size);
		return NULL;
	}
	return (fn)rx;
}

static fn emit_memfd(size_t size)
{
	int fd = memfd_create("jit", MFD_CLOEXEC);
	void *rw, *rx;

	if (fd < 0 || ftruncate(fd, (off_t)size))
		return NULL;
	rw = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	rx = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	close(fd);
	if (rw == MAP_FAILED || rx == MAP_FAILED)
		return NULL;
	memcpy(rw, code, sizeof(code));
	munmap(rw, size);
	return (fn)rx;
}

int main(void)
{
	size_t size = (size_t)sysconf(_SC_PAGESIZE);
	const char *path = "procmem";
	fn f = emit_procmem(size);

	if (!f) {
		printf("jit: /proc/self/mem refused (%s), falling back\n", why);
		path = "memfd";
		f = emit_memfd(size);
	}
	if (!f) {
		printf("=> breaks: no way to emit code\n");
		return 0;
	}
	int r = f(6);
	printf("=> %s: path=%s f(6)=%d%s%s\n",
	       r != 43 ? "breaks" : *why ? "fallback" : "works", path, r,
	       *why ? "; " : "", why);
	return 0;
}
