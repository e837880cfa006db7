# The lab (lab/): make demo shows gdb on Debian's own 7.2 and on 7.2 with the
# upstream part first (the news), then procmem status on Debian's own kernels.
DEMOS += lab/demo-7.2 lab/demo-debian
