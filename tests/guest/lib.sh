# SPDX-License-Identifier: GPL-2.0
# Helpers for guest test scripts (busybox sh): source with
#   . /stm/tests/lib.sh
# A guest script prints only "ok - DESC", "not ok - DESC" and "# diag"
# lines on stdout (no numbers, no plan): the host numbers them, prefixes
# the script's name and prints the plan. Every tap_* returns 0 on ok.
# Do not call tap_* inside $(...): their output must reach stdout. Do not
# use "dmesg -c": the runner reads dmesg after you. Do not "set -e":
# a failing tap_* returns 1.
# The init runs each script from an empty /tmp/work/<script>/ with
# STM_TEST=<script> and STM_CHANNEL=/dev/ttyS1 set; PATH has /stm/bin.

STM_MODDIR=${STM_MODDIR:-/stm/modules}
STM_KMODDIR=${STM_KMODDIR:-/stm/kmod}
STM_LOG_PATTERNS=${STM_LOG_PATTERNS:-/stm/vm/log-patterns.txt}
STM_LOG_IGNORE=${STM_LOG_IGNORE:-/stm/vm/log-ignore.txt}
STM_BASELINE=${STM_BASELINE:-/stm/run/baseline-modules}

# ---- TAP output ------------------------------------------------------

# tap_diag MSG...: MSG as "# " lines (multi-line MSG is fine).
tap_diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# tap_ok DESC / tap_fail DESC: an unconditional result.
tap_ok() {
	echo "ok - $*"
}

tap_fail() {
	echo "not ok - $*"
	return 1
}

# tap_skip DESC REASON: ok with a SKIP directive (say why).
tap_skip() {
	echo "ok - $1 # SKIP ${2:-no reason given}"
}

# tap_check DESC CMD...: ok iff CMD exits 0; its output becomes diag on failure.
tap_check() {
	local _d _out _rc
	_d=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	if [ "$_rc" -eq 0 ]; then
		tap_ok "$_d"
		return 0
	fi
	tap_fail "$_d"
	tap_diag "command: $* (exit $_rc)"
	[ -z "$_out" ] || tap_diag "$_out"
	return 1
}

# tap_fails DESC CMD...: ok iff CMD exits non-zero.
tap_fails() {
	local _d _out _rc
	_d=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	if [ "$_rc" -ne 0 ]; then
		tap_ok "$_d"
		return 0
	fi
	tap_fail "$_d"
	tap_diag "command: $* (exit 0, expected failure)"
	[ -z "$_out" ] || tap_diag "$_out"
	return 1
}

# tap_eq DESC EXPECTED ACTUAL: string equality.
tap_eq() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
		return 0
	fi
	tap_fail "$1"
	tap_diag "expected: '$2'"
	tap_diag "     got: '$3'"
	return 1
}

# tap_match DESC ERE ACTUAL: ACTUAL matches the extended regex ERE.
tap_match() {
	if printf '%s\n' "$3" | grep -qE -- "$2"; then
		tap_ok "$1"
		return 0
	fi
	tap_fail "$1"
	tap_diag "expected to match: $2"
	tap_diag "got: '$3'"
	return 1
}

# tap_errno DESC ERRNAME CMD...: ok iff the first line CMD prints is
# exactly ERRNAME ("OK" or "EINVAL", ... as fsop and test helpers print).
tap_errno() {
	local _d _want _out _first
	_d=$1
	_want=$2
	shift 2
	_out=$("$@" 2>&1)
	# the first line, by expansion: no command (a fork and exec costs a
	# third of a second on the loaded debug kernel)
	_first=${_out%%"
"*}
	if [ "$_first" = "$_want" ]; then
		tap_ok "$_d"
		return 0
	fi
	tap_fail "$_d"
	tap_diag "command: $*"
	tap_diag "expected: $_want"
	tap_diag "     got: $_out"
	return 1
}

# ---- users -------------------------------------------------------------

# as_nobody CMD...: CMD as user nobody (uid 65534, busybox su), PATH
# kept; CMD is one shell command line.
as_nobody() {
	grep -q '^nobody:' /etc/passwd ||
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	su -s /bin/sh nobody -c "PATH=$PATH $*"
}

# ---- kernel command line ----------------------------------------------

# stm_param NAME [DEFAULT]: value of stm.NAME=VALUE on the kernel command line.
stm_param() {
	local _w
	for _w in $(cat /proc/cmdline); do
		case "$_w" in
		"stm.$1="*) echo "${_w#stm.$1=}"; return 0 ;;
		esac
	done
	echo "${2:-}"
}

# stress_n N: N scaled by the lane's stm.stress=PERCENT (kernel command
# line; else $STM_STRESS, for a run by hand on a board; else 100), at
# least 1.  A stress loop's count: the slow kernels (debug, RT) run each
# race fewer times than the fast ones, the same race in the same code, so
# a slow lane proves the same thing within its time (tests/lanes/*.t set
# it; Documentation/testing.rst).
stress_n() {
	local _n
	_n=$(($1 * $(stm_param stress "${STM_STRESS:-100}") / 100))
	[ "$_n" -ge 1 ] || _n=1
	echo "$_n"
}

# wait_until SECS CMD...: run CMD (quietly) every 0.1 s until it succeeds;
# 0 if it did, 1 if SECS seconds went by first (by the clock, looked at
# about once a second: a loaded guest takes far longer than 0.1 s a
# round, so counting rounds would stretch the guard).  SECS only
# guards against a hang: make it far longer than the slowest loaded
# machine needs, and let the test assert on what CMD checks, never on
# how long it took.
#
# The guard never outlasts the script: the init gives each script a
# deadline (STM_DEADLINE, seconds since the epoch, some time before the
# script's own limit) and a guard that would end past it is cut to end
# there, so a hang fails this check and the script still cleans up and
# reports, instead of being killed mid-way.
wait_until() {
	local _i=0 _end
	_end=$(($(date +%s) + $1))
	shift
	if [ -n "${STM_DEADLINE:-}" ] && [ "$STM_DEADLINE" -lt "$_end" ]; then
		echo "wait_until: guard cut by $((_end - STM_DEADLINE))s (the script's limit)" >&2
		_end=$STM_DEADLINE
	fi
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $((_i % 10)) = 0 ] && [ "$(date +%s)" -ge "$_end" ]; then
			return 1
		fi
		sleep 0.1
	done
}

# dump_stuck WHAT: a hang guard expired waiting for WHAT.  Put the
# kernel's view of it in the console log (every CPU's backtrace and the
# blocked tasks, via sysrq), so the failure can be read from CI output.
dump_stuck() {
	echo "# hang guard expired: $*; CPU backtraces and blocked tasks follow in the console log"
	echo "stm-test: hang guard expired: $*" >/dev/kmsg 2>/dev/null
	echo l >/proc/sysrq-trigger 2>/dev/null
	echo w >/proc/sysrq-trigger 2>/dev/null
}

# ---- modules -----------------------------------------------------------

# mod_loaded NAME: NAME is in /proc/modules.
mod_loaded() {
	grep -q "^$1 " /proc/modules
}

# mod_vermagic NAME: the kernel release /stm/modules/NAME.ko was built for.
mod_vermagic() {
	tr '\0' '\n' <"$STM_MODDIR/$1.ko" | sed -n 's/^vermagic=\([^ ]*\).*/\1/p' | head -n 1
}

# configfs_load: configfs.ko loaded and mounted on /sys/kernel/config.
configfs_load() {
	if ! mod_loaded configfs && [ ! -d /sys/module/configfs ]; then
		insmod "$STM_KMODDIR/configfs.ko" || return 1
	fi
	grep -q ' /sys/kernel/config configfs ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config
}

# mod_insmod NAME [PARAMS...]: load /stm/modules/NAME.ko with
# finit_module(2) only and print "OK" or the errno name (for tap_errno).
# Busybox insmod retries a failed load with init_module(2): a failing
# module init would run twice.
mod_insmod() {
	local _m
	_m=$1
	shift
	fsop insmod "$STM_MODDIR/$_m.ko" "$@"
}

# mod_load NAME [PARAMS...]: load /stm/modules/NAME.ko (diag on failure).
mod_load() {
	local _m _ko _out
	_m=$1
	shift
	_ko=$STM_MODDIR/$_m.ko
	if [ ! -f "$_ko" ]; then
		tap_diag "mod_load: $_ko does not exist"
		return 1
	fi
	_out=$(fsop insmod "$_ko" "$@" 2>&1)
	if [ "$_out" != OK ]; then
		tap_diag "insmod $_m $*: $_out"
		return 1
	fi
}

# mod_unload NAME: rmmod NAME (diag on failure).
mod_unload() {
	local _out
	if ! _out=$(rmmod "$1" 2>&1); then
		tap_diag "rmmod $1: $_out"
		return 1
	fi
}

# stack_load [SWSTM_PARAMS...]: configfs, stm_core, stm_p_basic (each
# unless loaded already), then swstm with the given parameters.
stack_load() {
	configfs_load || return 1
	mod_loaded stm_core || mod_load stm_core || return 1
	mod_loaded stm_p_basic || mod_load stm_p_basic || return 1
	mod_load swstm "$@"
}

# mods_extra: modules loaded now that were not loaded when the VM booted.
mods_extra() {
	awk -v base="$STM_BASELINE" '
		BEGIN { while ((getline m < base) > 0) keep[m] = 1 }
		!($1 in keep) { print $1 }' /proc/modules
}

# stm_class_upstream: the STM class under test is the kernel's own (the
# 6.12 lane boots with stm.class=upstream), not ours.  A test whose
# expectation differs there branches on it and says which kernel said
# what (Documentation/abi.rst lists the differences).
stm_class_upstream() {
	grep -qw 'stm.class=upstream' /proc/cmdline
}

# sources_unlink: unlink every STM source from its device.
sources_unlink() {
	local _l
	for _l in /sys/class/stm_source/*/stm_source_link; do
		[ -w "$_l" ] && echo none >"$_l" 2>/dev/null
	done
	return 0
}

# policies_left: the STP policy directories that exist now.
policies_left() {
	find /sys/kernel/config/stp-policy -mindepth 1 -maxdepth 1 -type d 2>/dev/null
}

# policies_remove: rmdir every STP policy directory, deepest first.
policies_remove() {
	find /sys/kernel/config/stp-policy -mindepth 1 -type d 2>/dev/null | sort -r |
		while read -r _d; do rmdir "$_d" 2>/dev/null; done
	return 0
}

# mods_unload_all: rmmod every module loaded since boot, users first
# (a module is removed once nothing uses it). 0 iff none is left.
# The policies go first: upstream's class pins a device's driver while a
# policy is bound to it, and a script killed half-way leaves its policy
# behind (the next script's mkdir would find it).
mods_unload_all() {
	local _pass _m
	_pass=0
	policies_remove
	while [ -n "$(mods_extra)" ] && [ "$_pass" -lt 10 ]; do
		for _m in $(awk -v base="$STM_BASELINE" '
			BEGIN { while ((getline m < base) > 0) keep[m] = 1 }
			!($1 in keep) && $3 == 0 { print $1 }' /proc/modules); do
			rmmod "$_m" 2>/dev/null
		done
		_pass=$((_pass + 1))
	done
	[ -z "$(mods_extra)" ]
}

# stack_unload: unload swstm, dummy_stm, stm_p_basic, stm_core and any
# other module loaded since boot, in reverse dependency order.
stack_unload() {
	mods_unload_all && return 0
	tap_diag "stack_unload: still loaded: $(mods_extra | tr '\n' ' ')"
	return 1
}

# ---- kernel log ----------------------------------------------------------

# dmesg_bad: dmesg lines matching the host's log patterns (not ignored).
dmesg_bad() {
	if [ -s "$STM_LOG_IGNORE" ]; then
		dmesg | grep -E -f "$STM_LOG_PATTERNS" | grep -v -E -f "$STM_LOG_IGNORE"
	else
		dmesg | grep -E -f "$STM_LOG_PATTERNS"
	fi
}

# tap_dmesg_clean DESC: ok iff dmesg (since this script started) shows
# no WARNING/BUG/lockdep/KASAN/... line; the kernel log is diag otherwise.
tap_dmesg_clean() {
	local _bad
	_bad=$(dmesg_bad)
	if [ -z "$_bad" ]; then
		tap_ok "$1"
		return 0
	fi
	tap_fail "$1"
	tap_diag "$(dmesg | tail -n 60)"
	return 1
}

# ---- files to the host ----------------------------------------------------

# export_file GUESTPATH NAME: send a file to the host over the test
# channel (base64 between marker lines, written straight to $STM_CHANNEL,
# so it works inside $(...) too). The host writes it to
# <outdir>/exports/NAME and checks size and sha256 (one TAP line each);
# host checks (tests/vm/host-checks/*.sh) read it there.
# NAME: [A-Za-z0-9._-] only, not starting with a dot.
export_file() {
	if [ -n "${STM_CHANNEL:-}" ]; then
		_export_file "$@" >>"$STM_CHANNEL"
	else
		_export_file "$@"
	fi
}

_export_file() {
	local _size _sum
	if [ ! -r "$1" ]; then
		tap_diag "export_file: cannot read $1"
		return 1
	fi
	case "$2" in
	'' | *[!A-Za-z0-9._-]* | .*) tap_diag "export_file: bad name '$2'"; return 1 ;;
	esac
	_size=$(wc -c <"$1" | tr -d ' ')
	_sum=$(sha256sum <"$1" | cut -d' ' -f1)
	printf '\n@@stm export %s %s %s %s\n' "$2" "$_size" "$_sum" "${STM_TEST:-unknown}"
	base64 "$1"
	printf '\n@@stm export-end %s\n' "$2"
}
