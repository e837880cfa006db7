#!/bin/sh
# TAP checks of the guest kernels' configuration as built, not as asked
# for: merge_config drops a fragment's symbol whose dependencies are unmet,
# silently, so lab/build fails a flavour whose .config lacks one
# (lab/checkconfig).  Here: the debug kernel has the checkers the
# reliability suite relies on, lab/checkconfig passes it, fails a config
# that lacks what a fragment asks for and skips a symbol the tree does not
# define.  No guest is booted.
set -eu
. tests/lib/tap.sh
src=build/src/linux-source-6.12 conf=kernel/config
out=build/results/lab-config.out
mkdir -p build/results
echo "TAP version 13"
for opt in PREEMPT_RT PROVE_LOCKING KASAN DEBUG_ATOMIC_SLEEP; do
	check "the debug kernel's .config has CONFIG_$opt=y" grep -qx "CONFIG_$opt=y" build/kernels/debug/config
done
check_quiet "lab/checkconfig: the debug kernel has all that guest.config and debug.config ask for" \
	lab/checkconfig $src build/kernels/debug/config $conf/guest.config $conf/debug.config
rc=0
lab/checkconfig $src build/kernels/stock/config $conf/debug.config >$out 2>&1 || rc=$?
ok=0
[ $rc = 1 ] && grep -q 'want CONFIG_KASAN=y, have it unset$' $out && grep -q 'want CONFIG_PREEMPT_NONE=n, have y$' $out && ok=1
result $((1 - ok)) "lab/checkconfig fails the stock kernel's .config against debug.config, naming KASAN and PREEMPT_NONE"
[ $ok = 1 ] || sed 's/^/# /' $out
printf 'CONFIG_PROCMEM_NO_SUCH_SYMBOL=y\n' >$out.frag
check_quiet "lab/checkconfig skips a symbol the tree's Kconfig does not define" \
	lab/checkconfig $src build/kernels/stock/config $out.frag
rm -f $out.frag
plan
exit $st
