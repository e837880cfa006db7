# The BPF LSM enforcer (procmem enforce) against the conformance table on
# Debian's 6.1, 6.12, 7.2 and latest (7.3) kernels (tests/enforcer/run).
# tests/enforcer/bench also loads build/tests/floor.bpf.o, empty programs on
# the enforcer's hooks: the cost any BPF LSM enforcer pays.
ENFORCER_HELPER := build/tests/enforcer_helper
ENFORCER_FLOOR  := build/tests/floor.bpf.o
BINS   += $(ENFORCER_HELPER) $(ENFORCER_FLOOR)
CHECKS += tests/enforcer/run

# The helpers shared with other tests: tests/lib.
$(ENFORCER_HELPER): tests/enforcer/helper.c tools/procmem/bpf/enforcer.h \
		tests/lib/sysctl.c tests/lib/sysctl.h tests/lib/thread.c tests/lib/thread.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools/procmem/bpf -Itests/lib -o $@ $(filter %.c,$^) -lpthread -lbpf

$(ENFORCER_FLOOR): tests/enforcer/floor.bpf.c tools/procmem/bpf/vmlinux.h
	@mkdir -p $(@D)
	$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
		-I/usr/include/$(shell $(CC) -dumpmachine) -Itools/procmem/bpf \
		-Wall -Wextra -Wno-unused-parameter -Werror -c $< -o $@
