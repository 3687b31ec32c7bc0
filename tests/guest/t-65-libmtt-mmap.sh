#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libmtt's mmap output: on dummy_stm with a page of MMIO per channel
# (mmiosz=4096), 4 threads each get their channel's window mapped and
# find in it, byte for byte, every frame libmtt would have written
# (libmtt_mmap reads its own mapping back); MTT_IO=write maps nothing.
# With 64-byte channels (stimulus-port sized) the one-channel map is
# refused: auto writes, MTT_IO=mmap fails.  On swstm (no MMIO) auto
# falls back to write(2) and mttdecode finds every frame; MTT_IO=mmap
# fails there.  Needs no kernel mtt module.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
T=4
OK="OK mapped=$T sent=$((3 * T))"
WROTE="OK mapped=0 sent=$((3 * T))"
stack_load || tap_fail "load the stack"

# --- dummy_stm with MMIO (our test aid; upstream's has no mmiosz) --------------
if stm_class_upstream; then
	tap_skip "libmtt mmap on dummy_stm" \
		"upstream's dummy_stm has no mmiosz (our test aid)"
else
	for sz in 4096 64; do
		mod_load dummy_stm nr_dummies=1 master_min=0 master_max=0 \
			nr_channels=16 mmiosz=$sz || tap_fail "load dummy_stm mmiosz=$sz"
		sw_policy dummy_stm.0.mm
		sw_node dummy_stm.0.mm mmcomp "0 0" "0 15"
		if [ $sz = 4096 ]; then
			tap_eq "mmiosz=4096: each thread's window holds its frames" \
				"$OK" "$(libmtt_mmap dummy_stm.0 mmcomp $T)"
			tap_eq "mmiosz=4096, MTT_IO=mmap: the same" \
				"$OK" "$(MTT_IO=mmap libmtt_mmap dummy_stm.0 mmcomp $T)"
		else
			tap_eq "mmiosz=64: a one-channel page is refused, auto writes" \
				"$WROTE" "$(libmtt_mmap dummy_stm.0 mmcomp $T)"
			tap_eq "mmiosz=64, MTT_IO=mmap: the trace fails" \
				"FAIL thread 0: mtt_trace" \
				"$(MTT_IO=mmap libmtt_mmap dummy_stm.0 mmcomp $T)"
		fi
		tap_eq "mmiosz=$sz, MTT_IO=write: nothing mapped, all written" \
			"$WROTE" "$(MTT_IO=write libmtt_mmap dummy_stm.0 mmcomp $T)"
		sw_policy_rm
		mod_unload dummy_stm
	done
fi

# --- swstm: no MMIO, write(2), decoded ----------------------------------------
sw_policy swstm.0.mm
sw_node swstm.0.mm mmcomp "4 4" "0 15"
tap_eq "swstm, MTT_IO=mmap: the trace fails" "FAIL thread 0: mtt_trace" \
	"$(MTT_IO=mmap libmtt_mmap swstm.0 mmcomp $T)"
sw_drain $W/none.stp >/dev/null
tap_eq "swstm, auto: written" "$WROTE" "$(libmtt_mmap swstm.0 mmcomp $T)"
sw_drain $W/auto.stp >/dev/null
tap_check "mttdecode the capture" sh -c "mttdecode --format json $W/auto.stp >$W/auto.json"
tap_eq "every frame decoded: META, value, print, blob per thread; no message or loss besides" \
	"META=$T TRACE=$((2 * T)) RAW=$T values=$T prints=$T other=0" \
	"$(awk '
		/"kind":"mtt"/ && match($0, /"cmd":"[A-Z]+"/) {
			n[substr($0, RSTART + 7, RLENGTH - 8)]++
			if ($0 ~ /"name":"m[0-9]+"/) v++
			if ($0 ~ /print from [0-9]/) p++
			next
		}
		/"kind":"(msg|syst|loss)"/ { other++ }
		END { printf "META=%d TRACE=%d RAW=%d values=%d prints=%d other=%d\n",
			n["META"], n["TRACE"], n["RAW"], v, p, other }' $W/auto.json)"
sw_finish
tap_dmesg_clean
