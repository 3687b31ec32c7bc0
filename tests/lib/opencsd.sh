#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/lib/opencsd.sh - cross-check STPv2 decoding against OpenCSD.
#
#   opencsd.sh FILE              OpenCSD's data packets, normalised
#   opencsd.sh --mttdecode FILE  mttdecode's data packets, normalised
#   opencsd.sh --raw FILE        trc_pkt_lister's own output
#
# Normalised: one line per data packet (D4..D64 with any TS/M/MTS form):
#   <master> <channel> <bits> <value> <marked> <ts>
# master and channel in decimal, bits the payload size (4, 8, 16, 32, 64),
# value in lowercase hex padded to bits/4 digits, marked 1 or 0, ts the
# decoded timestamp in lowercase hex without leading zeros, or "-" when
# the packet carries none.  So:  diff <(opencsd.sh F) <(opencsd.sh --mttdecode F)
# OpenCSD does not know master and channel at the start of a stream and
# after a GERR until M8/C8 set them (STPv2 makes them 0, which mttdecode
# follows): such packets show "?" for them on the OpenCSD side.
#
# OpenCSD reads a raw STP file through a snapshot directory (snapshot.ini,
# device_0.ini describing an STM, trace.ini naming the file, which must be
# inside that directory, with format=source_data); this builds one in a
# temporary directory for each call.  It needs trc_pkt_lister (Debian:
# libopencsd-bin); without it every call fails with a message on stderr
# (exit 2).  Note that OpenCSD 1.3.3 rejects M16, NULL_TS, USER, TIME,
# XSYNC, FREQ_TS and FREQ_40 as reserved, keeps the master across VERSION
# (STPv2 resets it), needs a VERSION (3 or 4) before timestamps, decodes
# Gray-coded timestamp bits 31 and up wrongly, and numbers packets
# differently (no byte offsets here).  Streams meant for comparison avoid
# all that (see tests/host/src/ocsdgen.c).
#
# POSIX sh and awk only (works with busybox).  Sourcing this file defines
# opencsd_norm and mttdecode_norm without running anything.
#
# Environment: TRC_PKT_LISTER (default: trc_pkt_lister from PATH),
# MTTDECODE (default: tools/build/mttdecode of this tree);
# OPENCSD_FORMAT (default source_data; coresight: FILE is CoreSight
# formatter frames), OPENCSD_TRACE_ID (the STM's trace ID, default 0x10),
# OPENCSD_ARGS (more trc_pkt_lister options, e.g. -tpiu), MTTDECODE_ARGS
# (more mttdecode options, e.g. --input=coresight).

opencsd_lister() {
	printf '%s\n' "${TRC_PKT_LISTER:-trc_pkt_lister}"
}

# opencsd_raw FILE: run trc_pkt_lister on FILE, print its output
opencsd_raw() {
	_ocsd_file=$1
	_ocsd_bin=$(opencsd_lister)
	if ! command -v "$_ocsd_bin" >/dev/null 2>&1; then
		echo "opencsd.sh: $_ocsd_bin not found (install libopencsd-bin)" >&2
		return 2
	fi
	if [ ! -r "$_ocsd_file" ]; then
		echo "opencsd.sh: cannot read $_ocsd_file" >&2
		return 2
	fi
	_ocsd_dir=$(mktemp -d "${TMPDIR:-/tmp}/opencsd.XXXXXX") || return 2
	cat >"$_ocsd_dir/snapshot.ini" <<'INI'
[snapshot]
version=1.0

[device_list]
device0=device_0.ini

[trace]
metadata=trace.ini
INI
	# STMTCSR: EN and TSEN set, the trace ID in bits [22:16]
	_ocsd_tcsr=$(printf '0x%08x' $(((${OPENCSD_TRACE_ID:-0x10} << 16) | 3)))
	cat >"$_ocsd_dir/device_0.ini" <<INI
[device]
name=STM_0
class=trace_source
type=STM

[regs]
STMTCSR(0xE80)=$_ocsd_tcsr
INI
	cat >"$_ocsd_dir/trace.ini" <<INI
[trace_buffers]
buffers=buffer0

[buffer0]
name=BUF_0
file=trace.bin
format=${OPENCSD_FORMAT:-source_data}

[source_buffers]
STM_0=BUF_0

[core_trace_sources]
INI
	cp "$_ocsd_file" "$_ocsd_dir/trace.bin" || {
		rm -rf "$_ocsd_dir"
		return 2
	}
	# shellcheck disable=SC2086 # OPENCSD_ARGS: words
	(cd "$_ocsd_dir" && "$_ocsd_bin" -ss_dir . -decode -logstdout \
		${OPENCSD_ARGS:-})
	_ocsd_rc=$?
	rm -rf "$_ocsd_dir"
	if [ "$_ocsd_rc" -ne 0 ]; then
		echo "opencsd.sh: $_ocsd_bin failed (exit $_ocsd_rc)" >&2
		return 2
	fi
	return 0
}

# awk helpers shared by both normalisers
_ocsd_awk_lib='
function hexval(h,   i, v, c) {
	h = tolower(h); sub(/^0x/, "", h); v = 0
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
function hexnorm(h) {
	h = tolower(h); sub(/^0x/, "", h); sub(/^0+/, "", h)
	return h == "" ? "0" : h
}
function pad(h, n) {
	h = tolower(h); sub(/^0x/, "", h)
	while (length(h) < n) h = "0" h
	while (length(h) > n && substr(h, 1, 1) == "0") h = substr(h, 2)
	return h
}
# decimal string -> hex string, any length (no floating point)
function dec2hex(s,   out, q, r, i, d, qd) {
	out = ""
	sub(/^0+/, "", s)
	if (s == "") return "0"
	while (s != "") {
		q = ""; r = 0
		for (i = 1; i <= length(s); i++) {
			d = r * 10 + substr(s, i, 1)
			qd = int(d / 16); r = d - qd * 16
			if (q != "" || qd > 0) q = q qd
		}
		out = substr("0123456789abcdef", r + 1, 1) out
		s = q
	}
	return out
}
function opbits(op,   b) {
	b = op; sub(/^D/, "", b); sub(/[A-Z_]+$/, "", b)
	return b + 0
}
'

# opencsd_norm FILE: OpenCSD's data packets, normalised
opencsd_norm() {
	opencsd_raw "$1" >"${TMPDIR:-/tmp}/opencsd.$$" || {
		rm -f "${TMPDIR:-/tmp}/opencsd.$$"
		return 2
	}
	awk "$_ocsd_awk_lib"'
	# packet lines: "...];<TAB>D32TS:32 bit data ..."
	/^Idx:/ && /\];\t/ {
		s = $0; sub(/^[^\t]*\t/, "", s); sub(/:.*/, "", s)
		op = s
		next
	}
	/OCSD_GEN_TRC_ELEM_SWTRACE\( *\(Ma:/ {
		if (op !~ /^D(4|8|16|32|64)/) next
		s = $0
		m = s; sub(/.*\(Ma:/, "", m); sub(/;.*/, "", m)
		c = s; sub(/.*; Ch:/, "", c); sub(/\).*/, "", c)
		v = s; sub(/.*Ch:[^)]*\) */, "", v)
		if (v !~ /^0x/) next
		sub(/[; ].*/, "", v)
		mk = (s ~ /\+Mrk/) ? 1 : 0
		ts = "-"
		if (s ~ /TS=0x/) {
			ts = s; sub(/.*TS=/, "", ts); sub(/[];) ].*/, "", ts)
			ts = hexnorm(ts)
		}
		b = opbits(op)
		# OpenCSD prints 0x?? for a master/channel it does not know
		# (after GERR it does not assume 0 as STPv2 says)
		m = (m ~ /\?/) ? "?" : hexval(m)
		c = (c ~ /\?/) ? "?" : hexval(c)
		printf "%s %s %d %s %d %s\n", m, c, b, pad(v, b / 4), mk, ts
		op = ""
	}' "${TMPDIR:-/tmp}/opencsd.$$"
	_ocsd_rc=$?
	rm -f "${TMPDIR:-/tmp}/opencsd.$$"
	return $_ocsd_rc
}

# mttdecode_norm FILE: mttdecode's data packets, normalised the same way
mttdecode_norm() {
	if [ -z "${MTTDECODE:-}" ]; then
		_ocsd_here=$(cd "$(dirname "$0")" && pwd)
		for _ocsd_m in "$_ocsd_here/../../tools/build/mttdecode" \
		    "$_ocsd_here/../tools/build/mttdecode"; do
			[ -x "$_ocsd_m" ] && MTTDECODE=$_ocsd_m && break
		done
	fi
	if [ ! -x "${MTTDECODE:-}" ]; then
		echo "opencsd.sh: mttdecode not found (make -C tools; or set MTTDECODE)" >&2
		return 2
	fi
	# shellcheck disable=SC2086 # MTTDECODE_ARGS: words
	"$MTTDECODE" --format json --packets --no-messages ${MTTDECODE_ARGS:-} \
		"$1" |
	awk "$_ocsd_awk_lib"'
	/"kind":"packet"/ && /"op":"D(4|8|16|32|64)/ {
		n = split($0, f, ",")
		op = ""; m = ""; c = ""; v = ""; mk = 0; ts = "-"
		for (i = 1; i <= n; i++) {
			kv = f[i]; gsub(/[{}"]/, "", kv)
			k = kv; sub(/:.*/, "", k)
			x = kv; sub(/^[^:]*:/, "", x)
			if (k == "op") op = x
			else if (k == "master") m = x
			else if (k == "channel") c = x
			else if (k == "value") v = x
			else if (k == "marked") mk = (x == "true") ? 1 : 0
			else if (k == "ts") ts = dec2hex(x)
		}
		b = opbits(op)
		printf "%d %d %d %s %d %s\n", m, c, b, pad(v, b / 4), mk, ts
	}'
}

opencsd_main() {
	case ${1:-} in
	--raw)
		[ $# -eq 2 ] || { echo "usage: opencsd.sh --raw FILE" >&2; return 2; }
		opencsd_raw "$2" ;;
	--mttdecode)
		[ $# -eq 2 ] || { echo "usage: opencsd.sh --mttdecode FILE" >&2; return 2; }
		mttdecode_norm "$2" ;;
	-h|--help)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0" ;;
	""|-*)
		echo "usage: opencsd.sh [--mttdecode|--raw] FILE" >&2
		return 2 ;;
	*)
		[ $# -eq 1 ] || { echo "usage: opencsd.sh FILE" >&2; return 2; }
		opencsd_norm "$1" ;;
	esac
}

case ${0##*/} in
opencsd.sh) opencsd_main "$@"; exit $? ;;
esac
