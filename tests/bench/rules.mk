# The cost of the /proc/PID/mem policy for debuggers.
BINS += tests/bench/procmem-bench
CHECKS += tests/bench/run

tests/bench/procmem-bench: tests/bench/procmem-bench.c
	$(CC) $(CFLAGS) -o $@ $<

# Boots stock and patched guests under QEMU -icount at each level (and
# 7.2's at its default: stock-7.2 is built for it alone) and
# regenerates docs/bench.md (a few minutes).
.PHONY: bench
bench: tests/bench/procmem-bench
	lab/build patched-default stock-7.2 upstream-7.2 patched-7.2 patched-default-7.2
	tests/bench/measure.sh
