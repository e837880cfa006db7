# procmem: which /proc/PID/mem policy is in force (tools/procmem/README.md).
PROCMEM      := build/procmem/procmem
PROCMEM_SRCS := $(wildcard tools/procmem/*.c)
BINS += $(PROCMEM)

$(PROCMEM): $(PROCMEM_SRCS) tools/procmem/procmem.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(PROCMEM_SRCS)

install: $(PROCMEM)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(PROCMEM) $(DESTDIR)$(PREFIX)/bin/procmem
	install -m 0644 tools/procmem/procmem.1 $(DESTDIR)$(PREFIX)/share/man/man1/procmem.1

DEMOS += tools/procmem/demo.sh
