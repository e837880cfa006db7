/* Debuggee for gdb, gdbserver and lldb (built PIE, -O0 -g): a breakpoint
 * goes in compute(), the debugger changes the read-only constant answer,
 * and a watchpoint watches counter.  It prints what it saw. */
#include <stdio.h>

static const int answer = 42;	/* .rodata: a read-only page */
volatile int counter;

__attribute__((noinline)) int compute(int x)
{
	return x * 2;
}

int main(void)
{
	int r = compute(21);

	printf("target: compute=%d answer=%d\n", r, *(const volatile int *)&answer);
	fflush(stdout);
	counter = 1;
	counter = 2;
	printf("target: counter=%d\n", counter);
	return 0;
}
