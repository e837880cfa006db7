# The one driver of a test directory whose checks are several parts:
# tests/DIR/run sets PARTS, words "NAME=COMMAND", and sources this file.
#   tests/DIR/run PART    runs that part
#   tests/DIR/run         runs every part in turn (exit 1 if any failed)
#   tests/DIR/run --list  prints the part names
# make check runs each part as a driver of its own (CHECKS +=
# tests/DIR/run:PART, tests/run), so that two run at a time; a part not
# in CHECKS is an error of tests/lab/demos.sh.
# shellcheck shell=sh
case ${1-} in
--list)
	for p in $PARTS; do echo "${p%%=*}"; done
	exit 0 ;;
"")
	st=0
	for p in $PARTS; do ${p#*=} || st=1; done
	exit $st ;;
esac
for p in $PARTS; do
	[ "${p%%=*}" != "$1" ] || exec ${p#*=}
done
echo "usage: $0 [--list | PART]: no part '$1' (parts: $(for p in $PARTS; do printf '%s ' "${p%%=*}"; done))" >&2
exit 2
