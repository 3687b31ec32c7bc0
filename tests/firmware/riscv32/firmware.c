// SPDX-License-Identifier: GPL-2.0
/*
 * firmware.c - the RISC-V MTT test firmware (tests/firmware/riscv-mtt.t,
 * Documentation/firmware-mtt.rst): MTT frames in RISC-V trace
 * encapsulation on the 16550 UART of QEMU's virt machine.
 *
 * Components "app" and "sensor" trace from the main program on srcID 1,
 * "tick" from the machine timer interrupt on srcID 2 (META frames and
 * command replies go out on srcID 1).  The work is fixed: ROUNDS rounds
 * of one trace of app and of sensor at each level of LEVELS and one
 * mtt_print, while the timer interrupt traces TICKS ticks.  Then a STOP
 * frame on srcID 1 marks the end and the firmware powers the machine
 * off (the virt machine's test device).
 *
 * Boot-time setting: when the word at CONFIG_ADDR (QEMU: -device
 * loader,addr=0x87fff000,data=1,data-len=4) has bit 0 set, the firmware
 * reads commands from the UART (filters, answered) until START.  Bit 1
 * (hold): before writing anything, it waits for the host's first byte
 * (left in the UART for the command reader): QEMU drops what a pty is
 * given while nothing has it open, and a host that sends once it has
 * the port open gets every byte (tests/firmware/session.t: data=7).  Bit
 * 2 (stay): after the work and its STOP frame the firmware idles
 * instead of powering off, so a pty's reader is not hung up before it
 * has read the end.
 *
 * With bit 2, once the work and its STOP frame are written, the UART's
 * receive interrupt takes the host's bytes: commands, answered as
 * before, and the ping byte (../ping.h): two INFO frames of component
 * "ping" on srcID 1, "received" and "pong" (tests/firmware/multi.t).
 */
#include <stdint.h>

#include "mttfw/mttfw.h"
#include "mttfw/rvencap.h"
#include "../mtt_rounds.h"
#include "../ping.h"

#define UART		0x10000000u
#define UART_RBR	0
#define UART_THR	0
#define UART_IER	1
#define IER_ERBFI	0x01u
#define UART_LSR	5
#define LSR_DR		0x01u
#define LSR_THRE	0x20u
#define LSR_TEMT	0x40u
#define MTIME		0x0200bff8u
#define MTIMECMP	0x02004000u
#define TEST_DEV	0x00100000u
#define TEST_PASS	0x5555u
#define CONFIG_ADDR	0x87fff000u
#define CONFIG_WAIT	0x1u
#define CONFIG_HOLD	0x2u
#define CONFIG_STAY	0x4u

#define ROUNDS		3
#define TICKS		5
#define TICK_PERIOD	2000u		/* mtime units (10 MHz) */
#define TARGET		0x50u		/* this core's MTT target id */

/* the virt machine's PLIC: UART0 is its source 10; context 0 is hart
 * 0's machine mode */
#define PLIC		0x0c000000u
#define PLIC_PRIO(n)	(PLIC + 4u * (n))
#define PLIC_ENABLE0	(PLIC + 0x2000u)
#define PLIC_THRESH0	(PLIC + 0x200000u)
#define PLIC_CLAIM0	(PLIC + 0x200004u)
#define UART_IRQ	10u

#define MIE_MTIE	0x80u
#define MIE_MEIE	0x800u
#define MSTATUS_MIE	0x8u
#define MCAUSE_MTI	0x80000007u
#define MCAUSE_MEI	0x8000000bu

static volatile uint8_t *const uart = (volatile uint8_t *)UART;

/* the C library's two functions the library uses (no libc linked) */
void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memset(void *d, int c, size_t n)
{
	uint8_t *dp = d;

	while (n--)
		*dp++ = (uint8_t)c;
	return d;
}

static uint64_t mtime(void)
{
	volatile uint32_t *t = (volatile uint32_t *)MTIME;
	uint32_t hi, lo;

	do {
		hi = t[1];
		lo = t[0];
	} while (hi != t[1]);
	return (uint64_t)hi << 32 | lo;
}

static void set_mtimecmp(uint64_t v)
{
	volatile uint32_t *c = (volatile uint32_t *)MTIMECMP;

	c[1] = 0xffffffffu;	/* no spurious match meanwhile */
	c[0] = (uint32_t)v;
	c[1] = (uint32_t)(v >> 32);
}

static void uart_write(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	while (n--) {
		while (!(uart[UART_LSR] & LSR_THRE))
			;
		uart[UART_THR] = *p++;
	}
}

static unsigned long irq_save(void *ctx)
{
	unsigned long m;

	(void)ctx;
	__asm__ volatile("csrrci %0, mstatus, 8" : "=r"(m) : : "memory");
	return m;
}

static void irq_restore(void *ctx, unsigned long m)
{
	(void)ctx;
	if (m & MSTATUS_MIE)
		__asm__ volatile("csrsi mstatus, 8" : : : "memory");
}

static uint64_t link_now(void *ctx)
{
	(void)ctx;
	return mtime();
}

/* frames' TS64 in ns: mtime counts at 10 MHz */
static uint64_t now_ns(void *ctx)
{
	(void)ctx;
	return mtime() * 100u;
}

static struct mttfw_rv_link link = {
	.write = uart_write, .now = link_now,
	.lock = irq_save, .unlock = irq_restore,
	.srcid_bits = 8, .ts_bytes = 4, .sync_interval = 1024,
};
static struct mttfw_rv_src src_main = { .link = &link, .srcid = 1 };
static struct mttfw_rv_src src_irq = { .link = &link, .srcid = 2 };
static const struct mttfw_out out_irq = { mttfw_rv_put, &src_irq };

static struct mttfw_comp comps[4];
struct mttfw mttfw_default;

static mtt_comp_handle_t app, sensor, tick;
static volatile unsigned int ticks;
static struct fw_ping ping;

#define REG32(a)	(*(volatile uint32_t *)(a))

/* the UART's receive interrupt, through the PLIC: once the work is
 * done (its srcID 1 frames cannot be cut by the interrupt's) */
static void uart_irq_init(void)
{
	REG32(PLIC_PRIO(UART_IRQ)) = 1;
	REG32(PLIC_ENABLE0) = 1u << UART_IRQ;
	REG32(PLIC_THRESH0) = 0;
	uart[UART_IER] = IER_ERBFI;
	__asm__ volatile("csrs mie, %0" : : "r"(MIE_MEIE));
}

/* the host's bytes: a ping (../ping.h) or the command receiver's */
static void uart_irq(void)
{
	uint32_t id = REG32(PLIC_CLAIM0);

	while (uart[UART_LSR] & LSR_DR) {
		uint8_t c = uart[UART_RBR];

		if (!fw_ping(&ping, &mttfw_default, c))
			mttfw_rx(&mttfw_default, &c, 1);
	}
	REG32(PLIC_CLAIM0) = id;
}

void trap(uint32_t cause);
void trap(uint32_t cause)
{
	unsigned int n;

	if (cause == MCAUSE_MEI) {
		uart_irq();
		return;
	}
	if (cause != MCAUSE_MTI)
		return;
	n = ticks + 1;
	mtt_trace(tick, MTT_LEVEL_DEBUG, MTT_TRACEITEM_UINT32, &n, "tick");
	ticks = n;
	if (n < TICKS)
		set_mtimecmp(mtime() + TICK_PERIOD);
	else
		set_mtimecmp(~0ull);
}

static void wait_start(void)
{
	for (;;) {
		uint8_t c;

		while (!(uart[UART_LSR] & LSR_DR))
			;
		c = uart[UART_RBR];
		if (mttfw_rx(&mttfw_default, &c, 1) & MTTFW_RX_START)
			return;
	}
}

static void stop_frame(void)
{
	uint8_t f[MTT_FRAME_PREAMBLE_BYTES];
	size_t n = mttfw_frame(f, TARGET, MTT_FRAME_CMD_STOP, 0, 0, 0, 0, 0,
			       NULL, NULL);

	mttfw_rv_put(&src_main, f, n);
}

int main(void)
{
	const uint32_t config = *(volatile uint32_t *)CONFIG_ADDR;
	const struct mttfw_config cfg = {
		.target = TARGET,
		.out = { mttfw_rv_put, &src_main },
		.now_ns = now_ns,
		.comps = comps,
		.ncomps = 4,
	};

	if (config & CONFIG_HOLD)
		while (!(uart[UART_LSR] & LSR_DR))
			;
	mttfw_init(&mttfw_default, &cfg);
	mtt_open(MTT_COMPONENTID_ANY, "app", &app);
	mtt_open(MTT_COMPONENTID_ANY, "sensor", &sensor);
	mtt_open(MTT_COMPONENTID_ANY, "tick", &tick);
	mttfw_set_out(tick, &out_irq);
	if (config & CONFIG_WAIT)
		wait_start();

	set_mtimecmp(mtime() + TICK_PERIOD);
	__asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE));
	__asm__ volatile("csrsi mstatus, 8");
	mtt_rounds(app, sensor, ROUNDS);
	while (ticks < TICKS)
		__asm__ volatile("wfi");
	__asm__ volatile("csrci mstatus, 8");

	stop_frame();
	mttfw_rv_sync(&link);
	while (!(uart[UART_LSR] & LSR_TEMT))
		;
	if (!(config & CONFIG_STAY))
		*(volatile uint32_t *)TEST_DEV = TEST_PASS;
	/* stay: the UART's interrupt answers pings and commands */
	uart_irq_init();
	__asm__ volatile("csrsi mstatus, 8");
	for (;;)
		__asm__ volatile("wfi");
}
