#!/bin/sh
# make matrix: measure (every configuration with run=yes or run=matrix, or
# the IDs given) and regenerate docs/compat-matrix.{json,md,svg} from what
# was measured.
set -eu
[ $# -gt 0 ] || set -- --all
tests/compat/measure.sh "$@"
tests/compat/matrix.py generate
