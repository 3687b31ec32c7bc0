#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libmtt in the guest: 8 threads of one process trace 200 values each at
# once through /dev/swstm.0 (libmtt_threads), first with a p_basic policy
# (each frame one STP message), then with p_sys-t (each frame in a SyS-T
# message).  mttdecode finds every frame whole: one META per thread, each
# thread's values in order on a channel of its own with one context id,
# nothing else on the wire, no loss.  Needs no kernel mtt module.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh

W=$SW_WORK
T=8
N=200
syst_load sink_size=16777216 || tap_fail "load the stack and stm_p_sys-t"

# mtt_check JSON: the decoded capture, one line of counts
mtt_check() {
	awk -v T=$T -v N=$N '
	function num(k,   s) {
		if (!match($0, "\"" k "\":[0-9]+")) return -1
		s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); return s + 0
	}
	/"kind":"mtt"/ {
		if ($0 ~ /"cmd":"META"/) { meta++; next }
		if ($0 ~ /"value":"\\"done [0-9]+\\""/) { done++; next }
		if (!match($0, /"name":"t[0-9]+"/)) { other++; next }
		t = substr($0, RSTART + 9, RLENGTH - 10) + 0
		v = $0; sub(/.*"value":"/, "", v); sub(/".*/, "", v)
		c = num("channel"); x = num("ctx")
		if (!(t in next_)) { next_[t] = 0; chan[t] = c; ctx[t] = x }
		if (v + 0 != next_[t] || chan[t] != c || ctx[t] != x) bad++
		next_[t]++; traces++
		next
	}
	/"kind":"loss"/ { loss++; next }
	/"kind":"(msg|syst)"/ { other++ }
	END {
		for (t in chan) { if (chan[t] in seen) shared++; seen[chan[t]] = 1; if (next_[t] == N) full++ }
		printf "meta=%d traces=%d full=%d done=%d bad=%d shared=%d other=%d loss=%d\n",
			meta, traces, full, done, bad, shared, other, loss
	}' "$1"
}
want="meta=$T traces=$((T * N)) full=$T done=$T bad=0 shared=0 other=0 loss=0"

# --- p_basic: frames as STP messages ---------------------------------------------
sw_policy swstm.0.mb
sw_node swstm.0.mb mttthr "4 4" "0 31"
tap_eq "p_basic: $T threads x $N traces" "OK sent=$((T * N + T))" \
	"$(libmtt_threads swstm.0 mttthr $T $N)"
sw_drain $W/basic.stp >/dev/null
tap_check "p_basic: mttdecode the capture" sh -c "mttdecode --format json $W/basic.stp >$W/basic.json"
tap_eq "p_basic: every frame whole, each thread in order on its own channel" \
	"$want" "$(mtt_check $W/basic.json)"
tap_eq "p_basic: frames came as STP messages" "$((T * N + 2 * T))" \
	"$(grep -c '"via":"stp"' $W/basic.json)"
sw_policy_rm

# --- p_sys-t: frames in SyS-T messages -----------------------------------------
sw_policy swstm.0:p_sys-t.mt
sw_node swstm.0:p_sys-t.mt mttthr "4 4" "0 31"
tap_eq "p_sys-t: $T threads x $N traces" "OK sent=$((T * N + T))" \
	"$(libmtt_threads swstm.0 mttthr $T $N)"
sw_drain $W/syst.stp >/dev/null
tap_check "p_sys-t: mttdecode --syst the capture" sh -c "mttdecode --syst --format json $W/syst.stp >$W/syst.json"
tap_eq "p_sys-t: every frame whole, each thread in order on its own channel" \
	"$want" "$(mtt_check $W/syst.json)"
tap_eq "p_sys-t: frames came in SyS-T messages" "$((T * N + 2 * T))" \
	"$(grep -c '"via":"syst"' $W/syst.json)"
sw_policy_rm
stack_unload
tap_dmesg_clean
