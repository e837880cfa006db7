# The patch series itself: applies to a fresh source, checkpatch clean.
CHECKS += tests/kernel/series.sh
