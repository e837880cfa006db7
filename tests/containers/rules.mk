# procmem enforce on real podman containers in Debian 13's root booted
# with systemd, on Debian 13's kernel and Debian's 7.2 (tests/containers/run).
CHECKS += tests/containers/run
