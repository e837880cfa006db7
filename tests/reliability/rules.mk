# Reliability of the /proc/PID/mem policy: a debug kernel
# (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST, UBSAN) boots
# the conformance drivers, stress, bad input and a randomized differential
# test against a model of the policy; any kernel report fails the run.
REL := build/reliability
REL_BINS := $(REL)/difftest $(REL)/stress $(REL)/badinput
BINS += $(REL_BINS)
# First: with the matrix, the longest driver; tests/run starts the longest
# first when it has timed them, and on a fresh tree takes the order given.
CHECKS := tests/reliability/check $(CHECKS)
FLAVOURS += debug

$(REL)/difftest: tests/reliability/difftest.c tests/reliability/model.c tests/reliability/model.h \
		tests/lib/scm.c tests/lib/scm.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib -o $@ $(filter %.c,$^)
$(REL)/stress: tests/reliability/stress.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -o $@ $<
$(REL)/badinput: tests/reliability/badinput.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
