/* Victim of the injection attacks: prints the address of tick() on stdout,
 * then calls tick() every 20 ms for about 4 s (or SECONDS, the optional
 * argument: make demo's debugger attaches to it) and exits 0.  An attacker
 * that overwrites tick() with the payload makes it exit 42 instead.  Once
 * the address is out, stdout may be a closed pipe: nothing more goes there. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long ticks;

__attribute__((noinline)) static void tick(void)
{
	ticks++;
}

int main(int argc, char **argv)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	int n = argc > 1 ? atoi(argv[1]) * 50 : 200;

	printf("%p\n", (void *)tick);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		tick();
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "victim: %lu ticks, no payload ran\n", ticks);
	return 0;
}
