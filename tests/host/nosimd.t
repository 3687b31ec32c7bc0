#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nosimd.t - the word-at-a-time fallbacks of the SIMD fast paths (hex
# lines 16 digits at a time in syst_text.c, plain-text runs 16 bytes at
# a time in esc.c) give the same output as the SSE2 code.  On x86-64 the
# fallbacks never run otherwise: mttdecode is built twice with ASan +
# UBSan, once with -DMTTD_NO_SIMD, and both decode the same generated
# "SYS-T RAW DATA:" lines (random lengths, both hex cases, blanks and
# bad digits at random places, STRING payloads with every byte value, so
# the escaping sees controls, UTF-8 and invalid sequences) in text, JSON
# and CSV, with and without a small --max-message.  The outputs must be
# identical byte for byte and not empty.
. "$(dirname "$0")/lib.sh"

asan_mttdecode
cp "$M" "$TMP/simd"
ASAN_EXTRA_CFLAGS=-DMTTD_NO_SIMD asan_mttdecode
cp "$M" "$TMP/nosimd"

# 3000 lines; a fixed seed, so every run checks the same input
awk 'BEGIN {
	srand(7);
	for (i = 0; i < 3000; i++) {
		n = int(rand() * 90);
		# a third of the lines plain text, a third nearly so (long
		# runs for the word and vector paths), a third mixed
		pp = (i % 3 == 0) ? 1.0 : (i % 3 == 1) ? 0.97 : 0.6;
		# STRING:GENERIC INFO (header 0x01000042), then the payload
		s = "42000001";
		for (j = 0; j < n; j++) {
			r = rand();
			if (r < pp)
				b = 32 + int(rand() * 95);	# printable
			else if (r < pp + (1 - pp) / 4)
				b = int(rand() * 32);		# controls
			else if (r < pp + (1 - pp) / 2)
				b = 194 + int(rand() * 30);	# UTF-8 lead
			else
				b = 128 + int(rand() * 128);	# anything high
			s = s sprintf("%02x", b);
		}
		if (rand() < 0.2)
			s = toupper(s);
		r = rand();
		if (r < 0.08) {			# a blank at an even place
			k = 2 * int(rand() * (length(s) / 2));
			s = substr(s, 1, k) " " substr(s, k + 1);
		} else if (r < 0.12) {		# a bad digit anywhere
			k = int(rand() * length(s));
			s = substr(s, 1, k) "g" substr(s, k + 2);
		} else if (r < 0.15) {		# an odd length
			s = substr(s, 1, length(s) - 1);
		}
		printf "SYS-T RAW DATA: %s\n", s;
	}
}' >"$TMP/in.txt"

for fmt in text json csv; do
	for max in 65536 37; do
		same_output "--format=$fmt --max-message=$max" 2000 \
			SSE2 "$TMP/simd" fallback "$TMP/nosimd" \
			--input=systtext --format=$fmt --max-message=$max "$TMP/in.txt"
	done
done
tap_done
