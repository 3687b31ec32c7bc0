#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The sink's reader side: one reader at a time (EBUSY), O_NONBLOCK gives
# EAGAIN, a reader blocked in read(), poll(), select() or epoll_wait()
# wakes when data is written, data written before the reader opened is
# delivered, every open starts with a sync, and reads are destructive.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
stack_load
sw_policy swstm.0.rd
sw_node swstm.0.rd a "4 4" "5 5"

tap_errno "O_NONBLOCK read of an empty sink: EAGAIN" EAGAIN swstm_read eagain
tap_errno "write-only open refused" EINVAL fsop open /dev/swstm.0-sink wo

# --- one reader at a time ----------------------------------------------------
rm -f $W/ready $W/stop
swstm_read hold -r $W/ready -g $W/stop -s 60 >$W/hold.out &
hpid=$!
sw_wait_file $W/ready
tap_errno "second reader: EBUSY" EBUSY swstm_read open
tap_errno "second reader, O_NONBLOCK too: EBUSY" EBUSY swstm_read eagain
touch $W/stop
wait $hpid
tap_eq "first reader closed cleanly" OK "$(cat $W/hold.out)"
tap_errno "open again after the first reader left" OK swstm_read open

# --- blocked readers wake up ----------------------------------------------------
for m in read poll select epoll; do
	rm -f $W/ready
	swstm_read block -m $m -r $W/ready -o $W/blk-$m.stp -s 600 >$W/blk.out &
	bpid=$!
	sw_wait_file $W/ready
	sleep 1
	if sw_running $bpid; then
		tap_ok "$m: reader waits while the sink is empty"
	else
		tap_fail "$m: reader waits while the sink is empty"
		tap_diag "$(cat $W/blk.out)"
	fi
	swstm_write -i a -t W -s 12 -n 1 >/dev/null
	wait_until 600 sw_gone $bpid
	if sw_running $bpid; then
		tap_fail "$m: a write wakes the reader"
		kill $bpid
	else
		tap_eq "$m: a write wakes the reader" OK "$(head -n 1 $W/blk.out)"
	fi
	wait $bpid
	# the rest of that message may still be in the sink
	swstm_read drain -N -o $W/blk-$m.stp >/dev/null
	sw_decode $W/blk-$m.stp $W/blk.json
	tap_check "$m: the reader got the message" \
		swstm_check msgs -m 4 -c 5 -t W -s 12 -n 1 $W/blk.json
done

# --- data written with no reader is kept for the next one -------------------------
tap_check "write 50 messages with no reader" swstm_write -i a -t B -s 8-100 -n 50
tap_check "write 50 more" swstm_write -i a -t B -s 8-100 -n 50 -f 50
sw_drain $W/late.stp >/dev/null
sw_decode $W/late.stp $W/late.json
tap_check "a late reader gets all of it" \
	swstm_check msgs -m 4 -c 5 -t B -s 8-100 -n 100 $W/late.json
tap_check "the stream starts with ASYNC, VERSION, FREQ" swstm_check sync $W/late.stp
tap_errno "reads are destructive: nothing left" EAGAIN swstm_read eagain

# --- every open starts with a sync; the encoder state starts afresh --------------
swstm_write -i a -t C -s 100 -n 3 >/dev/null
swstm_read drain -b 20 -o $W/part1.stp -N >/dev/null
swstm_write -i a -t C -s 100 -n 3 -f 3 >/dev/null
sw_drain $W/part2.stp >/dev/null
tap_check "second open starts with a sync" swstm_check sync $W/part2.stp
sw_decode $W/part2.stp $W/part2.json
tap_check "second open: master and channel sent again" \
	swstm_check msgs -m 4 -c 5 -t C -s 100 -n 3 -f 3 $W/part2.json
tap_eq "bytes_read counts both readers' bytes" \
	$(($(cat $W/*.stp | wc -c))) "$(sw_attr 0 bytes_read)"

sw_finish
exit 0
