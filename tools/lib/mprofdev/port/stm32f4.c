// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * port/stm32f4.c - libmprofdev's board layer for an STM32F4
 * (mprofdev_fw.h): USART1 (PA9 TX, PA10 RX) as the MiniProfiler's line,
 * TIM2 (32 bits) counting microseconds, PRIMASK to mask interrupts.
 * Register offsets and bits from the reference manual (RM0090).
 *
 * Clocks are the firmware's business: this file assumes the one it is
 * told.  MPROFDEV_STM32F4_TIM_HZ is TIM2's input clock (168 MHz by
 * default; 84 MHz on a board at 168 MHz with APB1 at 42 MHz; 1 GHz
 * under QEMU 7.2's netduinoplus2, which clocks its timers so: the test
 * firmware's Makefile sets that), MPROFDEV_STM32F4_UART_HZ USART1's
 * (APB2, 84 MHz).
 *
 * MPROFDEV_STM32F4_FAST_DIV=N makes the microsecond clock run fast by
 * exactly 1/N (N = 2000: +500 ppm): each read is TIM2's count plus that
 * count / N, for tests of a host's drift estimate (Documentation/
 * firmware.rst, "A clock off by a known rate").  A prescaler cannot do
 * it: TIM2's divisor is a whole number, 168 at 168 MHz, and 167 would be
 * +5988 ppm.  The value leaves the line when c + c / N passes 2^32 (c =
 * 2^32 * N / (N + 1): 71.5 minutes after reset at N = 2000).
 *
 * To port to another microcontroller, copy this file's shape: seven
 * functions and the UART's interrupt handler.
 */
#include <stdint.h>

#include "mprofdev/mprofdev_fw.h"

#ifndef MPROFDEV_STM32F4_TIM_HZ
#define MPROFDEV_STM32F4_TIM_HZ 168000000u
#endif
#ifndef MPROFDEV_STM32F4_UART_HZ
#define MPROFDEV_STM32F4_UART_HZ 84000000u
#endif
/* USART1's priority: above the code it profiles, so it drains the ring */
#ifndef MPROFDEV_STM32F4_UART_PRIO
#define MPROFDEV_STM32F4_UART_PRIO 0x40u
#endif

#define NO_INSTR __attribute__((no_instrument_function))
#define REG(a) (*(volatile uint32_t *)(a))

#define RCC_AHB1ENR	REG(0x40023830u)	/* GPIOAEN bit 0 */
#define RCC_APB1ENR	REG(0x40023840u)	/* TIM2EN bit 0 */
#define RCC_APB2ENR	REG(0x40023844u)	/* USART1EN bit 4 */
#define GPIOA_MODER	REG(0x40020000u)
#define GPIOA_AFRH	REG(0x40020024u)

#define TIM2_CR1	REG(0x40000000u)	/* CEN bit 0 */
#define TIM2_EGR	REG(0x40000014u)	/* UG bit 0 */
#define TIM2_CNT	REG(0x40000024u)
#define TIM2_PSC	REG(0x40000028u)
#define TIM2_ARR	REG(0x4000002Cu)

#define USART1_SR	REG(0x40011000u)
#define USART1_DR	REG(0x40011004u)
#define USART1_BRR	REG(0x40011008u)
#define USART1_CR1	REG(0x4001100Cu)
#define SR_TXE		(1u << 7)
#define SR_RXNE		(1u << 5)
#define SR_ORE		(1u << 3)
#define CR1_UE		(1u << 13)
#define CR1_TXEIE	(1u << 7)
#define CR1_RXNEIE	(1u << 5)
#define CR1_TE		(1u << 3)
#define CR1_RE		(1u << 2)

#define USART1_IRQ	37u
#define NVIC_ISER(n)	REG(0xE000E100u + 4u * ((n) / 32u))
#define NVIC_ISPR(n)	REG(0xE000E200u + 4u * ((n) / 32u))
#define NVIC_IPR(n)	(*(volatile uint8_t *)(0xE000E400u + (n)))

NO_INSTR void mprofdev_board_timer_init(void)
{
	RCC_APB1ENR |= 1u;
	TIM2_PSC = MPROFDEV_STM32F4_TIM_HZ / 1000000u - 1u;
	TIM2_ARR = 0xffffffffu;
	TIM2_EGR = 1u;		/* load the prescaler */
	TIM2_CR1 = 1u;
}

NO_INSTR uint32_t mprofdev_board_now_us(void)
{
#ifdef MPROFDEV_STM32F4_FAST_DIV
	uint32_t c = TIM2_CNT;

	return c + c / (uint32_t)(MPROFDEV_STM32F4_FAST_DIV);
#else
	return TIM2_CNT;
#endif
}

NO_INSTR void mprofdev_board_uart_init(uint32_t baud)
{
	RCC_AHB1ENR |= 1u;
	RCC_APB2ENR |= 1u << 4;
	/* PA9, PA10: alternate function 7 */
	GPIOA_MODER = (GPIOA_MODER & ~(0xfu << 18)) | (0xau << 18);
	GPIOA_AFRH = (GPIOA_AFRH & ~(0xffu << 4)) | (0x77u << 4);
	USART1_BRR = (MPROFDEV_STM32F4_UART_HZ + baud / 2u) / baud;
	USART1_CR1 = CR1_UE | CR1_TE | CR1_RE | CR1_RXNEIE;
	NVIC_IPR(USART1_IRQ) = MPROFDEV_STM32F4_UART_PRIO;
	NVIC_ISER(USART1_IRQ) = 1u << (USART1_IRQ % 32u);
}

NO_INSTR void mprofdev_board_tx_start(void)
{
	USART1_CR1 |= CR1_TXEIE;
	/* also pend the interrupt: an emulator that never raises it for
	 * TXE (QEMU 7.2) still runs the handler, which sees TXE set */
	NVIC_ISPR(USART1_IRQ) = 1u << (USART1_IRQ % 32u);
}

NO_INSTR void mprofdev_board_tx_stop(void)
{
	USART1_CR1 &= ~CR1_TXEIE;
}

NO_INSTR uint32_t mprofdev_board_irq_save(void)
{
	uint32_t m;

	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(m) : : "memory");
	return m;
}

NO_INSTR void mprofdev_board_irq_restore(uint32_t mask)
{
	__asm__ volatile("msr primask, %0" : : "r"(mask) : "memory");
}

NO_INSTR void USART1_IRQHandler(void);
NO_INSTR void USART1_IRQHandler(void)
{
	uint32_t sr = USART1_SR;

	if (sr & (SR_RXNE | SR_ORE)) {
		/* reading DR after SR clears RXNE and an overrun */
		uint8_t b = (uint8_t)USART1_DR;

		if (sr & SR_RXNE)
			mprofdev_fw_rx(b);
	}
	if (!(USART1_CR1 & CR1_TXEIE))
		return;
	while (USART1_SR & SR_TXE) {
		int b = mprofdev_fw_tx();

		if (b < 0)
			break;
		USART1_DR = (uint32_t)b;
	}
}
