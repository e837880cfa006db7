# The BPF LSM enforcer (procmem enforce) against the conformance table on
# Debian's 6.1 and 6.12 kernels (tests/enforcer/run).
CHECKS += tests/enforcer/run
