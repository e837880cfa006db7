#!/bin/sh
# TAP checks of the lab on Debian's own binary kernels (lab/debian): the
# package is the one apt serves today, the guest runs that package's kernel
# and sees its /boot/config, loads its modules on demand, and passes the
# command's status back; a bad kernel name is refused.  One boot per kernel.
set -eu
. tests/lib/tap.sh
mkdir -p build/results
out=build/results/lab-debian.out
echo "TAP version 13"
echo "1..15"
for k in debian-6.12 debian-6.1; do
	case $k in
	debian-6.1) meta=linux-image-amd64 ;;
	debian-6.12) meta=linux-image-6.12-amd64 ;;
	esac
	ok=0 dir=$(lab/debian $k 2>/dev/null) && ok=1
	result $((1 - ok)) "$k: lab/debian prepares it"
	# What apt serves for the metapackage now, and what the lab recorded.
	pkg=$(apt-cache depends "$meta" | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
	ver=$(apt-cache show --no-all-versions "$pkg" | sed -n 's/^Version: //p')
	ok=0
	[ "$(cat "$dir/VERSION")" = "$pkg $ver" ] && ok=1
	result $((1 - ok)) "$k: the lab runs $pkg $ver, what $meta depends on today"
	rc=0
	# shellcheck disable=SC2016 # expanded in the guest
	lab/vm --kernel $k -- sh -c '
		echo "release: $(uname -r)"
		test -s "/boot/config-$(uname -r)" && echo "config: $(grep -c ^CONFIG_ "/boot/config-$(uname -r)")"
		mkdir /tmp/iso && mount -t iso9660 /dev/null /tmp/iso 2>/dev/null
		grep -qw iso9660 /proc/filesystems && echo "autoload: iso9660"
		exit 42' >$out 2>&1 || rc=$?
	sed 's/^/# /' $out
	ok=0
	[ $rc = 42 ] && ok=1
	result $((1 - ok)) "$k: the guest's exit status 42 comes back"
	ok=0
	rel=$(sed -n 's/^release: //p' $out)
	[ "linux-image-$rel" = "$pkg" ] && ok=1
	result $((1 - ok)) "$k: the guest runs the package's kernel (uname -r is $rel)"
	ok=0
	grep -q "^lab/debian: $k is $pkg $ver " $out && ok=1
	result $((1 - ok)) "$k: lab/vm says which package and version it boots"
	ok=0
	r=$(cat "$dir/release")
	[ "$(sed -n 's/^config: //p' $out)" = "$(grep -c ^CONFIG_ "$dir/root/boot/config-$r")" ] && ok=1
	result $((1 - ok)) "$k: the guest sees the package's /boot/config-$r"
	ok=0
	grep -q '^autoload: iso9660$' $out && ok=1
	result $((1 - ok)) "$k: the guest loads a module on demand from the package (isofs)"
done
rc=0
lab/vm --kernel debian-5.10 -- true >$out 2>&1 || rc=$?
ok=0
[ $rc = 2 ] && grep -q "unknown Debian kernel 'debian-5.10'" $out && ok=1
result $((1 - ok)) "an unknown Debian kernel is refused with status 2"
exit $st
