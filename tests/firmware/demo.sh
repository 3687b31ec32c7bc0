#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo-firmware (after make deps and make tools): both test
# firmwares built and run under QEMU, their reports written to
# tests/vm/out/demo-firmware/ (STM_DEMO_FW_OUT to change it), saying
# where (Documentation/firmware.rst, firmware-mtt.rst):
#
#   stm32f4-profile/     mttprofile's session of the STM32F405 firmware
#                        (USART1): profile.txt, profile.html (the flame
#                        graph), profile.folded, profile.chrome.json
#   stm32f4-usart2.bin   its MTT frames (USART2), decoded in
#                        stm32f4-mtt.txt (mttdecode --input=mtt)
#   riscv32-uart0.bin    the RISC-V firmware's UART0 (MTT in RISC-V trace
#                        encapsulation), decoded in riscv32-mtt.txt
#
# The QEMU runs have guard timeouts only.  It uses the firmware lane's
# helpers (tests/firmware/lib.sh) for the tools check and the STM32F405
# run; its temporary files go when it ends.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

OUT=${STM_DEMO_FW_OUT:-$TOP/tests/vm/out/demo-firmware}
BUILD=$TOP/tests/build/firmware
need arm-none-eabi-gcc gcc-arm-none-eabi
need qemu-system-arm qemu-system-arm
need riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need qemu-system-riscv32 qemu-system-misc
[ -x "$TOOLS/build/mttprofile" ] && [ -x "$MTTDECODE" ] ||
	bail "run make -C tools first (make demo-firmware does)"

say() { echo "demo-firmware: $*"; }
fail() { echo "demo-firmware: $*" >&2; exit 1; }

make -s -C "$FW" O="$BUILD/stm32f4" || fail "cannot build the STM32F405 firmware"
make -s -C "$TOP/tests/firmware/riscv32" O="$BUILD/riscv32" ||
	fail "cannot build the RISC-V firmware"
rm -rf "$OUT"
mkdir -p "$OUT" || fail "cannot create $OUT"

say "STM32F405 (qemu-system-arm -M netduinoplus2): mttprofile on USART1, MTT on USART2"
ELF=$BUILD/stm32f4/fw.elf
stm32_qemu "$ELF" "$OUT/stm32f4-usart2.bin"
timeout -k 10 120 "$TOOLS/build/mttprofile" --records=300 --timeout=5 \
	-o "$OUT/stm32f4-profile" --elf="$ELF" "$pty"
rc=$?
kill $qpid 2>/dev/null
wait $qpid
[ $rc -eq 0 ] || fail "mttprofile failed (status $rc)"
"$MTTDECODE" --input=mtt "$OUT/stm32f4-usart2.bin" >"$OUT/stm32f4-mtt.txt" ||
	fail "mttdecode failed on the STM32F405's USART2 capture"

say "RISC-V (qemu-system-riscv32 -M virt): MTT in RISC-V trace encapsulation on UART0"
timeout 120 qemu-system-riscv32 -M virt -bios none -nographic -monitor none \
	-kernel "$BUILD/riscv32/fw.elf" -serial file:"$OUT/riscv32-uart0.bin" ||
	fail "the RISC-V firmware did not power the machine off"
"$MTTDECODE" --srcid-bits=8 --ts-bytes=4 --unframed --srcid-proto='*:mtt' \
	"$OUT/riscv32-uart0.bin" >"$OUT/riscv32-mtt.txt" ||
	fail "mttdecode failed on the RISC-V capture"

echo
sed -n '1,/^# call tree/p' "$OUT/stm32f4-profile/profile.txt" | sed '$d'
echo
say "the reports are in $OUT:"
say "  stm32f4-profile/profile.txt   calls and times per function, the call tree"
say "  stm32f4-profile/profile.html  the flame graph, timeline and table (open it in a browser)"
say "  stm32f4-mtt.txt               the STM32F405's MTT traces (USART2), $(grep -c ' MTT ' "$OUT/stm32f4-mtt.txt") frames"
say "  riscv32-mtt.txt               the RISC-V core's MTT traces (UART0), $(grep -c ' MTT ' "$OUT/riscv32-mtt.txt") frames"
