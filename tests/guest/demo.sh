#!/bin/sh
# Demo trace session, run in the VM by tests/vm/demo.sh (make demo).
# Placeholder: prints what a person sees; replace with the real session.
# Human output (not TAP); the exit status is reported on the host.
. /stm/tests/lib.sh
echo "STM demo placeholder: kernel $(uname -r)"
echo "modules available: $(ls /stm/modules)"
echo "tools available: $(ls /stm/bin | tr '\n' ' ')"
