# SPDX-License-Identifier: GPL-2.0
# Sourced by the lane entries (tests/lanes/*.t): run a lane's setup step;
# on failure print a one-test TAP failure on the real stdout (fd 3, also
# from inside $(...)) and fail.  bash.
#   exec 3>&1; x=$(lane_step DESC CMD...) || exit 1
lane_step() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>"$STM_LANE_LOG")
	rc=$?
	if [ $rc -ne 0 ]; then
		{
			echo "1..1"
			echo "not ok 1 - $desc (exit $rc)"
			tail -n 40 "$STM_LANE_LOG" | sed 's/^/# /'
		} >&3
		return 1
	fi
	printf '%s\n' "$out"
}
