# procmem's tests: status against a table of levels on the host and the
# lab kernels, scan, command line, man page, lint, install.
CHECKS += tests/procmem/check.sh
# JSON documents against those recorded before the move to json-c.
CHECKS += tests/procmem/json.sh
# procmem advise: lab scenarios with a permissive period, then
# the advice applied; a seccomp listener holder for them.
BINS += build/procmem/listener
build/procmem/listener: tests/procmem/listener.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
CHECKS += tests/procmem/advise.sh
