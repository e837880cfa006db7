/* Debuggee whose main thread exits first: the worker waits until the
 * leader is a zombie, stops itself with SIGUSR1 (the debugger sets its
 * breakpoint then), and calls work(7). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int work(int n)
{
	return n * 2;
}

static int leader_gone(void)
{
	char path[64], buf[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)getpid());
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 500 && !leader_gone(); i++)
		usleep(10000);
	printf("worker: leader %s\n", leader_gone() ? "exited" : "still there");
	fflush(stdout);
	pthread_kill(pthread_self(), SIGUSR1);
	printf("worker: work=%d\n", work(7));
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_exit(NULL);
}
