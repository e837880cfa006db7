# procmem's tests: status against a table of levels on the host and the
# lab kernels, scan, command line, man page, lint, install.
CHECKS += tests/procmem/check.sh
