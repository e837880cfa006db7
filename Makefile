# procmem: /proc/PID/mem policy for Linux 7.2, 6.12 and 6.1, its lab, tests and tools.
#
#   make demo     build the kernels, boot each level, print the matrices
#   make check    build everything and run every test (ends "N passed, M failed")
#   make install  install the procmem tool (PREFIX=/usr/local)
#
# Each component lists its binaries in BINS, its test drivers in CHECKS,
# its demos in DEMOS and the kernel flavours its checks need in FLAVOURS,
# in a rules.mk of its own directory; tests/run runs CHECKS in order.
# make demo builds only the flavours the demos boot, DEMO_FLAVOURS (the
# debug kernel, for instance, serves make check alone); Debian's own
# kernels (lab/debian) are fetched on first use by either.

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
PREFIX  ?= /usr/local
# The kselftest harness the test binaries compile against comes from one
# source tree, 6.12's (lab/build src); the same binaries run on every kernel.
KSRC    := build/src/linux-source-6.12
KSELFTEST := $(KSRC)/tools/testing/selftests

# upstream before patched: lab/build leaves the tree with the full series.
# stock, upstream, patched are 6.12 (lab/build); the 6.1 and 7.2 flavours
# are added by the rules.mk of the tests that boot them.
FLAVOURS := stock upstream patched
DEMO_FLAVOURS := upstream-7.2 stock patched
BINS   :=
CHECKS :=
DEMOS  :=
include $(sort $(wildcard lab/rules.mk tools/*/rules.mk tests/*/rules.mk))

.PHONY: all deps kernels check demo install clean
all: $(BINS)

deps:
	@lab/deps

# lab/build is incremental (make and ccache underneath): always ask it.
kernels: deps
	lab/build $(FLAVOURS)

$(KSELFTEST)/kselftest_harness.h:
	lab/build src

check: deps kernels $(BINS)
	@DEMOS='$(DEMOS)' CHECKS='$(CHECKS)' tests/run $(CHECKS)

demo: deps $(BINS)
	lab/build $(DEMO_FLAVOURS)
	@for d in $(DEMOS); do $$d || exit; done

clean:
	rm -f $(BINS)
