# Compatibility and attack matrix: real programs and attacks run
# in lab guests under every /proc/PID/mem level; see tests/compat/README.md.
COMPAT := build/compat
COMPAT_BINS := $(addprefix $(COMPAT)/,attack victim jit supervisor scantarget \
	gdbtarget threads wineserver payload.bin)
BINS += $(COMPAT_BINS)
CHECKS += tests/compat/run
DEMOS += tests/compat/show.sh

# Debuggees: PIE, unoptimised, with debug info.  The helpers shared with
# other tests are in tests/lib (threads: thread.c).
$(COMPAT)/gdbtarget: tests/compat/gdbtarget.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O0 -g -fPIE -pie -pthread -o $@ $<
$(COMPAT)/threads: tests/compat/threads.c tests/lib/thread.c tests/lib/thread.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O0 -g -fPIE -pie -pthread -Itests/lib -o $@ $(filter %.c,$^)
$(COMPAT)/payload.o: tests/compat/payload.S
	@mkdir -p $(@D)
	$(CC) -c -o $@ $<
$(COMPAT)/payload.bin: $(COMPAT)/payload.o
	objcopy -O binary -j .payload $< $@
	chmod 644 $@
$(COMPAT)/attack: tests/compat/attack.c tests/lib/scm.c tests/lib/scm.h $(COMPAT)/payload.o
	$(CC) $(CFLAGS) -Itests/lib -o $@ $(filter-out %.h,$^)

$(COMPAT)/supervisor: tests/compat/supervisor.c tests/lib/scm.c tests/lib/scm.h \
		tests/lib/seccomp.c tests/lib/seccomp.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib -o $@ $(filter %.c,$^)
$(COMPAT)/victim $(COMPAT)/jit $(COMPAT)/scantarget: $(COMPAT)/%: tests/compat/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
$(COMPAT)/wineserver: tests/compat/wineserver.c tests/lib/thread.c tests/lib/thread.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -Itests/lib -o $@ $(filter %.c,$^)

.PHONY: matrix
matrix: $(COMPAT_BINS)
	tests/compat/matrix.sh
