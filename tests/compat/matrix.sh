#!/bin/sh
# make matrix: measure (all default configurations, or the IDs given) and
# regenerate docs/compat-matrix.{json,md,svg} from what was measured.
set -eu
tests/compat/run.sh "$@"
tests/compat/matrix.py generate
