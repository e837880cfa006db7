# shellcheck shell=sh disable=SC2034 # st is read by the driver that sources this
# TAP for every test driver and guest script (sourced: . tests/lib/tap.sh).
# Any "not ok" sets st, which the script exits with (exit $st).
#   TAP_PREFIX=TEXT      put before every description (a kernel's name, say)
#   TAP_NUMBER=0         print "ok - ..." unnumbered: a guest's part, which
#                        its driver numbers once every part is in
#   result STATUS DESC   one line for an exit status already had
#   ok DESC, not_ok DESC one line for a verdict already had
#   check DESC CMD...    one line for CMD's success; CMD's output passes
#   check_quiet DESC CMD...
#                        the same, CMD's output shown (as comments) only
#                        when it fails, and kept in $TAP_LOG if set
#   status_is DESC WANT CMD...
#                        CMD exits WANT; its output shown when not
#   is DESC GOT WANT [LOG]
#                        two strings equal ("(got 'X', want 'Y')" and LOG,
#                        as comments, when not)
#   plan                 the closing "1..N"
n=0 st=0
: "${TAP_PREFIX=}" "${TAP_NUMBER=1}"
result() {
	n=$((n + 1))
	_num=" $n"
	[ "$TAP_NUMBER" = 1 ] || _num=
	if [ "$1" -eq 0 ]; then
		echo "ok$_num - $TAP_PREFIX$2"
	else
		echo "not ok$_num - $TAP_PREFIX$2"
		st=1
	fi
}
ok() { result 0 "$*"; }
not_ok() { result 1 "$*"; }
check() {
	_d=$1
	shift
	_rc=0
	"$@" || _rc=$?
	result "$_rc" "$_d"
}
_tap_log() { if [ -n "${TAP_LOG:-}" ]; then echo "$TAP_LOG"; else mktemp "${TMPDIR:-/tmp}/tap.XXXXXX"; fi; }
_tap_unlog() { [ -n "${TAP_LOG:-}" ] || rm -f "$1"; }
check_quiet() {
	_d=$1
	shift
	_log=$(_tap_log)
	_rc=0
	"$@" >"$_log" 2>&1 || _rc=$?
	result "$_rc" "$_d"
	[ "$_rc" -eq 0 ] || sed 's/^/# /' "$_log"
	_tap_unlog "$_log"
}
status_is() {
	_d=$1 _want=$2
	shift 2
	_log=$(_tap_log)
	_rc=0
	"$@" >"$_log" 2>&1 || _rc=$?
	if [ "$_rc" -eq "$_want" ]; then
		result 0 "$_d"
	else
		result 1 "$_d (exit $_rc, want $_want)"
		sed 's/^/# /' "$_log"
	fi
	_tap_unlog "$_log"
}
is() {
	if [ "$2" = "$3" ]; then
		result 0 "$1"
	else
		result 1 "$1 (got '$2', want '$3')"
		[ -z "${4:-}" ] || sed 's/^/# /' "$4"
	fi
}
plan() { echo "1..$n"; }
