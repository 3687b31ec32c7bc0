#!/bin/bash
# make bench (VM part): boot the VM and run tests/guest/bench.sh, which
# prints the write-path figures. Settings: tests/vm/env.sh.
exec "$(dirname "$0")/run-plain.sh" bench
