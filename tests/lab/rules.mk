# The lab runner's own behaviour.
CHECKS += tests/lab/runner.sh
