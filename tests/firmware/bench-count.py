# SPDX-License-Identifier: GPL-2.0
# bench-count.py - gdb (gdb-multiarch) commands for make bench-firmware
# (tests/firmware/bench.sh): count the instructions a firmware executes
# in one call of a function, stepping it under QEMU's gdbstub.
#
#   bench-count NAME SPEC HITS [EXCLUDE...] [OPTION...]
#
# SPEC is a list of functions, comma-separated; HITS a list of hit
# numbers, comma-separated (1 = a function's first call from now on).
# At each of those calls of each function, the call is stepped from its
# first instruction until it returns to its caller (pc back at the
# return address, sp back where it was), with the core's interrupt
# sources disabled (not its global mask, which the code stepped may save
# and restore: QEMU does not keep every core's interrupts out of a
# single step), so the count is the call's own path.  One line is
# printed:
#
#   count NAME FUNC HIT INSNS EXCLUDED EST BYTES
#
# INSNS the instructions executed, but for those of the calls of the
# EXCLUDE functions (the board's byte writer, which a UART's speed or a
# DMA decides), which run without being stepped; EXCLUDED how many such
# calls were made; EST a cycle estimate for a Cortex-M4 with
# zero-wait-state memory (1 an instruction, 1 more a load or store, 2
# more a pipeline refill after a jump; "-" on other cores), for the
# instructions counted.
#
# Options (quote one with spaces, "--if=$r0 == 1"):
#
#   --if=EXPR     only the calls for which EXPR, at the function's first
#                 instruction, is true are hits (a component's handle, a
#                 type: a call from an interrupt handler does not move
#                 the hits); EXPR may use the argument registers
#   --set=EXPR    at each hit, before stepping: "set var EXPR" (an
#                 argument changed, e.g. a hint made NULL); repeatable
#   --bytes=EXPR  EXPR at the entry of each EXCLUDE call (its length
#                 argument), summed: the line gets an 8th field, BYTES
#                 (the bytes handed to the board's writer), else "-"
#
#   bench-set EXPR    evaluate EXPR (gdb "set var"), e.g. a filter word
import gdb


def pc():
    return int(gdb.parse_and_eval("$pc")) & 0xffffffff


def sp():
    return int(gdb.parse_and_eval("$sp")) & 0xffffffff


def is_arm():
    return gdb.selected_frame().architecture().name().startswith("arm")


def ret_addr():
    if is_arm():
        return int(gdb.parse_and_eval("$lr")) & 0xfffffffe
    return int(gdb.parse_and_eval("$ra")) & 0xffffffff


def addr_of(name):
    return int(gdb.parse_and_eval("(unsigned long)&%s" % name)) & 0xfffffffe


MEM = ("ldr", "str", "ldm", "stm", "push", "pop")   # Thumb loads, stores


NVIC_ISER = 0xE000E100   # Cortex-M: interrupt set-enable, 8 words
NVIC_ICER = 0xE000E180   # ... and clear-enable


def irqs_off():
    """Disable the core's interrupt sources (not the global mask, which
    the code counted may save and restore): the call's own path only.
    Returns what irqs_on() needs to enable them again."""
    if is_arm():
        inf = gdb.selected_inferior()
        saved = bytes(inf.read_memory(NVIC_ISER, 32))
        inf.write_memory(NVIC_ICER, b"\xff" * 32)
        return saved
    saved = int(gdb.parse_and_eval("$mie"))
    gdb.execute("set var $mie = 0")
    return saved


def irqs_on(saved):
    if is_arm():
        gdb.selected_inferior().write_memory(NVIC_ISER, saved)
    else:
        gdb.execute("set var $mie = %d" % saved)


def run_to(ret, sp_ret):
    """Continue until pc is ret with sp at sp_ret."""
    b = gdb.Breakpoint("*0x%x" % ret, internal=True, temporary=False)
    while True:
        gdb.execute("continue", to_string=True)
        if pc() == ret and sp() == sp_ret:
            break
    b.delete()


def step_call(excl, nbytes):
    """Step the call whose first instruction is at pc until it returns:
    (insns, excluded calls, est, bytes); the calls of excl run without
    being stepped or counted; nbytes (or None), evaluated at each of their
    entries, summed into bytes."""
    arch = gdb.selected_frame().architecture()
    arm = is_arm()
    ret, sp0 = ret_addr(), sp()
    n = out = est = nb = 0
    while True:
        p = pc()
        if p in excl:
            out += 1
            if nbytes is not None:
                nb += int(gdb.parse_and_eval(nbytes))
            run_to(ret_addr(), sp())
            if pc() == ret and sp() == sp0:
                break
            continue
        ins = arch.disassemble(p)[0]
        mnem = ins["asm"].split()[0] if ins["asm"] else ""
        est += 1 + (1 if arm and mnem.startswith(MEM) else 0)
        n += 1
        gdb.execute("stepi", to_string=True)
        q = pc()
        if arm and q != p + ins["length"]:
            est += 2
        if q == ret and sp() == sp0:
            break
    return n, out, est if arm else None, nb if nbytes is not None else None


class Count(gdb.Command):
    def __init__(self):
        super().__init__("bench-count", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        a = gdb.string_to_argv(arg)
        opts = [o for o in a[3:] if o.startswith("--")]
        cond = [o[5:] for o in opts if o.startswith("--if=")]
        sets = [o[6:] for o in opts if o.startswith("--set=")]
        nbytes = [o[8:] for o in opts if o.startswith("--bytes=")]
        nbytes = nbytes[-1] if nbytes else None
        name, funcs = a[0], a[1].split(",")
        hits = sorted(int(h) for h in a[2].split(","))
        excl = set(addr_of(f) for f in a[3:] if not f.startswith("--"))
        where = {addr_of(f): f for f in funcs}
        bps = [gdb.Breakpoint("*0x%x" % x, internal=True) for x in where]
        seen = {f: 0 for f in funcs}
        while min(seen.values()) < hits[-1]:
            gdb.execute("continue", to_string=True)
            f = where.get(pc())
            if f is None:
                continue
            if cond and not all(bool(gdb.parse_and_eval(c)) for c in cond):
                continue
            seen[f] += 1
            hit = seen[f]
            if hit not in hits:
                continue
            for b in bps:
                b.enabled = False
            for e in sets:
                gdb.execute("set var " + e)
            saved = irqs_off()
            n, out, est, nb = step_call(excl, nbytes)
            irqs_on(saved)
            for b in bps:
                b.enabled = True
            print("count %s %s %d %d %d %s %s" % (
                name, f, hit, n, out, "-" if est is None else est,
                "-" if nb is None else nb))
        for b in bps:
            b.delete()


class Set(gdb.Command):
    def __init__(self):
        super().__init__("bench-set", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        gdb.execute("set var " + arg)


Count()
Set()
