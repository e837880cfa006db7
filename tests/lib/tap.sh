# shellcheck shell=sh disable=SC2034 # st is read by the driver that sources this
# TAP for the test drivers (sourced: . tests/lib/tap.sh).
# Each line is numbered from 1 in the driver's run; any "not ok" sets st,
# which the driver exits with (exit $st).
#   check DESCRIPTION COMMAND...   one line for COMMAND's success
#   result STATUS DESCRIPTION      one line for an exit status already had
n=0 st=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		st=1
	fi
}
check() {
	_d=$1
	shift
	_rc=0
	"$@" || _rc=$?
	result "$_rc" "$_d"
}
