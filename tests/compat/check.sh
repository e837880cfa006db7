#!/bin/sh
# make check's driver: measure every default configuration (one guest boot
# each), then assert every cell against expected.tsv and the committed docs
# against the measurement.  TAP on stdout.
set -eu
tests/compat/run.sh
exec tests/compat/matrix.py check
