#!/bin/sh
# The patch series, one per kernel version (kernel/patches/6.12, 6.1):
# each applies with patch -p1 to a fresh extract of Debian's
# linux-source-VERSION, and every patch is clean under checkpatch --strict
# of that version.
# Ignored, each for a reason checked or stated here:
# - UNKNOWN_COMMIT_ID: the Debian source has no git history, so checkpatch
#   cannot resolve any commit id, upstream ones included;
# - FILE_PATH_CHANGES ("does MAINTAINERS need updating?"), given for every
#   new file: instead, each file the series creates must have a MAINTAINERS
#   entry that sends it to linux-fsdevel (get_maintainer.pl, at the end);
# - in include/trace/events/ only, OPEN_ENDED_LINE and PARENTHESIS_ALIGNMENT:
#   the TRACE_EVENT() layout that every header there uses.
set -eu
top=$(pwd)
fresh=$(mktemp -d /var/tmp/series.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
n=0 st=0
for ver in 6.12 6.1; do
	dir=kernel/patches/$ver
	tar -C "$fresh" -xJf "/usr/src/linux-source-$ver.tar.xz"
	src=$fresh/linux-source-$ver
	for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series"); do
		n=$((n + 1))
		if patch -d "$src" -p1 -s -F0 --dry-run <"$dir/$p" >/dev/null &&
			patch -d "$src" -p1 -s -F0 <"$dir/$p"; then
			echo "ok $n - $ver/$p applies to a fresh extract"
		else
			echo "not ok $n - $ver/$p applies to a fresh extract"
			st=1
		fi
		n=$((n + 1))
		ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
		grep -q '^+++ b/include/trace/events/' "$dir/$p" &&
			ignore=$ignore,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT
		if out=$(cd "$src" && perl scripts/checkpatch.pl --strict --ignore "$ignore" \
			-q "$top/$dir/$p" 2>&1) && [ -z "$out" ]; then
			echo "ok $n - $ver/$p is checkpatch --strict clean"
		else
			echo "not ok $n - $ver/$p is checkpatch --strict clean"
			echo "$out" | sed 's/^/# /'
			st=1
		fi
	done
	for f in $(sed -n 's/^ create mode [0-7]* //p' "$dir"/0*.patch | sort -u); do
		n=$((n + 1))
		if (cd "$src" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
			-f "$f" 2>/dev/null) | grep -q linux-fsdevel; then
			echo "ok $n - $ver: MAINTAINERS sends $f to linux-fsdevel"
		else
			echo "not ok $n - $ver: MAINTAINERS sends $f to linux-fsdevel"
			st=1
		fi
	done
	rm -rf "$src"
done
exit $st
