#!/bin/sh
# Write-path benchmark, run in the VM by tests/vm/bench.sh (make bench).
# Placeholder: replace with the real measurements (human output).
. /stm/tests/lib.sh
echo "STM bench placeholder: kernel $(uname -r), $(nproc) CPUs"
