// SPDX-License-Identifier: GPL-2.0
/*
 * mtt.c - MTT traces of the STM32F405 test firmware on USART2
 * (tests/firmware/mprof.t, stm32-filter.t; Documentation/firmware-mtt.rst): libmttfw
 * writing native MTT frames, target id FW_MTT_TARGET, to USART2 (PA2 TX;
 * QEMU's second -serial), polled.  Not instrumented: the MiniProfiler on
 * USART1 sees none of this.
 *
 * The work is fixed: at start, FW_MTT_ROUNDS rounds of one mtt_trace of
 * "app" (UINT32 "count" = round * 100 + level index) and of "sensor"
 * (INT16 "temp", its negative) at each of seven levels and one mtt_print
 * of "app"; then, from TIM3's handler, one trace of "tick" (DEBUG, UINT32
 * "tick" = 1, 2...) per tick of work, and after the last a STOP frame.
 *
 * Commands: USART2's receiver (PA3) hands every byte, from its
 * interrupt, to mttfw_rx(), which applies the host's command frames
 * (filters, at run time) and replies on USART2.  Built with
 * -DFW_MTT_WAIT, the firmware stops after the first round until a START
 * command came (tests/firmware/stm32-filter.t): the commands sent
 * meanwhile take effect at that fixed point of the work.  Built with
 * -DFW_HOLD, it writes nothing on USART2 until the host has started
 * profiling on USART1 (tests/firmware/session.t): QEMU drops what a pty
 * is given while nothing has it open, and the MiniProfiler START that
 * mttcontrol sends once every port of the session is open is what lets
 * the firmware go on, so every byte comes after the host is listening.
 *
 * The ping byte (../ping.h) on USART2 is answered from the receive
 * interrupt by two INFO frames of component "ping", "received" and
 * "pong" (tests/firmware/multi.t).
 *
 * Every frame carries a CRC word (flag CRC, the CRC-16/CCITT-FALSE of
 * every byte before it: Documentation/mtt.rst; libmttfw's crc16 option),
 * so a byte damaged on the line is seen by the decoder.  A frame is written
 * whole with interrupts masked (traces come from main and from TIM3's
 * handler); QEMU's USART takes a byte at once, a real one at 115200 baud
 * needs about 87 us a byte: give it a DMA or an interrupt-driven queue.
 */
#include <stdint.h>

#include "mprofdev/mprofdev_fw.h"
#include "mttfw/mttfw.h"
#include "wire/crc.h"
#include "fw_mtt.h"
#include "../mtt_rounds.h"
#include "../ping.h"

#define REG(a) (*(volatile uint32_t *)(a))
#define RCC_AHB1ENR	REG(0x40023830u)	/* GPIOAEN bit 0 */
#define RCC_APB1ENR	REG(0x40023840u)	/* USART2EN bit 17 */
#define GPIOA_MODER	REG(0x40020000u)
#define GPIOA_AFRL	REG(0x40020020u)
#define USART2_SR	REG(0x40004400u)
#define USART2_DR	REG(0x40004404u)
#define USART2_BRR	REG(0x40004408u)
#define USART2_CR1	REG(0x4000440Cu)
#define SR_TXE		(1u << 7)
#define SR_RXNE		(1u << 5)
#define SR_ORE		(1u << 3)
#define CR1_UE		(1u << 13)
#define CR1_RXNEIE	(1u << 5)
#define CR1_TE		(1u << 3)
#define CR1_RE		(1u << 2)
#define USART2_IRQ	38u
#define NVIC_ISER(n)	REG(0xE000E100u + 4u * ((n) / 32u))
#define NVIC_IPR(n)	(*(volatile uint8_t *)(0xE000E400u + (n)))
#define APB1_HZ		42000000u
#define BAUD		115200u

#define FW_MTT_TARGET	0x60u
#define FW_MTT_ROUNDS	3

static struct mttfw_comp comps[4];
struct mttfw mttfw_default;
static mtt_comp_handle_t app, sensor, tick;
static volatile uint32_t started;	/* a START command came */
static volatile uint32_t ready;		/* mttfw_default is set up */
static struct fw_ping ping;		/* ../ping.h, from USART2's interrupt */

static void usart2_init(void)
{
	RCC_AHB1ENR |= 1u;
	RCC_APB1ENR |= 1u << 17;
	/* PA2 (TX), PA3 (RX): alternate function 7 */
	GPIOA_MODER = (GPIOA_MODER & ~(0xfu << 4)) | (0xau << 4);
	GPIOA_AFRL = (GPIOA_AFRL & ~(0xffu << 8)) | (0x77u << 8);
	USART2_BRR = (APB1_HZ + BAUD / 2u) / BAUD;
	USART2_CR1 = CR1_UE | CR1_TE | CR1_RE | CR1_RXNEIE;
	/* below USART1 (the MiniProfiler), with TIM3 */
	NVIC_IPR(USART2_IRQ) = 0x80u;
	NVIC_ISER(USART2_IRQ) = 1u << (USART2_IRQ % 32u);
}

/* the host's bytes, one per interrupt, to the command receiver; its
 * replies go out through usart2_put (interrupts masked meanwhile) */
void USART2_IRQHandler(void);
void USART2_IRQHandler(void)
{
	uint32_t sr = USART2_SR;
	uint8_t b;

	if (!(sr & (SR_RXNE | SR_ORE)))
		return;
	/* reading DR after SR clears RXNE and an overrun */
	b = (uint8_t)USART2_DR;
	if (!(sr & SR_RXNE) || (ready && fw_ping(&ping, &mttfw_default, b)))
		return;
	if (mttfw_rx(&mttfw_default, &b, 1) & MTTFW_RX_START)
		started = 1;
}

/* an output's put: the frame's bytes, polled, with interrupts masked */
static void usart2_put(void *ctx, const uint8_t *frame, size_t len)
{
	uint32_t m;
	size_t i;

	(void)ctx;
	m = mprofdev_board_irq_save();
	for (i = 0; i < len; i++) {
		while (!(USART2_SR & SR_TXE))
			;
		USART2_DR = frame[i];
	}
	mprofdev_board_irq_restore(m);
}

/* frames' TS64 in ns, from the MiniProfiler's microsecond timer (TIM2) */
static uint64_t now_ns(void *ctx)
{
	(void)ctx;
	return (uint64_t)mprofdev_board_now_us() * 1000u;
}

void fw_mtt_start(void)
{
	const struct mttfw_config cfg = {
		.target = FW_MTT_TARGET,
		.out = { usart2_put, 0 },
		.now_ns = now_ns,
		.comps = comps,
		.ncomps = 4,
		.crc16 = wire_crc16_ccitt_x4,
	};
	unsigned int i;

	/* the receiver is set up before its interrupt is on: a command that
	 * comes while the firmware is held (a session's first TIME_SYNC) is
	 * answered, not lost to the set-up */
	mttfw_init(&mttfw_default, &cfg);
	ready = 1;
	usart2_init();
#ifdef FW_HOLD
	while (!mprofdev_fw_profiling())
		__asm__ volatile("wfi");
#endif
	mtt_open(MTT_COMPONENTID_ANY, "app", &app);
	mtt_open(MTT_COMPONENTID_ANY, "sensor", &sensor);
	mtt_open(MTT_COMPONENTID_ANY, "tick", &tick);
	mtt_round(app, sensor, 0, FW_MTT_ROUNDS);
#ifdef FW_MTT_WAIT
	while (!started)
		__asm__ volatile("wfi");
#endif
	for (i = 1; i < FW_MTT_ROUNDS; i++)
		mtt_round(app, sensor, i, FW_MTT_ROUNDS);
}

void fw_mtt_tick(uint32_t n)
{
	mtt_trace(tick, MTT_LEVEL_DEBUG, MTT_TRACEITEM_UINT32, &n, "tick");
}

void fw_mtt_stop(void)
{
	uint8_t f[MTT_FRAME_PREAMBLE_BYTES + MTT_FRAME_CRC_BYTES];
	size_t n = mttfw_frame(f, FW_MTT_TARGET, MTT_FRAME_CMD_STOP, 0, 0, 0,
			       0, 0, NULL, NULL);

	usart2_put(NULL, f, mttfw_add_crc(&mttfw_default, f, n));
}
