# procmem's tests: status against a table of levels on the host and the
# lab kernels, scan, command line, man page, lint, install.
CHECKS += tests/procmem/run:check
# JSON documents against those recorded before the move to json-c.
CHECKS += tests/procmem/run:json
# procmem advise: lab scenarios with a permissive period, then
# the advice applied; a seccomp listener holder for them.
BINS += build/procmem/listener
build/procmem/listener: tests/procmem/listener.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
CHECKS += tests/procmem/run:advise
# The policy model (tools/procmem/policy.c) on the host: names, paths,
# overrides, scopes, hooks, the composed policy; no BPF, no VM.
BINS += build/procmem/policy-test
build/procmem/policy-test: tests/procmem/policy.c tools/procmem/policy.c \
		tools/procmem/procmem.h tools/procmem/bpf/enforcer.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools/procmem -o $@ tests/procmem/policy.c tools/procmem/policy.c
CHECKS += tests/procmem/run:policy
