# The patch series itself: applies to a fresh source, checkpatch clean.
CHECKS += tests/kernel/run:series
# The series' own kselftest (tools/testing/selftests/proc/proc-mem-policy),
# built by the selftests' Makefile of the patched tree into build/kselftest/
# and run on the stock, patched and debug kernels, walking every level once.
CHECKS += tests/kernel/run:kselftest
# The upstream submission alone on 6.12 (7.2's: tests/kernel/linux-7.2) on
# the upstream kernel, its selftests and the force rows, and where stock
# fails them.
CHECKS += tests/kernel/run:upstream
# The 6.1 series on running kernels: conformance (with Debian's own 6.1
# binary beside our stock-6.1) and the kselftest built from the 6.1 tree.
CHECKS += tests/kernel/run:linux-6.1
FLAVOURS += stock-6.1 patched-6.1
# The corner-case kselftest (patch 0011) on the patched 6.12 kernel and
# Debian's own 6.12 (io_uring, Yama).
CHECKS += tests/kernel/run:corners
# The 7.2 series on running kernels: conformance on patched-7.2 and
# Debian's own 7.2 binary (its stock, at the ptrace default of 7.1), the
# kselftests from the 7.2 tree, and the upstream submission alone on
# upstream-7.2 at every force level.
CHECKS += tests/kernel/run:linux-7.2
FLAVOURS += upstream-7.2 patched-7.2
# The series built as a distribution builds it by default
# (CONFIG_PROC_MEM_SYSCTL=n), on 6.12 and 7.2: stock's path at the
# Kconfig defaults ("always"; on 7.2 force at "ptrace"), the policy's once
# a boot parameter raises a level.
CHECKS += tests/kernel/run:default-build
FLAVOURS += patched-default patched-default-7.2
