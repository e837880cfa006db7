# Reliability of the /proc/PID/mem policy: a debug kernel
# (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST, UBSAN) boots
# the conformance drivers, stress, bad input and a randomized differential
# test against a model of the policy; any kernel report fails the run.
REL := build/reliability
REL_BINS := $(REL)/difftest $(REL)/stress $(REL)/badinput $(REL)/model_table
BINS += $(REL_BINS)
# First: with the matrix, the longest driver; tests/run starts the longest
# first when it has timed them, and on a fresh tree takes the order given.
# The model against every cell of the conformance table: on the host, a
# second.
CHECKS := tests/reliability/run:check $(CHECKS) tests/reliability/run:model
FLAVOURS += debug

# TAP through the kernel's kselftest.h (-isystem: not -Wextra clean), as
# the conformance tests print it; the helpers shared with them: tests/lib.
$(REL)/difftest: tests/reliability/difftest.c tests/reliability/model.c tests/reliability/model.h \
		tests/lib/scm.c tests/lib/scm.h tests/lib/denials.c tests/lib/denials.h \
		tests/lib/sysctl.c tests/lib/sysctl.h $(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)
$(REL)/stress: tests/reliability/stress.c tests/lib/sysctl.c tests/lib/sysctl.h \
		$(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)
$(REL)/badinput: tests/reliability/badinput.c tests/lib/sysctl.c tests/lib/sysctl.h \
		$(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)
$(REL)/model_table: tests/reliability/model_table.c tests/reliability/model.c \
		tests/reliability/model.h tests/conformance/expect.h $(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -isystem $(KSELFTEST) -Itests/conformance -Itests/reliability \
		-o $@ $(filter %.c,$^)
