# Conformance of /proc/PID/mem to the policy table, on stock and patched
# kernels.  Built against the kernel's own kselftest harness.
CONFORMANCE := build/tests/mem_conformance
BINS   += $(CONFORMANCE)
CHECKS += tests/conformance/run
DEMOS  += tests/conformance/demo

# The harness uses GNU C (typeof, statement expressions) and is not
# -Wextra clean: include it as a system header.
# The deputy accessor passes fds with the shared SCM_RIGHTS helper, the
# counters are read by the shared reader (tests/lib).
# The table is tests/conformance/expect.h (tests/reliability/model_table.c
# includes it too).
$(CONFORMANCE): tests/conformance/mem_conformance.c tests/conformance/expect.h \
		tests/lib/scm.c tests/lib/scm.h tests/lib/denials.c tests/lib/denials.h \
		tests/lib/sysctl.c tests/lib/sysctl.h $(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=gnu11 -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)

# gdb's target: no optimisation, so the breakpoint and the const stay.
GDB_TARGET := build/tests/gdb_target
BINS += $(GDB_TARGET)
$(GDB_TARGET): tests/conformance/gdb_target.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O0 -g -fPIE -pie -o $@ $<

SYSCTL_WRITE := build/tests/sysctl_write
BINS += $(SYSCTL_WRITE)
$(SYSCTL_WRITE): tests/conformance/sysctl_write.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# counting and deny_event print TAP through the kernel's kselftest.h, as
# the harness does (-isystem: not -Wextra clean).
# Exact counting: tests/conformance/counting.c
COUNTING := build/tests/counting
BINS += $(COUNTING)
$(COUNTING): tests/conformance/counting.c tests/lib/denials.c tests/lib/denials.h \
		tests/lib/sysctl.c tests/lib/sysctl.h $(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)

# The tracepoint and the log line
DENY_EVENT := build/tests/deny_event
BINS += $(DENY_EVENT)
$(DENY_EVENT): tests/conformance/deny_event.c tests/conformance/expect.h \
		tests/lib/sysctl.c tests/lib/sysctl.h $(KSELFTEST)/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -isystem $(KSELFTEST) -Itests/lib -o $@ $(filter %.c,$^)
