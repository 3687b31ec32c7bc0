#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench-firmware (also part of make bench): the firmware libraries'
# figures, printed, never asserted (Documentation/firmware.rst,
# "Figures"):
#
# * instructions executed on the path of an instrumented call (the
#   MiniProfiler's entry and exit hooks, STM32F405 build, profiling) and
#   of an enabled and a filtered-out mtt_trace (libmttfw, STM32F405 and
#   RISC-V builds), and of the enabled mtt_trace that compares with a
#   SystemView event: one UINT32, no hint, no CRC word, TS64 as the
#   boards send it (the test firmwares' "app" traces, their hint and
#   the CRC option set to NULL under gdb as each is stepped; the frame's
#   bytes, 36, measured at the board's writer; on the STM32F405 in a
#   QEMU session of its own, as the rounds run before profiling): the
#   test firmwares run under QEMU with its gdbstub, and gdb-multiarch
#   steps each call from its first instruction until it returns
#   (tests/firmware/bench-count.py), interrupts disabled at
#   their sources meanwhile; the board's byte writer (the UART) is run,
#   not counted.  QEMU does not model cycles: the Cortex-M4 cycle figure
#   is an estimate from the instructions stepped (1 each, 1 more a load
#   or store, 2 more a pipeline refill after a jump; zero-wait-state
#   memory), labelled as such; the RISC-V one is only the count;
# * flash (text + data) and RAM (data + bss) of each library, `size` on
#   the objects as the firmwares build them;
# * the clock fit of a session (tests/firmware/drift.t, run as it is: a
#   board whose clock is fast by 1/2000 and a control, four targets):
#   each target's estimated drift, its interval and its bounds, the true
#   drift beside them (drift.t's "# drift:" lines);
#
# each beside its anchor (SEGGER SystemView: about 1 us, 200 cycles at
# 200 MHz, per 4-8 byte event; RTT: about 500 bytes of ROM) and the ratio.
# Skipped, saying why, when a compiler, an emulator or gdb-multiarch is
# missing (make deps installs them).  About 3 minutes.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"
HERE=$TOP/tests/firmware
qpid=
ppid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null
	[ -z "$ppid" ] || kill "$ppid" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

say() { echo "bench-firmware: $*"; }
for t in arm-none-eabi-gcc:gcc-arm-none-eabi qemu-system-arm:qemu-system-arm \
	riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf \
	qemu-system-riscv32:qemu-system-misc gdb-multiarch:gdb-multiarch; do
	command -v "${t%%:*}" >/dev/null 2>&1 || {
		say "skipped: no ${t%%:*} (Debian package ${t#*:}; make deps installs it)"
		exit 0
	}
done
MTTPROFILE=$TOP/tools/build/mttprofile
[ -x "$MTTPROFILE" ] || { say "run make -C tools first"; exit 1; }

ARM=$TMP/stm32f4
RV=$TMP/riscv32
make -s -C "$HERE/stm32f4" O="$ARM" >"$TMP/build.log" 2>&1 &&
	make -s -C "$HERE/riscv32" O="$RV" "$RV/fw.elf" objs >>"$TMP/build.log" 2>&1 ||
	{ cat "$TMP/build.log"; say "cannot build the firmwares"; exit 1; }

# gdb SOCKET ELF COMMANDS...: gdb-multiarch on QEMU's gdbstub, the
# counting commands loaded; the "count" lines into $TMP/counts
gdb_run() {
	sock=$1 elf=$2
	shift 2
	{
		echo "set pagination off"
		echo "set confirm off"
		echo "source $HERE/bench-count.py"
		echo "target remote $sock"
		# stepping with QEMU's timers running (a UART's transmit
		# holding register empties on a timer), interrupts masked
		echo "maintenance packet Qqemu.sstep=0x3"
		for c in "$@"; do echo "$c"; done
		echo "kill"
	} >"$TMP/gdb.cmd"
	timeout -k 5 600 gdb-multiarch -batch -nx -x "$TMP/gdb.cmd" "$elf" \
		>"$TMP/gdb.out" 2>&1
	grep '^count ' "$TMP/gdb.out" >>"$TMP/counts" ||
		{ sed 's/^/# /' "$TMP/gdb.out"; say "gdb counted nothing"; exit 1; }
}

# STM32F405: MTT traces at start, then, once mttprofile has started
# profiling, per tick one trace of "tick" (fw_mtt_tick) and 12
# instrumented calls.  Hits: a function's Nth call from the command on.
seq_list() { i=$1; l=; while [ "$i" -le "$2" ]; do l=$l${l:+,}$i; i=$((i + 1)); done; echo "$l"; }
: >"$TMP/counts"
stm32_qemu "$ARM/fw.elf" "$TMP/usart2.bin" \
	-gdb unix:"$TMP/arm.sock",server=on,wait=off -S
timeout -k 5 600 "$MTTPROFILE" --records=300 --timeout=300 -o "$TMP/sess" \
	--elf="$ARM/fw.elf" "$pty" >"$TMP/prof.log" 2>&1 &
ppid=$!
gdb_run "$TMP/arm.sock" "$ARM/fw.elf" \
	"bench-count m4-trace mttfw_trace_out 1,10 usart2_put" \
	"bench-count m4-crc mttfw_trace_out 1 usart2_put wire_crc16_ccitt_x4" \
	"bench-count m4-tick-on fw_mtt_tick 1 usart2_put" \
	"bench-count m4-hooks __cyg_profile_func_enter,__cyg_profile_func_exit $(seq_list 1 24)" \
	"bench-set ((struct mttfw_comp *)tick)->pub.active = 0" \
	"bench-count m4-tick-off fw_mtt_tick 1"
kill "$qpid" "$ppid" 2>/dev/null
wait "$qpid" "$ppid" 2>/dev/null
qpid=
ppid=

# STM32F405 again, alone: the like-for-like event, the "app" traces at
# start (UINT32) with their hint and the CRC option made NULL
stm32_qemu "$ARM/fw.elf" "$TMP/usart2.bin" \
	-gdb unix:"$TMP/arm2.sock",server=on,wait=off -S
gdb_run "$TMP/arm2.sock" "$ARM/fw.elf" \
	'bench-count m4-event mttfw_trace_out 1,10 usart2_put "--if=$r0 == (unsigned long)app" "--set=mttfw_default.cfg.crc16 = 0" "--set=*(const char **)$sp = 0" --bytes=$r2'
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
qpid=

# RISC-V: the main program's traces (app, sensor); the output's put is
# the encapsulation writer, whose byte writer is uart_write; rv-event
# takes 2 of the 13 "app" traces the first 20 calls leave (of 45)
timeout -k 5 600 qemu-system-riscv32 -M virt -bios none -nographic -monitor none \
	-kernel "$RV/fw.elf" -serial file:"$TMP/uart0.bin" \
	-gdb unix:"$TMP/rv.sock",server=on,wait=off -S \
	</dev/null >"$TMP/qemu.log" 2>&1 &
qpid=$!
sleep 0.5
gdb_run "$TMP/rv.sock" "$RV/fw.elf" \
	"bench-count rv-trace mttfw_trace_out 1,10 mttfw_rv_put" \
	"bench-count rv-encap mttfw_trace_out 1,10 uart_write" \
	'bench-count rv-event mttfw_trace_out 1,10 mttfw_rv_put "--if=$a0 == (unsigned long)app" "--set=$a4 = 0" --bytes=$a2'
kill $qpid 2>/dev/null
wait $qpid 2>/dev/null
qpid=

# the filtered-out path is inline: its instructions, in the disassembly
# of the function FUNC that traces "tick", from the handle's load (START:
# an awk pattern; with the auipc before it on RISC-V) to the branch past
# the call (the compiler may interleave the caller's own work); the
# listing, then the count
inline_path() {
	$1 -d --no-show-raw-insn --disassemble="$2" "$3" |
		awk -v start="$4" '
		!on && $0 ~ start { on = 1; if (prev ~ /auipc/) { n++; print "#   " prev } }
		on { n++; print "#   " $0 }
		on && $2 ~ /^(bne|beq|bnez|beqz)(\.n|\.w)?$/ { exit }
		{ prev = $0 }
		END { print n }'
}

# the figures: count NAME FUNC HIT INSNS EXCLUDED EST BYTES
get() { awk -v n="$1" -v f="$2" -v h="$3" -v c="$4" \
	'$2 == n && $3 == f && $4 == h { print $c }' "$TMP/counts"; }
sum() { echo $(($1 + $2)); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

ef=$(get m4-hooks __cyg_profile_func_enter 1 5)
xf=$(get m4-hooks __cyg_profile_func_exit 1 5)
# steady: each hook's most frequent count over calls 2..24
es=$(awk '$2 == "m4-hooks" && $3 == "__cyg_profile_func_enter" && $4 > 1 { n[$5 " " $7]++ }
	END { for (k in n) if (n[k] > b) { b = n[k]; m = k } print m }' "$TMP/counts")
xs=$(awk '$2 == "m4-hooks" && $3 == "__cyg_profile_func_exit" && $4 > 1 { n[$5 " " $7]++ }
	END { for (k in n) if (n[k] > b) { b = n[k]; m = k } print m }' "$TMP/counts")
ss=$(sum "${es% *}" "${xs% *}")
ssc=$(sum "${es#* }" "${xs#* }")

echo
say "one run on $(uname -n) ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)), $(qemu-system-arm --version | head -1 | sed 's/ (.*//')"
say "instructions stepped under QEMU's gdbstub (exact); QEMU does not model cycles:"
say "'est. cycles' is an ESTIMATE for a Cortex-M4 at zero wait states (see bench.sh)"
echo
printf '%-44s %-10s %7s %7s %12s   %-28s %s\n' "path" "core" "first" "steady" "est. cycles" "anchor" "ratio"
row() { printf '%-44s %-10s %7s %7s %12s   %-28s %s\n' "$@"; }
row "instrumented call: entry + exit hook" Cortex-M4 "$(sum "$ef" "$xf")" "$ss" "$ssc" "SystemView event ~200 cyc" "$(ratio "$ssc" 200)"
row "  entry hook" Cortex-M4 "$ef" "${es% *}" "${es#* }" "" ""
row "  exit hook" Cortex-M4 "$xf" "${xs% *}" "${xs#* }" "" ""
t1=$(get m4-trace mttfw_trace_out 1 5) t10=$(get m4-trace mttfw_trace_out 10 5)
c10=$(get m4-trace mttfw_trace_out 10 7)
row "enabled mtt_trace (mttfw_trace_out)" Cortex-M4 "$t1" "$t10" "$c10" "SystemView event ~200 cyc" "$(ratio "$c10" 200)"
nc=$(get m4-crc mttfw_trace_out 1 5) ncc=$(get m4-crc mttfw_trace_out 1 7)
row "  of which not the CRC word (crc16 option)" Cortex-M4 "" "$nc" "$ncc" "SystemView event ~200 cyc" "$(ratio "$ncc" 200)"
v1=$(get m4-event mttfw_trace_out 1 5) v10=$(get m4-event mttfw_trace_out 10 5)
vc=$(get m4-event mttfw_trace_out 10 7) vb=$(get m4-event mttfw_trace_out 10 8)
row "  SystemView-like: UINT32, no hint, no CRC" Cortex-M4 "$v1" "$v10" "$vc" "SystemView event ~200 cyc" "$(ratio "$vc" 200)"
row "    (the frame: $vb bytes, with TS64 and level)" "" "" "" "" "" ""
on=$(get m4-tick-on fw_mtt_tick 1 5) onc=$(get m4-tick-on fw_mtt_tick 1 7)
row "  in fw_mtt_tick (+ inline test, call, ret)" Cortex-M4 "" "$on" "$onc" "" ""
off=$(get m4-tick-off fw_mtt_tick 1 5) offc=$(get m4-tick-off fw_mtt_tick 1 7)
row "filtered-out mtt_trace, in fw_mtt_tick" Cortex-M4 "" "$off" "$offc" "SystemView event ~200 cyc" "$(ratio "$offc" 200)"
r1=$(get rv-trace mttfw_trace_out 1 5) r10=$(get rv-trace mttfw_trace_out 10 5)
row "enabled mtt_trace, frame to the output" rv32imac "$r1" "$r10" "-" "SystemView ~200 cyc (insns)" "$(ratio "$r10" 200)"
e1=$(get rv-encap mttfw_trace_out 1 5) e10=$(get rv-encap mttfw_trace_out 10 5)
row "  with RISC-V encapsulation (2 packets)" rv32imac "$e1" "$e10" "-" "SystemView ~200 cyc (insns)" "$(ratio "$e10" 200)"
w1=$(get rv-event mttfw_trace_out 1 5) w10=$(get rv-event mttfw_trace_out 10 5)
wb=$(get rv-event mttfw_trace_out 10 8)
row "  SystemView-like: UINT32, no hint ($wb B)" rv32imac "$w1" "$w10" "-" "SystemView ~200 cyc (insns)" "$(ratio "$w10" 200)"
echo
say "a filtered-out mtt_trace is inline; its instructions as compiled:"
echo "# Cortex-M4, fw_mtt_tick:"
inline_path arm-none-eabi-objdump fw_mtt_tick "$ARM/fw.elf" 'ldr.*\[pc' >"$TMP/m4i"
sed '$d' "$TMP/m4i"
m4i=$(tail -1 "$TMP/m4i")
echo "# rv32imac, trap (the timer interrupt's trace):"
inline_path riscv64-unknown-elf-objdump trap "$RV/fw.elf" '<tick>' >"$TMP/rvi"
sed '$d' "$TMP/rvi"
rvi=$(tail -1 "$TMP/rvi")
say "  from the handle's load to the branch: $m4i (Cortex-M4), $rvi (rv32imac) instructions"

# sizes: NAME CORE OBJECTS...: flash = text + data, RAM = data + bss
sz() {
	n=$1 core=$2 tool=$3
	shift 3
	$tool "$@" | awk -v n="$n" -v c="$core" 'NR > 1 { t += $1; d += $2; b += $3 }
		END { printf "%-44s %-10s %7d %7d   %-28s %.2f\n", n, c, t + d, d + b, "RTT ~500 B ROM", (t + d) / 500 }'
}
echo
printf '%-44s %-10s %7s %7s   %-28s %s\n' "library (objects, as built)" "core" "flash" "RAM" "anchor" "ratio"
A=arm-none-eabi-size
R=riscv64-unknown-elf-size
sz "mprofdev core (core.c, ring.c)" Cortex-M4 $A "$ARM/obj/core.o" "$ARM/obj/ring.o"
sz "mprofdev port (fw glue, stm32f4.c)" Cortex-M4 $A "$ARM/obj/mprofdev_fw.o" "$ARM/obj/stm32f4.o"
sz "  RTT-comparable: ring.c + stm32f4.c" Cortex-M4 $A "$ARM/obj/ring.o" "$ARM/obj/stm32f4.o"
sz "libwire for mprofdev (mprof_wire.c, crc.c)" Cortex-M4 $A "$ARM/obj/mprof_wire.o" "$ARM/obj/crc.o"
sz "libmttfw (mttfw.c, cmd.c)" Cortex-M4 $A "$ARM/obj/mttfw.o" "$ARM/obj/cmd.o"
sz "libmttfw (mttfw.c, cmd.c)" rv32imac $R "$RV/obj/mttfw.o" "$RV/obj/cmd.o"
sz "libmttfw's RISC-V encapsulation (rvencap.c)" rv32imac $R "$RV/obj/rvencap.o"
say "objects before --gc-sections: crc.c holds six tables (CRC-16's, three more"
say "for wire_crc16_ccitt_x4, CRC-32's, CRC-32C's); a firmware links only what it"
say "calls.  The ring (mprofdev port's RAM) is 2^MPROFDEV_FW_RING_ORDER records of"
say "20 bytes."

# the clock fit: drift.t's scenario and its figures, whatever their size
echo
say "clock fit (tests/firmware/drift.t's session): drift in ppm as mttdecode"
say "--stats writes it (ref = a * dev + b, drift (a - 1) * 1e6: a clock fast by"
say "1/2000 shows -499.750), bounds in ns, never asserted here:"
sh "$HERE/drift.t" >"$TMP/drift.out" 2>&1
sed -n 's/^# drift: /bench-firmware: drift: /p' "$TMP/drift.out"
grep -q '^# drift: ' "$TMP/drift.out" || sed 's/^/# /' "$TMP/drift.out"
grep '^not ok' "$TMP/drift.out" | sed 's/^/bench-firmware: drift.t: /'
