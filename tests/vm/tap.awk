# SPDX-License-Identifier: GPL-2.0
# Turn the VM suite's raw stream into numbered TAP (any POSIX awk).
#
# Input: the guest's ttyS1 lines (see tests/guest/init), then lines the
# host adds:
#   @@host vm-exit RC       the VM is gone (RC 124/137: killed on timeout)
#   @@host start NAME       later results belong to NAME (a host section)
#   @@host end NAME         end of that section
# Result lines "ok - D" / "not ok - D" (numbers, if any, are dropped) are
# renumbered and prefixed with the section ("t-00-smoke.sh: D"); "#" lines
# pass through; other text becomes "# NAME| text"; the plan comes last.
# Unless verbose=1, failures and the diagnostics after them (at most 100
# lines each) also go to stderr, so a plain (non -v) prove shows them.
#
# Variables: expect="a.sh b.sh" (the guest scripts that must report),
# timeout=SECS (for the message), verbose=0|1.

function out(line) {
	print line
	fflush()
}

function err(line) {
	if (verbose || ++errlines > 100)
		return
	print line > "/dev/stderr"
	fflush("/dev/stderr")
}

function result(isok, desc) {
	n++
	if (sect != "")
		desc = sect ": " desc
	if (isok) {
		out("ok " n " - " desc)
		failing = 0
	} else {
		out("not ok " n " - " desc)
		errlines = 0
		err("#   Failed test " n " - " desc)
		failing = 1
	}
}

function diag(text) {
	out(text)
	if (failing)
		err(text)
}

function vm_exit(rc,   i, nexp, names, s) {
	exited = 1
	sect = ""
	nexp = split(expect, names, " ")
	for (i = 1; i <= nexp; i++) {
		s = names[i]
		if (!(s in started))
			result(0, s ": never ran (VM died or timed out before it)")
		else if (!(s in ended))
			result(0, s ": did not finish (VM died or timed out in it)")
	}
	if (rc == 124 || rc == 137)
		result(0, "VM finished within " timeout "s (killed on timeout)")
	else if (!done)
		result(0, "VM finished: guest init completed (QEMU exit " rc ")")
	else if (rc != 0)
		result(0, "VM finished: QEMU exited " rc)
	else
		result(1, "VM finished: guest init completed")
}

{
	sub(/\r+$/, "")
	line = $0
}

# Marker lines end an export body, whatever happened inside it.
line ~ /^@@stm / {
	in_export = 0
	if ($2 == "start") {
		sect = $3
		started[$3] = 1
		failing = 0
	} else if ($2 == "end") {
		ended[$3] = 1
		sect = ""
	} else if ($2 == "export") {
		in_export = 1
	} else if ($2 == "done") {
		done = 1
	}
	next
}
in_export { next }
line ~ /^@@host / {
	if ($2 == "vm-exit")
		vm_exit($3 + 0)
	else if ($2 == "start") {
		sect = $3
		failing = 0
	} else if ($2 == "end")
		sect = ""
	next
}
line ~ /^[ \t]*$/ { next }
line ~ /^(not )?ok([ \t]|$)/ {
	isok = (line !~ /^not /)
	desc = line
	sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]*)?/, "", desc)
	result(isok, desc)
	next
}
line ~ /^#/ { diag(line); next }
line ~ /^Bail out!/ { result(0, line); next }
{
	diag("# " (sect == "" ? "guest" : sect) "| " line)
}
END {
	if (!exited)
		result(0, "VM exit reported by the host (the run was cut short)")
	if (n == 0)
		result(0, "no test results at all")
	out("1.." n)
}
