#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof.t - the firmware lane, MiniProfiler: the STM32F405 firmware of
# tests/firmware/stm32f4 (libmprofdev's freestanding core, its STM32F4
# board file, a workload built with -finstrument-functions) runs under
# QEMU (netduinoplus2); mttprofile (ASan + UBSan) profiles it through the
# pty QEMU gives USART1.  The workload's work is fixed: WORK_TICKS (25)
# ticks, each making 12 calls, so the profile must hold exactly 300
# records: the calls of each function and the call tree's shape exact,
# times only consistent (a node's total covers its children's), the
# device's build id the CRC32 of the ELF's .text (computed here with
# gzip's CRC32), every report written.  A missing tool fails the test,
# naming its package.  In the same run, the MTT traces the firmware
# writes on USART2 (tests/firmware/stm32f4/mtt.c: libmttfw, target id
# 0x60, three components, 3 rounds at each of 7 levels, one trace per
# tick, a STOP frame) are captured through QEMU's second -serial (a file)
# and decoded by mttdecode --input=mtt: every value, level and component
# exact, every frame's CRC good.  A second build does all the work in one
# tick, above the UART's priority, into a small ring: exact overflow
# counts.  About 15 s.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

TICKS=25

grep -q "^#define WORK_TICKS $TICKS\$" "$FW/main.c"
tap_ok $? "the workload makes $TICKS ticks of work (main.c)"

need gzip gzip
stm32_setup "$TMP/fw"
ELF=$TMP/fw/fw.elf

# profile ELF SESSION RECORDS MTTCAP: run ELF under QEMU (a hang guard
# only), USART1 on the pty it names at start, USART2 into the file
# MTTCAP, and mttprofile on that pty until RECORDS records came;
# mttprofile's status in $rc, its stderr in $TMP/err (shown).  The
# firmware writes a tick's MTT trace (and after the last tick, its STOP
# frame) before that tick's work: the capture is complete when the last
# record has come.  --timeout=120: a response's wait is a hang guard only
# (a loaded machine's QEMU may answer late; nothing here depends on it).
profile() {
	stm32_qemu "$1" "$4"
	timeout -k 10 600 "$TMP/mttprofile" --records="$3" --timeout=120 \
		--status-interval=0.2 -o "$2" --elf="$1" "$pty" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	kill $qpid 2>/dev/null
	wait $qpid
	sed 's/^/# /' "$TMP/err"
}

S=$TMP/sess
records=$((12 * TICKS))
profile "$ELF" "$S" $records "$TMP/mtt.bin"
tap_is "$rc" 0 "QEMU ran the firmware, mttprofile profiled it on USART1's pty and exits 0"

mtt_check run "$TMP/mtt.bin" "$(stm32_mtt $TICKS)"

session_files "$S"

kv() { sed -n "s/^$1=//p" "$S/session.txt"; }
# calls per function, from the text table
calls() { awk 'NF == 7 && $1 ~ /^[0-9]+$/ { print $7 "=" $1 }' "$S/profile.txt" | sort | tr '\n' ' '; }
tap_is "$(kv records) $(kv device_records_captured) $(kv buffer_overflows)" \
	"$records $records 0" "$records records received, $records captured by the device, no overflow"
tap_is "$(kv crc_errors) $(kv garbage_bytes) $(kv truncated) $(kv nacks)" \
	"0 0 0 0" "a clean stream"
tap_is "$(kv fw_version) $(kv mcu_clock_hz) $(kv timer_freq)" \
	"stm32f4-wl-1 168000000 1000000" "the firmware's metadata"

# the build id: CRC32 of .text, computed by the firmware over its own
# flash at run time; here from the ELF (gzip's trailer holds the CRC32)
arm-none-eabi-objcopy -O binary --only-section=.text "$ELF" "$TMP/text.bin"
crc=$(gzip -c "$TMP/text.bin" | tail -c 8 | od -An -tu4 -N4 | tr -d ' ')
want=$(printf '0x%08x' "$crc")
tap_is "$(kv elf_build_id) $(kv elf_text_crc32)" "$want $want" \
	"the device's build id is the CRC32 of the ELF's .text ($want)"
grep -q "matches the device's build id" "$TMP/err"
tap_ok $? "mttprofile: the ELF matches the device's build id"

# calls per function, named from the ELF (Thumb bit cleared)
tap_is "$(calls)" \
	"clamp=$TICKS control_step=$TICKS filter=$TICKS pid=$TICKS scale=$((2 * TICKS)) sensor_read=$TICKS tick_work=$TICKS walk=$((4 * TICKS)) " \
	"calls per function"
tree=$(sed -n '/^# call tree/,$p' "$S/profile.txt")
tap_is "$(printf '%s\n' "$tree" | sed 's/  calls=\([0-9]*\).*/ \1/')" \
"# call tree
tick_work $TICKS
  sensor_read $TICKS
    filter $TICKS
      scale $((2 * TICKS))
  control_step $TICKS
    pid $TICKS
    clamp $TICKS
  walk $TICKS
    walk $TICKS
      walk $TICKS
        walk $TICKS" "the call tree: three chains and a recursion"

# times: only consistent; every node's total covers its children's
bad=$(printf '%s\n' "$tree" | awk '
	/calls=/ {
		d = match($0, /[^ ]/) - 1
		total = $0; sub(/.* total=/, "", total); sub(/ .*/, "", total)
		self = $0; sub(/.* self=/, "", self); sub(/ .*/, "", self)
		if (self + 0 < 0 || self + 0 > total + 0)
			print "self out of range: " $0
		if (d > 0)
			kids[d - 2] += total
		for (k = d; k in tot; k += 2) {
			if (kids[k] > tot[k]) print "children over parent at depth " k
			delete tot[k]; delete kids[k]
		}
		tot[d] = total + 0
	}
	END {
		for (k in tot) if (kids[k] > tot[k]) print "children over parent at depth " k
	}')
tap_is "$bad" "" "every node's total time covers its children's"

# mttdecode reads the session with the ELF it names: the same stacks
"$MTTDECODE" --format=folded "$S" >"$TMP/folded" 2>"$TMP/dec.err"
tap_ok $? "mttdecode decodes the session"
cmp -s "$TMP/folded" "$S/profile.folded"
tap_ok $? "mttdecode --format=folded is profile.folded"

# Overflows: all the work in one tick, above USART1's priority, into a
# ring of 64: the device keeps the first 64 records (five rounds of 12,
# then scale, scale, filter, sensor_read of the sixth) and counts the
# other 236 in STATUS
make -s -C "$FW" O="$TMP/fwb" EXTRA_CFLAGS="-DFW_BURST -DMPROFDEV_FW_RING_ORDER=6 \
	-DMPROFDEV_STM32F4_UART_PRIO=0xc0" >"$TMP/fw.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/fw.log"; bail "cannot build the overflow firmware"; }
S=$TMP/sessb
profile "$TMP/fwb/fw.elf" "$S" 64 "$TMP/mttb.bin"
tap_is "$rc" 0 "overflow firmware: mttprofile exits 0"
tap_is "$(kv records) $(kv device_records_captured) $(kv buffer_overflows)" \
	"64 64 $((records - 64))" "overflow firmware: 64 records kept and received, $((records - 64)) counted as overflows"
grep -q "buffer overflowed: $((records - 64)) records lost" "$TMP/err"
tap_ok $? "mttprofile warns of the $((records - 64)) records lost"
tap_is "$(calls)" \
	"clamp=5 control_step=5 filter=6 pid=5 scale=12 sensor_read=6 tick_work=5 walk=20 " \
	"overflow firmware: the ring kept the oldest records"
mtt_check "overflow firmware" "$TMP/mttb.bin" "$(stm32_mtt 1)"
tap_done
