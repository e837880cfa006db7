# The lab runner's own behaviour.
CHECKS += tests/lab/runner.sh
# The lab on Debian's own binary kernels (lab/debian).
CHECKS += tests/lab/debian.sh
# Every step of make demo is there to run.
CHECKS += tests/lab/demos.sh
# make demo's enforcer step, run and its output checked.
CHECKS += tests/lab/demo-enforce.sh
# The guest kernels' .config as built: what kernel/config/ asks for is in it.
CHECKS += tests/lab/config.sh
