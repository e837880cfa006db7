# procmem on arm64 (tests/arm64/run): procmem and mem_conformance
# cross-built in the Debian 13 root (lab/trixie), the enforcer held to
# the conformance table on Debian 13's arm64 kernel under
# qemu-system-aarch64 (lab/arm64).  make check-arm64 runs it alone.
CHECKS += tests/arm64/run

.PHONY: check-arm64
check-arm64: deps $(KSELFTEST)/kselftest_harness.h
	@tests/run tests/arm64/run
