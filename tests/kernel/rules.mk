# The patch series itself: applies to a fresh source, checkpatch clean.
CHECKS += tests/kernel/series.sh
# The series' own kselftest (tools/testing/selftests/proc/proc-mem-policy),
# built by the selftests' Makefile of the patched tree into build/kselftest/
# and run on the stock, patched and debug kernels, walking every level once.
CHECKS += tests/kernel/kselftest.sh
