# The lab (lab/): make demo shows procmem status on Debian's own kernels.
DEMOS += lab/demo-debian
