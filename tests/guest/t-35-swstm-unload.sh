#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unloading swstm while it is in use fails cleanly (the class char
# device's and the sink's open files hold the module), also while
# writers and a reader are busy; once they are gone it unloads, and the
# kernel log stays clean.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
stack_load sink_size=65536
sw_policy swstm.0.ul
sw_node swstm.0.ul w "1 1" "0 15"

# the in-use refusal is EAGAIN (EWOULDBLOCK) from delete_module(O_NONBLOCK)
rm -f $W/ready $W/go
swstm_write -i w -n 1 -r $W/ready -g $W/go >/dev/null &
wpid=$!
sw_wait_file $W/ready
tap_errno "rmmod while a writer holds /dev/swstm.0: refused" EAGAIN modop rm swstm
touch $W/go
wait $wpid

rm -f $W/ready $W/stop
swstm_read hold -r $W/ready -g $W/stop >/dev/null &
hpid=$!
sw_wait_file $W/ready
tap_errno "rmmod while a reader holds the sink: refused" EAGAIN modop rm swstm
touch $W/stop
wait $hpid

# busy: two writers on both CPUs and a reader
ncpu=$(grep -c ^processor /proc/cpuinfo)
rm -f $W/go $W/ra $W/rb
sw_reader /dev/null
swstm_write -i w -t A -s 8-300 -n 300000 -c 0 -r $W/ra -g $W/go >$W/a.out &
apid=$!
swstm_write -i w -t B -s 8-300 -n 300000 -c $((ncpu > 1 ? 1 : 0)) -r $W/rb -g $W/go >$W/b.out &
bpid=$!
sw_wait_file $W/ra && sw_wait_file $W/rb
touch $W/go
sleep 0.1
tap_check "writers running" sw_running $apid
tap_errno "rmmod while writers and a reader run: refused" EAGAIN modop rm swstm
tap_check "swstm still loaded" mod_loaded swstm
tap_check "the sink still works" test -c /dev/swstm.0-sink
wait $apid $bpid
sw_reader_stop
tap_eq "the writers finished" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
# upstream's class (6.12) pins swstm while a policy is bound to swstm.0
! stm_class_upstream || policies_remove
tap_errno "rmmod once they are gone" OK modop rm swstm
tap_fails "swstm unloaded" mod_loaded swstm
tap_fails "its devices are gone" test -e /dev/swstm.0 -o -e /dev/swstm.0-sink

# load and unload again with data left in the sink (freed, no leak)
tap_check "reload" mod_load swstm
swstm_write -t A -s 100 -n 10 >/dev/null 2>&1 || true
tap_errno "unload with data in the sink" OK modop rm swstm

sw_finish
exit 0
