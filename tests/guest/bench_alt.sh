#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a user would trace with instead (make bench, in the VM; run by
# tests/guest/bench.sh after the write-path figures, or alone with
# STM_BENCH_ALT=only tests/vm/bench.sh).  One program, alt_bench, pinned
# to CPU 0, sends N events (after N/10 untimed) of 16, 64, 256 and 1024
# bytes, the same payload, through:
#
#   mtt-write  libmtt, MTT_IO=write: one write(2) per MTT frame into
#              swstm capturing (p_basic; the sink drained and decoded
#              with mttdecode after each run)
#   mtt-mmap   libmtt, MTT_IO=mmap: the frame stored into the channel's
#              mapped window of dummy_stm mmiosz=4096 (swstm has no MMIO;
#              dummy_stm's is memory: nothing is captured or counted)
#   marker     write(2) to ftrace's trace_marker, tracing on (nop tracer)
#   lttng      an LTTng-UST tracepoint with a byte-sequence field into an
#              active session (lttng-sessiond as root, --no-kernel; a
#              session a run: create, enable-channel -u, enable-event -u,
#              start; stop, list, destroy), counted with babeltrace2
#   clock      no event: clock_gettime(CLOCK_MONOTONIC) alone, the read
#              libmtt and LTTng-UST make for each event's timestamp (in
#              this guest the clock source is the HPET, an emulated device)
#
# Every tracer has a buffer for a whole run (swstm's sink, ftrace's
# per-CPU buffer, LTTng's sub-buffers), so none has to drop; the loss
# counts say whether one did: "kept" is what the trace holds (mttdecode's
# frames, ftrace's entries, babeltrace2's events), "lost" what the tracer
# reports (swstm's drops, mttdecode's loss records, libmtt's refusals;
# ftrace's overrun and dropped events; LTTng's discarded events).  Rounds
# alternate the methods (each round starts with the next); every ratio is
# the peer's ns/event over libmtt's in the same round, printed as median
# and range over the rounds.  Prints figures only; asserts nothing.
#
# Kernel command line (tests/vm/bench.sh sets them): stm.alt_n=N [4000],
# stm.alt_rounds=R [5].
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

N=$(stm_param alt_n 4000)
ROUNDS=$(stm_param alt_rounds 5)
SIZES="16 64 256 1024"
METHODS="mtt-write mtt-mmap marker lttng clock"
W=$SW_WORK
RES=$W/alt.res
T=/sys/kernel/tracing
: >$RES

echo "# what a user would trace with instead: $N events (+$((N / 10)) untimed) of each size,"
echo "# $ROUNDS rounds, one writer on CPU 0, $(grep -c ^processor /proc/cpuinfo) CPUs, $(uname -r),"
echo "# clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

# ---- libmtt: swstm capturing, dummy_stm with a page of MMIO a channel -----
stack_load sink_size=67108864 || echo "# bench_alt: cannot load the stack"
mod_load dummy_stm nr_dummies=1 master_min=0 master_max=0 nr_channels=16 \
	mmiosz=4096 || echo "# bench_alt: cannot load dummy_stm mmiosz=4096"
sw_policy swstm.0.alt && sw_node swstm.0.alt altbench "4 4" "0 31"
sw_policy dummy_stm.0.alt && sw_node dummy_stm.0.alt altbench "0 0" "0 15"

# ---- ftrace: trace_marker with a per-CPU buffer for a whole run ----------
[ -e $T/trace ] || mount -t tracefs nodev $T
echo nop >$T/current_tracer
bufkb=$(sed 's/.*expanded: //; s/[^0-9].*//' $T/buffer_size_kb)
echo 16384 >$T/buffer_size_kb
echo 1 >$T/tracing_on

# ---- LTTng-UST: the session daemon, as root, userspace only --------------
LTTNG=
LTTNG_WHY=
if ! command -v alt_bench_lttng >/dev/null || ! command -v lttng-sessiond >/dev/null ||
	! command -v lttng >/dev/null; then
	LTTNG_WHY="not in the initramfs (tests/vm/bench.sh carries it when liblttng-ust-dev, lttng-tools and babeltrace2 are installed)"
else
	# the app waits for its registration with the session daemon
	export HOME=/root LTTNG_UST_REGISTER_TIMEOUT=-1
	mkdir -p /var/run $W/bt2
	# babeltrace2's plugins, carried into /stm/bin, copied to a folder of
	# their own (it loads no symbolic link); the session schema where
	# lttng-sessiond is told to look
	for f in /stm/bin/babeltrace-plugin-*.so; do
		[ -e "$f" ] && cp "$f" $W/bt2/
	done
	export BABELTRACE_PLUGIN_PATH=$W/bt2 LTTNG_SESSION_CONFIG_XSD_PATH=/stm/bin
	if lttng-sessiond --no-kernel --consumerd64-path=/stm/bin/lttng-consumerd \
		--pidfile=$W/sessiond.pid --daemonize >$W/sessiond.log 2>&1 &&
		wait_until 60 lttng list; then
		LTTNG=1
		echo "# lttng: $(lttng --version | head -n 1), sessiond as root, --no-kernel"
	else
		LTTNG_WHY="lttng-sessiond did not start: $(tr '\n' ' ' <$W/sessiond.log)"
	fi
fi
[ -n "$LTTNG" ] || echo "# lttng: $LTTNG_WHY"

# alt_run ROUND METHOD SIZE: one run, its result line into $RES
alt_run() {
	local r=$1 m=$2 s=$3 line kept lost d0 out=$W/run.out
	case $m in
	mtt-write)
		d0=$(sw_attr 0 drops)
		alt_bench -m $m -d swstm.0 -i altbench -s $s -n $N >$out 2>&1
		sw_drain $W/mw.stp >/dev/null
		mttdecode --format json $W/mw.stp 2>/dev/null | awk -v s=$s '
			/"cmd":"RAW"/ {
				ti = $0; sub(/.*"type_info":/, "", ti); sub(/[,}].*/, "", ti)
				if (ti % 65536 == s) k++
			}
			/"kind":"loss"/ { l++ }
			END { print k + 0, l + 0 }' >$W/count
		read kept lost <$W/count
		lost=$((lost + $(sw_attr 0 drops) - d0))
		rm -f $W/mw.stp
		;;
	mtt-mmap)
		alt_bench -m $m -d dummy_stm.0 -i altbench -s $s -n $N >$out 2>&1
		kept=-
		lost=0
		;;
	clock)
		alt_bench -m $m -s $s -n $N >$out 2>&1
		kept=-
		lost=0
		;;
	marker)
		echo >$T/trace
		alt_bench -m $m -o $T/trace_marker -s $s -n $N >$out 2>&1
		kept=$(cat $T/per_cpu/cpu*/stats |
			awk '/^entries:/ { n += $2; f = 1 } END { print f ? n : "?" }')
		lost=$(cat $T/per_cpu/cpu*/stats |
			awk '/^overrun:/ || /^dropped events:/ { n += $NF; f = 1 } END { print f ? n : "?" }')
		;;
	lttng)
		[ -n "$LTTNG" ] || return 0
		rm -rf $W/lt
		lttng create altb --output=$W/lt >$W/lttng.log 2>&1 &&
			lttng enable-channel -u -s altb --subbuf-size=1M --num-subbuf=16 ch >>$W/lttng.log 2>&1 &&
			lttng enable-event -u -s altb -c ch altbench:event >>$W/lttng.log 2>&1 &&
			lttng start altb >>$W/lttng.log 2>&1 ||
			{ echo "# lttng session failed: $(tr '\n' ' ' <$W/lttng.log)"; lttng destroy altb >/dev/null 2>&1; return 0; }
		alt_bench_lttng -m $m -s $s -n $N >$out 2>&1
		lttng stop altb >>$W/lttng.log 2>&1
		# "?" when lttng list says nothing of discarded events
		lost=$(lttng list altb -c ch 2>/dev/null |
			awk '/Discarded events:/ || /Lost packets:/ { n += $NF; f = 1 }
				END { print f ? n : "?" }')
		lttng destroy altb >>$W/lttng.log 2>&1
		kept=$(babeltrace2 $W/lt -c sink.utils.counter 2>$W/bt2.err |
			awk '/ Event messages$/ { print $1 }')
		[ -n "$kept" ] || { kept="?"; echo "# babeltrace2: $(head -n 3 $W/bt2.err | tr '\n' ' ')"; }
		rm -rf $W/lt
		;;
	esac
	line=$(grep "^alt $m $s " $out)
	if [ -z "$line" ]; then
		echo "# $m $s B: $(head -n 3 $out | tr '\n' ' ')"
		return 0
	fi
	echo "$line" | awk -v r=$r -v kept=$kept -v lost=$lost '{
		for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		on = ("on" in v) ? v["on"] : "-"
		if (lost ~ /^[0-9]+$/) lost += v["failed"]
		print "R", r, $2, $3, v["ns"], v["sent"], kept, lost, on
	}' >>$RES
}

r=1
while [ $r -le "$ROUNDS" ]; do
	# each round starts with the next method
	ms=$(echo $METHODS | awk -v r=$r '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
	for s in $SIZES; do
		for m in $ms; do
			alt_run $r $m $s
		done
	done
	r=$((r + 1))
done

awk -v rounds="$ROUNDS" '
	# sorted copy of a[1..n] into a, in place (insertion sort)
	function isort(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
			a[j + 1] = t
		}
	}
	# "median (min to max)" of a[1..n], with fmt for each number
	function mmr(a, n, fmt, pre,   m) {
		if (!n) return "-"
		isort(a, n)
		m = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		return sprintf(pre fmt " (" pre fmt " to " pre fmt ")", m, a[1], a[n])
	}
	$1 == "R" {
		r = $2; m = $3; s = $4
		ns[r, m, s] = $5
		sent[m, s] += $6
		# "-": not counted (mtt-mmap); "?": the count could not be read
		if ($7 == "-") nokept[m, s] = 1
		else if ($7 !~ /^[0-9]+$/) unkept[m, s] = 1
		else kept[m, s] += $7
		if ($8 !~ /^[0-9]+$/) unlost[m, s] = 1; else lost[m, s] += $8
		if ($9 == "0") off[m, s]++
		have[m, s] = 1
		if (!(s in seen)) { seen[s] = 1; sizes[++ns_] = s }
	}
	END {
		nm = split("mtt-write mtt-mmap marker lttng clock", M, " ")
		isort(sizes, ns_)
		print "# method     size  ns/event: median (range)     kept/sent      lost"
		for (i = 1; i <= ns_; i++) {
			s = sizes[i]
			for (j = 1; j <= nm; j++) {
				m = M[j]
				if (!((m, s) in have)) continue
				n = 0
				for (r = 1; r <= rounds; r++)
					if ((r, m, s) in ns) v[++n] = ns[r, m, s]
				k = ((m, s) in nokept) ? "-" : ((m, s) in unkept) ? "?" : kept[m, s]
				printf "alt %-9s %4d B  %-28s  %6s/%-6d  %s%s\n", m, s,
					mmr(v, n, "%.0f", ""), k, sent[m, s],
					((m, s) in unlost) ? "?" : lost[m, s],
					((m, s) in off) ? sprintf("  (tracepoint off in %d runs)", off[m, s]) : ""
			}
		}
		print "# ratio: the peer'"'"'s ns/event over libmtt'"'"'s, round by round (above 1: libmtt"
		print "# is faster); median (range) over the rounds"
		split("mtt-write marker mtt-write lttng mtt-mmap marker mtt-mmap lttng", P, " ")
		for (i = 1; i <= ns_; i++) {
			s = sizes[i]
			line = sprintf("ratio %4d B", s)
			for (j = 1; j <= 8; j += 2) {
				a = P[j]; b = P[j + 1]; n = 0
				for (r = 1; r <= rounds; r++)
					if ((r, a, s) in ns && (r, b, s) in ns && ns[r, a, s] > 0)
						v[++n] = ns[r, b, s] / ns[r, a, s]
				if (n) line = line sprintf("  %s/%s %s", a, b, mmr(v, n, "%.2f", "x"))
			}
			print line
		}
	}' $RES

# ---- clean up --------------------------------------------------------------
if [ -n "$LTTNG" ]; then
	kill "$(cat $W/sessiond.pid)"
	wait_until 30 sh -c '! pidof lttng-sessiond && ! pidof lttng-consumerd'
fi
echo 0 >$T/tracing_on
echo "$bufkb" >$T/buffer_size_kb
echo >$T/trace
sw_finish
exit 0
