# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the SyS-T guest scripts (t-4*-syst-*.sh), busybox sh.
# Source after /stm/tests/lib.sh and /stm/tests/swstm_lib.sh.

SYST_POL=swstm.0:p_sys-t.pol
SP=$CFG/$SYST_POL

# syst_load [SWSTM_PARAMS...]: the stack, then stm_p_sys-t.
syst_load() {
	stack_load "$@" || return 1
	mod_loaded stm_p_sys_t || mod_load stm_p_sys-t
}

# syst_node NODE "M0 M1" "C0 C1": a node of the p_sys-t policy.
syst_node() {
	sw_node "$SYST_POL" "$1" "$2" "$3"
}

# syst_set NODE ATTR VALUE: set a node attribute (diag on failure).
syst_set() {
	local out
	out=$(fsop write "$SP/$1/$2" "$3")
	[ "$out" = OK ] && return 0
	tap_diag "syst_set $1/$2 '$3': $out"
	return 1
}

# syst_capture RAW JSON: drain sink 0 into RAW; its messages into JSON as
# raw bytes (--no-syst: the guest checks parse the SyS-T themselves).
syst_capture() {
	sw_drain "$1" >/dev/null
	mttdecode --no-syst --format json "$1" >"$2"
}

# syst_packets RAW PJSON: the packets of RAW as JSON lines.
syst_packets() {
	mttdecode --no-syst --packets --no-messages --format json "$1" >"$2"
}

# syst_get LINE KEY: the value of KEY=... in a "syst_check msgs" line
# (text= is the rest of the line).  Shell expansions only, no command:
# the checks call it many times, and on the debug kernel each command
# of a pipeline is a fork and exec of a third of a second.
syst_get() {
	local l v
	case "$2" in
	text)
		case "$1" in *" text="*) printf '%s\n' "${1##* text=}" ;; esac ;;
	*)
		l=" $1"
		case "$l" in
		*" $2="*)
			v=${l#*" $2="}
			printf '%s\n' "${v%% *}" ;;
		esac ;;
	esac
}

# syst_has_decoder: mttdecode has its SyS-T layer (--syst).
syst_has_decoder() {
	mttdecode --help 2>&1 | grep -q -- '--syst'
}

# syst_hex STRING: STRING as lowercase hex.
syst_hex() {
	printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'
}

# syst_policy_dump FILE: a policy snapshot for mttdecode --policy, one
# node a line: "<node path> <first master> <last master> <first channel>
# <last channel>".
syst_policy_dump() {
	local d
	: >"$1"
	for d in $(find "$SP" -mindepth 1 -type d | sort); do
		echo "${d#"$SP"/} $(cat "$d/masters") $(cat "$d/channels")" >>"$1"
	done
}
