#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# drift.t - the firmware lane: a board whose clock runs off by a known
# rate, and the drift the session's clock fit finds for it
# (Documentation/firmware.rst, "A clock off by a known rate";
# clock-sync.rst).  Two STM32F405 boards under QEMU, both built as
# session.t builds them (-DFW_HOLD): one with CLOCK_FAST_DIV=DIV (its
# microsecond clock fast by exactly 1/DIV), one without (the control).
# QEMU runs each board's timer from the host's clock, and a session with
# serial targets only takes the host's CLOCK_MONOTONIC as its reference,
# so the true line is known: dev = (1 + 1/DIV) * ref for the fast board,
# i.e. ref = a * dev + b with a = DIV / (DIV + 1), drift (a - 1) * 1e6 =
# -1e6 / (DIV + 1) ppm as libmttclock writes it (DIV = 2000: a clock
# 500 ppm fast shows as -499.750 ppm); the control's is 0.
# One mttcontrol session of the four ports (fprof, fmtt: the fast
# board's USART1, mprof, and USART2, mtt; prof, mtt: the control's),
# every target with sync_interval_ms SYNC_MS and not "paced" (the
# default): QEMU's USARTs move a byte at once, not at the baud, so no
# wire time may be counted (sessions.rst; counted, a round trip shorter
# than its bytes' time on the wire makes the fit CONFLICT, as the
# paced control of session-merge.t shows).  The work is fixed: the
# start burst of 8 TIME_SYNC exchanges and PERIODIC more, i.e. until
# each target's requests file holds 8 + PERIODIC records (a hang guard
# only), then --stop (its burst of 8 more).  For each target: the fit
# is two-way ("fit ok": not one-sided, no CONFLICT), every bound is
# finite, and the drift interval [drift_lo, drift_hi] that mttdecode
# --stats reports holds the true drift.  The size of the bound is not
# checked (the machine may be loaded); each target's figures are printed
# as "# drift: ..." lines, which make bench-firmware (bench.sh) shows.
# mttcontrol runs under ASan + UBSan.  About 40 s.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

DIV=2000
SYNC_MS=1000
PERIODIC=24
need timeout coreutils
# both boards held until the host speaks (session.t): make takes
# EXTRA_CFLAGS from the environment
export EXTRA_CFLAGS=-DFW_HOLD
stm32_setup "$TMP/fw"
asan_mttcontrol
make -s -C "$FW" O="$TMP/fast" CLOCK_FAST_DIV=$DIV >"$TMP/fast.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/fast.log"; bail "cannot build the CLOCK_FAST_DIV=$DIV firmware"; }

QLOG=$TMP/qemu-fast.log
stm32_qemu "$TMP/fast/fw.elf" "" -serial pty
fpid=$qpid
F1=$pty
F2=$(pty_of "$QLOG" serial1)
QLOG=$TMP/qemu-norm.log
stm32_qemu "$TMP/fw/fw.elf" "" -serial pty
npid=$qpid
N1=$pty
N2=$(pty_of "$QLOG" serial1)
trap 'kill $fpid $npid 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM

cat >"$TMP/drift.conf" <<X
targets = (
	{ name = "fprof"; port = "$F1"; protocol = "mprof";
	  elf = "$TMP/fast/fw.elf"; sync_interval_ms = $SYNC_MS; },
	{ name = "fmtt"; port = "$F2"; protocol = "mtt";
	  sync_interval_ms = $SYNC_MS; },
	{ name = "prof"; port = "$N1"; protocol = "mprof";
	  elf = "$TMP/fw/fw.elf"; sync_interval_ms = $SYNC_MS; },
	{ name = "mtt"; port = "$N2"; protocol = "mtt";
	  sync_interval_ms = $SYNC_MS; }
);
X
S=$TMP/sess
"$C" --start -c "$TMP/drift.conf" -o "$S" >"$TMP/out" 2>&1
rc=$?
tap_is "$rc" 0 "--start: one session, both boards' UARTs"
[ $rc = 0 ] || { sed 's/^/# /' "$TMP/out"; bail "--start failed"; }

# requests: 8 bytes, then 12 a TIME_SYNC sent
WANT=$((8 + PERIODIC))
T=$S/targets
enough() {
	for t in fprof fmtt prof mtt; do
		[ -f "$T/$t/requests" ] &&
			[ "$(wc -c <"$T/$t/requests")" -ge $((8 + 12 * WANT)) ] || return 1
	done
}
wait_until enough
tap_ok $? "each target's requests hold $WANT TIME_SYNC exchanges"

"$C" --stop >"$TMP/stop" 2>&1
rc=$?
kill $fpid $npid 2>/dev/null
wait $fpid $npid 2>/dev/null
tap_is "$rc:$(grep -c '; clock: two-way$' "$TMP/stop")" "0:4" \
	"--stop: every target's clock two-way"
[ $rc = 0 ] || sed 's/^/# /' "$TMP/stop"

"$MTTDECODE" --stats "$S" >/dev/null 2>"$TMP/stats"
tap_ok $? "mttdecode --stats SESSION"

# check NAME TRUE_PPM RATE: the fit of target NAME, whose true drift is
# TRUE_PPM (RATE: how the board's clock runs)
check() {
	sed -n "s/^merge: $1: fit \\([^ ]*\\) drift \\([^ ]*\\) ppm \\[\\([^,]*\\), \\([^]]*\\)\\] offset [^ ]* ns bound first \\([^ ]*\\) last \\([^ ]*\\) max \\([^ ]*\\) ns;.*/\\1 \\2 \\3 \\4 \\5 \\6 \\7/p" \
		"$TMP/stats" >"$TMP/fit"
	read -r fit drift lo hi bf bl bm <"$TMP/fit" || sed 's/^/# /' "$TMP/stats"
	echo "# drift: $1: true $2 ppm ($3): estimate $drift ppm [$lo, $hi], bound first $bf last $bl max $bm ns"
	tap_is "$fit" ok "$1: the fit is two-way (not one-sided, no CONFLICT)"
	finite=0
	for b in "$bf" "$bl" "$bm"; do
		case $b in
		'' | *[!0-9.]*) finite=1 ;;
		esac
	done
	tap_ok $finite "$1: every bound finite ($bf, $bl, $bm ns)"
	# the interval is printed to 0.001 ppm: widened by half of that
	awk -v lo="$lo" -v hi="$hi" -v t="$2" \
		'BEGIN { n = "^[-+]?[0-9]+(\\.[0-9]+)?$"
			exit !(lo ~ n && hi ~ n && lo - 0.0005 <= t && t <= hi + 0.0005) }'
	tap_ok $? "$1: the drift interval [$lo, $hi] ppm holds the true $2 ppm"
}
FAST=$(awk -v n=$DIV 'BEGIN { printf "%.3f", -1e6 / (n + 1) }')
for t in fprof fmtt; do
	check $t "$FAST" "fast by 1/$DIV: CLOCK_FAST_DIV=$DIV"
done
for t in prof mtt; do
	check $t 0 "the host's rate: the control"
done
tap_done
