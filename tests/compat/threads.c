/* Debuggee whose main thread exits first: the worker waits until the
 * leader is a zombie, stops itself with SIGUSR1 (the debugger sets its
 * breakpoint then), and calls work(7).
 *
 *   threads              the leader exits at once (gdb runs the program)
 *   threads attach FILE  the leader prints "ready pid=PID" and waits until
 *                        FILE exists (a debugger that attached with gdb -p
 *                        creates it), reports whether it is traced, then
 *                        exits; it gives up waiting after 120 s */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "thread.h"

__attribute__((noinline)) int work(int n)
{
	return n * 2;
}

/* the leader has exited (a zombie), or its task is gone */
static int leader_gone(void)
{
	char state = task_state(getpid(), getpid());

	return state == 'Z' || state == '?';
}

/* the TracerPid of the calling thread: who traces it */
static int tracer(void)
{
	return task_tracer(getpid(), gettid());
}

static int waits = 500; /* times 10 ms: how long the worker waits for the leader */

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < waits && !leader_gone(); i++)
		usleep(10000);
	printf("worker: leader %s\n", leader_gone() ? "exited" : "still there");
	fflush(stdout);
	pthread_kill(pthread_self(), SIGUSR1);
	printf("worker: work=%d\n", work(7));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc == 3 && !strcmp(argv[1], "attach"))
		waits = 13000;
	else if (argc != 1) {
		fprintf(stderr, "usage: threads [attach FILE]\n");
		return 2;
	}
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	if (argc == 3) {
		printf("ready pid=%d\n", (int)getpid());
		fflush(stdout);
		for (int i = 0; i < 12000 && access(argv[2], F_OK); i++)
			usleep(10000);
		printf("leader: exiting, tracer=%d\n", tracer());
		fflush(stdout);
	}
	pthread_exit(NULL);
}
