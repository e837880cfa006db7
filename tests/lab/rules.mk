# The lab runner's own behaviour.
CHECKS += tests/lab/run:runner
# The lab on Debian's own binary kernels (lab/debian).
CHECKS += tests/lab/run:debian
# Every step of make demo is there to run.
CHECKS += tests/lab/run:demos
# make demo's enforcer step, run and its output checked.
CHECKS += tests/lab/run:demo-enforce
# The guest kernels' .config as built: what kernel/config/ asks for is in it.
CHECKS += tests/lab/run:config
# make demo's procmem steps: status's table in lab guests under a few
# policies, and the BPF LSM enforcer on Debian's own 6.12 kernel.
DEMOS += tests/lab/demo-status.sh tests/lab/demo-enforcer.sh
