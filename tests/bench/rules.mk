# The cost of the /proc/PID/mem policy for debuggers.
BINS += tests/bench/procmem-bench
CHECKS += tests/bench/smoke.sh

tests/bench/procmem-bench: tests/bench/procmem-bench.c
	$(CC) $(CFLAGS) -o $@ $<

# Boots stock and patched guests under QEMU -icount at each level and
# regenerates docs/bench.md (a few minutes).
.PHONY: bench
bench: tests/bench/procmem-bench
	tests/bench/run.sh
