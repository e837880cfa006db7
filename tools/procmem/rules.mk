# procmem: which /proc/PID/mem policy is in force (tools/procmem/README.md),
# and its BPF LSM enforcer (tools/procmem/bpf/): the BPF object is built
# with clang for the BPF target, CO-RE against the hand-written
# bpf/vmlinux.h (no kernel's BTF needed at build time), and embedded in
# procmem as a bpftool-generated skeleton; procmem links libbpf, and
# json-c for the JSON it reads (the matrix, records) and prints.
# Its directory: build/procmem, or a cross build's own (tests/arm64:
# make PROCMEM_DIR=build/arm64/procmem CC=aarch64-linux-gnu-gcc).
PROCMEM_DIR  := build/procmem
PROCMEM      := $(PROCMEM_DIR)/procmem
PROCMEM_SRCS := $(wildcard tools/procmem/*.c)
# The one place the version is set: tools/procmem/VERSION (procmem --version).
PROCMEM_VERSION := $(shell cat tools/procmem/VERSION)
BPF_CLANG    ?= clang
BPFTOOL      ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
# The objects are built for the machine procmem is built for: CC's, which
# is uname's unless CC is a cross compiler (aarch64-linux-gnu-gcc: arm64).
# No build path in the objects (lintian: file-references-package-build-path).
PROCMEM_TRIPLET := $(shell $(CC) -dumpmachine)
BPF_ARCH     := $(shell echo '$(PROCMEM_TRIPLET)' | sed 's/-.*//;s/^x86_64$$/x86/;s/^i[3-6]86$$/x86/;s/^aarch64$$/arm64/')
BPF_CFLAGS   := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
	-I/usr/include/$(PROCMEM_TRIPLET) -ffile-prefix-map=$(CURDIR)=. \
	-Wall -Wextra -Wno-unused-parameter -Werror
BINS += $(PROCMEM)

# One source, two objects: enforcer_cast (kernels with the bpf_rdonly_cast
# kfunc, 6.2 and later: no bpf_probe_read anywhere, so lockdown=
# confidentiality loads it) and enforcer_read (6.1: bpf_probe_read_kernel);
# procmem picks one.
PROCMEM_BPF_SRCS := tools/procmem/bpf/enforcer.bpf.c tools/procmem/bpf/vmlinux.h \
	tools/procmem/bpf/enforcer.h
$(PROCMEM_DIR)/enforcer_cast.bpf.o: BPF_VARIANT := -DPM_RDONLY_CAST
$(PROCMEM_DIR)/enforcer_cast.bpf.o $(PROCMEM_DIR)/enforcer_read.bpf.o: $(PROCMEM_BPF_SRCS)
	@mkdir -p $(@D)
	$(BPF_CLANG) $(BPF_CFLAGS) $(BPF_VARIANT) -c $< -o $@.tmp
	$(BPFTOOL) gen object $@ $@.tmp
	rm -f $@.tmp

$(PROCMEM_DIR)/%.skel.h: $(PROCMEM_DIR)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp
	mv $@.tmp $@

PROCMEM_SKELS := $(PROCMEM_DIR)/enforcer_cast.skel.h $(PROCMEM_DIR)/enforcer_read.skel.h
$(PROCMEM): $(PROCMEM_SRCS) tools/procmem/procmem.h tools/procmem/bpf/enforcer.h \
		tools/procmem/VERSION $(PROCMEM_SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DPROCMEM_VERSION='"$(PROCMEM_VERSION)"' -I$(PROCMEM_DIR) -o $@ \
		$(PROCMEM_SRCS) -lbpf -ljson-c

# procmem advise reads the compatibility matrix as data, from
# PREFIX/share/procmem next to PREFIX/bin (or docs/ in the build tree).
# The systemd unit applies SYSCONFDIR/procmem/enforce.conf at boot; an
# existing configuration is kept.  procmem-metrics.timer writes
# TEXTFILEDIR/procmem.prom each minute where that directory exists.
SYSCONFDIR  ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
BINDIR      ?= $(PREFIX)/bin
UNITDIR     ?= $(PREFIX)/lib/systemd/system
TEXTFILEDIR ?= /var/lib/prometheus/node-exporter
# The units, the completion and the conffile's source: tools/procmem/dist/.
PROCMEM_DIST  := tools/procmem/dist
PROCMEM_UNITS := procmem-enforce.service procmem-metrics.service procmem-metrics.timer
install: $(PROCMEM)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/procmem \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0755 $(PROCMEM) $(DESTDIR)$(BINDIR)/procmem
	install -m 0644 tools/procmem/procmem.1 $(DESTDIR)$(PREFIX)/share/man/man1/procmem.1
	install -d $(DESTDIR)$(PREFIX)/share/procmem
	install -m 0644 docs/compat-matrix.json $(DESTDIR)$(PREFIX)/share/procmem/compat-matrix.json
	for u in $(PROCMEM_UNITS); do \
		sed 's|@BINDIR@|$(BINDIR)|g; s|@SYSCONFDIR@|$(SYSCONFDIR)|g; s|@TEXTFILEDIR@|$(TEXTFILEDIR)|g' \
			$(PROCMEM_DIST)/$$u >$(DESTDIR)$(UNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit; \
	done
	install -m 0644 $(PROCMEM_DIST)/procmem.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/procmem
	[ -e $(DESTDIR)$(SYSCONFDIR)/procmem/enforce.conf ] || \
		install -m 0644 $(PROCMEM_DIST)/enforce.conf $(DESTDIR)$(SYSCONFDIR)/procmem/enforce.conf
