# The BPF LSM enforcer (procmem enforce) against the conformance table on
# Debian's 6.1 and 6.12 kernels (tests/enforcer/run).
ENFORCER_HELPER := build/tests/enforcer_helper
BINS   += $(ENFORCER_HELPER)
CHECKS += tests/enforcer/run

$(ENFORCER_HELPER): tests/enforcer/helper.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< -lpthread
