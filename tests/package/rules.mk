# The Debian package (debian/: dpkg-buildpackage, lintian, installed and
# purged in a guest of Debian's 6.12) and procmem metrics (promtool on the
# host, the patched kernel and under the enforcer): tests/package/run.
CHECKS += tests/package/run
