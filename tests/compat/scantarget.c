/* scanmem's target: holds a distinctive value and reports when someone
 * else changes it (or gives up after about 20 s). */
#include <stdio.h>
#include <time.h>

volatile int value = 324478056;

int main(void)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };

	printf("scantarget: value=%d\n", value);
	fflush(stdout);
	for (int i = 0; i < 1000 && value == 324478056; i++)
		nanosleep(&pause, NULL);
	printf("scantarget: value=%d\n", value);
	return 0;
}
