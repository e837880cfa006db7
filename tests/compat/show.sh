#!/bin/sh
# make demo: the committed compatibility matrix, summarised to fit a
# terminal (tests/compat/summary.py); the whole table is
# docs/compat-matrix.md and its picture docs/compat-matrix.svg.
set -eu
python3 tests/compat/summary.py docs/compat-matrix.json
