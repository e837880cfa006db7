# The lab runner's own behaviour.
CHECKS += tests/lab/runner.sh
# Every step of make demo is there to run.
CHECKS += tests/lab/demos.sh
