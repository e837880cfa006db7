// SPDX-License-Identifier: GPL-2.0
/* A program for gdb to stop in and change: see tests/conformance/gdb.sh. */
#include <stdio.h>

const int answer = 7;	/* in .rodata: changing it needs FOLL_FORCE */

__attribute__((noinline)) int stop_here(int x)
{
	return x + *(volatile const int *)&answer;
}

int main(void)
{
	printf("result %d\n", stop_here(1));
	return 0;
}
