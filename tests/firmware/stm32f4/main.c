// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the workload of tests/firmware/mprof.t, built with
 * -finstrument-functions: a fixed amount of work, then idle.
 *
 * TIM3 ticks at 1 kHz.  Once the host has started profiling, each of
 * the first WORK_TICKS ticks calls tick_work() from the interrupt
 * handler (itself not instrumented):
 *
 *   tick_work -> sensor_read -> filter -> scale x2
 *   tick_work -> control_step -> pid, clamp
 *   tick_work -> walk(3) -> walk(2) -> walk(1) -> walk(0)   (recursion)
 *
 * so a run holds, per function, WORK_TICKS calls (scale and walk: 2 and
 * 4 times that): 12 * WORK_TICKS records.  main() sets up and idles; the
 * MiniProfiler speaks on USART1 (mprofdev_fw.h), MTT traces go out on
 * USART2 (mtt.c, not instrumented): a fixed set at start, then before
 * each tick's work one trace of that tick, and after the last tick's a
 * STOP frame, all written before that tick's records are sent.
 *
 * Built with -DFW_BURST, one tick makes all WORK_TICKS rounds at once;
 * with USART1 below TIM3's priority (MPROFDEV_STM32F4_UART_PRIO 0xc0)
 * nothing drains the ring meanwhile: it keeps the first
 * 2^MPROFDEV_FW_RING_ORDER records and counts the rest as overflows.
 */
#include <stdint.h>

#include "mprofdev/mprofdev_fw.h"
#include "fw_mtt.h"

#define WORK_TICKS 25
#ifdef FW_BURST
#define PER_TICK WORK_TICKS
#else
#define PER_TICK 1
#endif
#define CLOCK_HZ 168000000u

#define NO_INSTR __attribute__((no_instrument_function))
#define NOINL __attribute__((noinline, noclone))
#define REG(a) (*(volatile uint32_t *)(a))

#define RCC_APB1ENR	REG(0x40023840u)	/* TIM3EN bit 1 */
#define TIM3_CR1	REG(0x40000400u)
#define TIM3_DIER	REG(0x4000040Cu)
#define TIM3_SR		REG(0x40000410u)
#define TIM3_EGR	REG(0x40000414u)
#define TIM3_PSC	REG(0x40000428u)
#define TIM3_ARR	REG(0x4000042Cu)
#define TIM3_IRQ	29u
#define NVIC_ISER0	REG(0xE000E100u)
#define NVIC_IPR(n)	(*(volatile uint8_t *)(0xE000E400u + (n)))

extern const uint8_t _stext[], _etext[];

static volatile uint32_t sink;
static volatile unsigned int ticks_left = WORK_TICKS / PER_TICK;

/* wait for the microsecond timer to move on twice: every leaf call
 * lasts at least a tick of it (not instrumented: no record of its own) */
static inline NO_INSTR void spin(void)
{
	uint32_t t = mprofdev_board_now_us();

	while (mprofdev_board_now_us() - t < 2u)
		;
}

NOINL static uint32_t scale(uint32_t v)
{
	spin();
	return v * 3u / 2u;
}

NOINL static uint32_t filter(uint32_t v)
{
	return scale(v) + scale(v >> 1);
}

NOINL static uint32_t sensor_read(void)
{
	return filter(sink + 7u);
}

NOINL static uint32_t pid(uint32_t e)
{
	spin();
	return e / 2u;
}

NOINL static uint32_t clamp(uint32_t v)
{
	spin();
	return v > 1000u ? 1000u : v;
}

NOINL static void control_step(uint32_t v)
{
	sink = sink + clamp(pid(v));
}

NOINL static uint32_t walk(unsigned int n)
{
	if (!n) {
		spin();
		return 0;
	}
	return walk(n - 1) + 1u;
}

NOINL static void tick_work(void)
{
	control_step(sensor_read());
	sink = sink + walk(3);
}

NO_INSTR void TIM3_IRQHandler(void);
NO_INSTR void TIM3_IRQHandler(void)
{
	unsigned int i;

	TIM3_SR = 0;
	if (ticks_left && mprofdev_fw_profiling()) {
		ticks_left = ticks_left - 1;
		fw_mtt_tick(WORK_TICKS / PER_TICK - ticks_left);
		if (!ticks_left)
			fw_mtt_stop();
		for (i = 0; i < PER_TICK; i++)
			tick_work();
	}
}

NO_INSTR int main(void)
{
	const struct mprofdev_fw_config cfg = {
		.fw_version = "stm32f4-wl-1",
		.mcu_clock_hz = CLOCK_HZ,
		.baud = 115200,
		.text_start = _stext,
		.text_end = _etext,
	};

	mprofdev_fw_start(&cfg);
	fw_mtt_start();
	/* TIM3: 1 MHz counts, an update interrupt every 1000 */
	RCC_APB1ENR |= 1u << 1;
	TIM3_PSC = CLOCK_HZ / 1000000u - 1u;
	TIM3_ARR = 999u;
	TIM3_EGR = 1u;
	TIM3_SR = 0;
	TIM3_DIER = 1u;
	NVIC_IPR(TIM3_IRQ) = 0x80u;
	NVIC_ISER0 = 1u << TIM3_IRQ;
	TIM3_CR1 = 1u;
	for (;;) {
		mprofdev_fw_idle();
		__asm__ volatile("wfi");
	}
}
