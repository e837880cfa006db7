#!/bin/sh
# TAP: procmem's policy model on the host (tests/procmem/policy.c, built
# by make as build/procmem/policy-test): no BPF, no VM.
cd "$(dirname "$0")/../.." || exit 2
t=build/procmem/policy-test
[ -x $t ] || { echo "not ok 1 - $t is not built (make $t)"; exit 1; }
exec $t
