# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the MTT guest scripts (t-6*-mtt-*.sh), busybox sh.
# Source after /stm/tests/lib.sh and /stm/tests/swstm_lib.sh.

MTT_SYS=/sys/kernel/mtt
MTT_COMPS=$MTT_SYS/components
MTT_SRC=/sys/class/stm_source/mtt
MTT_POL=swstm.0.mtt

# mtt_setup PROTOCOL [SWSTM_PARAMS...]: the stack (unless loaded), mtt,
# a policy MTT_POL="swstm.0:PROTOCOL.mtt" (PROTOCOL empty: p_basic) with
# node mtt on master 2, channels 0-63, and the source linked.  Sets
# MTT_POL: call it directly, not in $(...) or tap_check.
mtt_setup() {
	local proto=$1
	shift
	mod_loaded swstm || stack_load "$@" || return 1
	case "$proto" in
	'') MTT_POL=swstm.0.mtt ;;
	p_sys-t) mod_loaded stm_p_sys_t || mod_load stm_p_sys-t || return 1
		MTT_POL=swstm.0:p_sys-t.mtt ;;
	p_mtt) mod_loaded stm_p_mtt || mod_load stm_p_mtt || return 1
		MTT_POL=swstm.0:p_mtt.mtt ;;
	esac
	mod_loaded mtt || mod_load mtt || return 1
	sw_node "$MTT_POL" mtt "2 2" "0 63" || return 1
	[ "$(fsop writeln $MTT_SRC/stm_source_link swstm.0)" = OK ]
}

# mtt_run CMD: write CMD to mtt_test's run parameter; prints OK or errno.
mtt_run() {
	fsop write /sys/module/mtt_test/parameters/run "$1"
}

# mtt_frames RAW OUT [mtt_check options]: drain sink 0 into RAW and list
# its frames (mtt_check frames) into OUT.
mtt_frames() {
	local raw=$1 out=$2
	shift 2
	sw_drain "$raw" >/dev/null
	mttdecode --no-mtt --no-syst --format json "$raw" >"$raw.json"
	mtt_check frames "$@" "$raw.json" >"$out"
}

# mtt_hex STRING: STRING as lowercase hex.
mtt_hex() {
	printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'
}

# mtt_id NAME: a component's id as 0x%08x (from sysfs).
mtt_id() {
	cat "$MTT_COMPS/$1/id"
}
