#!/bin/sh
# TAP checks of the lab on Debian's own binary kernels (lab/debian): the
# package is the one apt serves today, the guest runs that package's kernel
# and sees its /boot/config, loads its modules on demand, and passes the
# command's status back; a bad kernel name is refused, and so is a 7.x the
# archive no longer serves, in one line, leaving nothing in build/; the
# guest has every CPU lab/vm gave it (2).  One
# boot per kernel: Debian 12's 6.1 and 6.12 (the host's apt), Debian 13's,
# the newest 7.2 and trixie-backports' default (the lab's own apt state,
# lab/archive).  Then Debian 13's kernel on Debian 13's root (lab/vm
# --root trixie): its userland, a writable overlay that leaves the shared
# root as it was, the checkout at its path; and --root's usage errors.
set -eu
. tests/lib/tap.sh
mkdir -p build/results
out=build/results/lab-debian.out
echo "TAP version 13"
echo "1..$((5 * 8 + 4 + 7))"
# served PKG: PKG's version where lab/archive's suites serve it.
served() { lab/archive apt-cache show --no-all-versions "$1" | sed -n 's/^Version: //p'; }
# depends_image META VERSION: the linux-image-KVER that META=VERSION depends on.
depends_image() {
	lab/archive apt-cache show "$1=$2" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[0-9][^ ]*\).*/\1/p'
}
for k in debian-latest debian-7.2 debian-13 debian-6.12 debian-6.1; do
	case $k in
	debian-6.1) meta=linux-image-amd64 ;;
	debian-13) meta="trixie's linux-image-amd64" ;;
	debian-6.12) meta=linux-image-6.12-amd64 ;;
	debian-7.2) meta="the newest linux-image-7.2.*-amd64" ;;
	debian-latest) meta="trixie-backports' linux-image-amd64" ;;
	esac
	ok=0 dir=$(lab/debian $k 2>/dev/null) && ok=1
	result $((1 - ok)) "$k: lab/debian prepares it"
	# What the archive serves for it now, and what the lab recorded.
	case $k in
	debian-6.*)
		pkg=$(apt-cache depends "$meta" | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
		ver=$(apt-cache show --no-all-versions "$pkg" | sed -n 's/^Version: //p') ;;
	debian-7.2)
		# no 7.2 image newer than the one taken
		pkg=$(sed 's/ .*//' "$dir/VERSION") ver=$(served "$pkg")
		for p in $(lab/archive apt-cache pkgnames linux-image-7.2. | grep -E '^linux-image-7\.2\.[0-9]+\+deb[0-9]+-amd64$'); do
			dpkg --compare-versions "$(served "$p")" le "$ver" || pkg="$p (newer)"
		done ;;
	debian-latest | debian-13)
		suite=trixie-backports
		[ $k = debian-latest ] || suite=trixie
		v=$(lab/archive apt-cache madison linux-image-amd64 | awk -F' [|] ' -v s=" $suite/main " '$3 ~ s { print $2 }')
		pkg=$(depends_image linux-image-amd64 "$v")
		ver=$(lab/archive apt-cache madison "$pkg" | awk -F' [|] ' -v s=" $suite/main " '$3 ~ s { print $2 }') ;;
	esac
	ok=0
	[ "$(cat "$dir/VERSION")" = "$pkg $ver" ] && ok=1
	result $((1 - ok)) "$k: the lab runs $pkg $ver, $meta today"
	rc=0
	# shellcheck disable=SC2016 # expanded in the guest
	lab/vm --kernel $k -- sh -c '
		echo "release: $(uname -r)"
		echo "cpus: $(nproc)"
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
	is "$k: the guest has the 2 CPUs lab/vm gives it" "$(sed -n 's/^cpus: //p' $out)" 2
done
rc=0
lab/vm --kernel debian-5.10 -- true >$out 2>&1 || rc=$?
ok=0
[ $rc = 2 ] && grep -q "unknown Debian kernel 'debian-5.10'" $out && ok=1
result $((1 - ok)) "an unknown Debian kernel is refused with status 2"
# A 7.x that no suite serves (as a 7.2 will be once unstable and
# backports have moved on): one line, status 1, no half-prepared build/.
rc=0
lab/vm --kernel debian-7.9 -- true >$out 2>&1 || rc=$?
sed 's/^/# /' $out
is "a 7.x the archive does not serve is refused with status 1" "$rc" 1
ok=0
[ "$(wc -l <$out)" = 1 ] && grep -q "debian-7.9: the archive serves no such kernel" $out && ok=1
result $((1 - ok)) "... in one line saying so"
ok=0
[ -z "$(ls -d build/debian/debian-7.9* 2>/dev/null)" ] && ok=1
result $((1 - ok)) "... leaving nothing of it in build/debian"

rc=0
# shellcheck disable=SC2016 # expanded in the guest
lab/vm --kernel debian-13 --root trixie -- sh -c '
	echo "debian: $(cat /etc/debian_version)"
	echo "root: $(findmnt -no FSTYPE /)"
	touch /usr/lab-written && echo "written: /usr"
	test -f tests/lab/debian.sh && echo "checkout: $(pwd)"' >$out 2>&1 || rc=$?
sed 's/^/# /' $out
is "--root trixie: the guest's status comes back" "$rc" 0
check "--root trixie: Debian 13's userland (/etc/debian_version 13.N) on an overlay root" \
	sh -c "grep -Eq '^debian: 13\.[0-9]+$' $out && grep -qx 'root: overlay' $out"
check "--root trixie: the root is writable, the checkout is at its path" \
	sh -c "grep -qx 'written: /usr' $out && grep -qx 'checkout: $(pwd)' $out"
check "--root trixie: what the guest wrote is in neither the host's root nor lab/trixie's" \
	sh -c "test ! -e /usr/lab-written && test ! -e build/trixie/root/usr/lab-written"
rc=0
lab/vm --kernel patched --root trixie -- true >$out 2>&1 || rc=$?
ok=0
[ $rc = 2 ] && grep -q "^lab/vm: --root trixie boots Debian's kernels" $out && ok=1
result $((1 - ok)) "--root with a kernel of ours is refused with status 2"
rc=0
lab/vm --kernel=debian-13 --root=sid -- true >$out 2>&1 || rc=$?
ok=0
[ $rc = 2 ] && grep -q "^lab/vm: unknown root 'sid'" $out && ok=1
result $((1 - ok)) "an unknown --root is refused with status 2 (given as --root=sid)"
rc=0
lab/vm --kernel debian-13 --disk $out.img -- true >$out 2>&1 || rc=$?
ok=0
[ $rc = 2 ] && grep -q "^lab/vm: --disk and --systemd go with --root" $out && [ ! -e $out.img ] && ok=1
result $((1 - ok)) "--disk without --root is refused with status 2, no disk made"
exit $st
