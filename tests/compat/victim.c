/* Victim of the injection attacks.  Its first line on stdout holds five
 * addresses: tick(), hook (a code pointer in .data), on_tick (a code
 * pointer on main()'s stack), via_data() and via_stack().  Then, every
 * 20 ms for about 4 s (or SECONDS, the optional argument: make demo's
 * debugger attaches to it), it calls through hook and then through
 * on_tick, both set to tick(), and exits 0.  An attacker that overwrites
 * tick() with the payload makes it exit 42 instead.  So does one that
 * points hook at via_data() and on_tick at via_stack(): once control has
 * come through both, win(), the payload's twin in C, writes the marker
 * file /tmp/compat-pwned and exits 42.  That is the attack by
 * process_vm_writev(), which can write only writable memory and so reuses
 * code the victim already has (tests/compat/README.md: a model of
 * code-reuse injection).  Once the addresses are out, stdout may be a
 * closed pipe: nothing more goes there. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long ticks;

__attribute__((noinline)) static void tick(void)
{
	ticks++;
}

__attribute__((noinline, used)) static void win(void)
{
	static const char msg[] = "pwned\n";
	int fd = open("/tmp/compat-pwned", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0 && write(fd, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(42);
}

/* Which redirected pointer control came through: 1 hook, 2 on_tick. */
static volatile int came;

__attribute__((noinline, used)) static void via_data(void)
{
	came |= 1;
	if (came == 3)
		win();
}

__attribute__((noinline, used)) static void via_stack(void)
{
	came |= 2;
	if (came == 3)
		win();
}

/* In .data: initialised, and read anew at every call. */
static void (*volatile hook)(void) = tick;

int main(int argc, char **argv)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	void (*volatile on_tick)(void) = tick;	/* on the stack: its address is out */
	int n = argc > 1 ? atoi(argv[1]) * 50 : 200;

	printf("%p %p %p %p %p\n", (void *)tick, (void *)(uintptr_t)&hook,
	       (void *)(uintptr_t)&on_tick, (void *)via_data, (void *)via_stack);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		hook();
		on_tick();
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "victim: %lu ticks, no payload ran\n", ticks);
	return 0;
}
