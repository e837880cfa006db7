#!/bin/sh
# make demo: print the committed compatibility matrix.
set -eu
sed -n '/^| program or attack/,/^$/p' docs/compat-matrix.md
