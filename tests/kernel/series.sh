#!/bin/sh
# The patch series: applies with patch -p1 to a fresh extract of Debian's
# linux-source-6.12, and every patch is clean under checkpatch --strict.
# (UNKNOWN_COMMIT_ID is ignored: the Debian source has no git history, so
# checkpatch cannot resolve any commit id, upstream ones included.)
set -eu
top=$(pwd)
fresh=$(mktemp -d /var/tmp/series.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
tar -C "$fresh" -xJf /usr/src/linux-source-6.12.tar.xz
src=$fresh/linux-source-6.12
n=0 st=0
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' kernel/patches/series); do
	n=$((n + 1))
	if patch -d "$src" -p1 -s -F0 --dry-run <"kernel/patches/$p" >/dev/null &&
		patch -d "$src" -p1 -s -F0 <"kernel/patches/$p"; then
		echo "ok $n - $p applies to a fresh extract"
	else
		echo "not ok $n - $p applies to a fresh extract"
		st=1
	fi
	n=$((n + 1))
	if out=$(cd "$src" && perl scripts/checkpatch.pl --strict --ignore UNKNOWN_COMMIT_ID \
		-q "$top/kernel/patches/$p" 2>&1) && [ -z "$out" ]; then
		echo "ok $n - $p is checkpatch --strict clean"
	else
		echo "not ok $n - $p is checkpatch --strict clean"
		echo "$out" | sed 's/^/# /'
		st=1
	fi
done
exit $st
