// SPDX-License-Identifier: GPL-2.0
/*
 * startup.c - the STM32F405's reset: the vector table (word 0 the
 * initial stack pointer, then the handlers; RM0090's table, IRQs 0..81),
 * .data copied from flash, .bss cleared, main().  Not instrumented.
 */
#include <stdint.h>
#include <string.h>

#define NO_INSTR __attribute__((no_instrument_function))

extern uint32_t _estack, _sidata, _sdata, _edata, _sbss, _ebss;
int main(void);

NO_INSTR void Reset_Handler(void);
NO_INSTR void Default_Handler(void);
void TIM3_IRQHandler(void);
void USART1_IRQHandler(void);
void USART2_IRQHandler(void);

NO_INSTR void Default_Handler(void)
{
	for (;;)
		;
}

NO_INSTR void Reset_Handler(void)
{
	memcpy(&_sdata, &_sidata, (size_t)((char *)&_edata - (char *)&_sdata));
	memset(&_sbss, 0, (size_t)((char *)&_ebss - (char *)&_sbss));
	main();
	for (;;)
		;
}

#define IRQ(n) (16 + (n))
#define NVECTORS IRQ(82)

/* every entry Default_Handler, then the ones this firmware handles */
#pragma GCC diagnostic ignored "-Woverride-init"
__attribute__((section(".isr_vector"), used))
static void (*const vectors[NVECTORS])(void) = {
	[0] = (void (*)(void))&_estack,
	[1] = Reset_Handler,
	[2 ... NVECTORS - 1] = Default_Handler,
	[IRQ(29)] = TIM3_IRQHandler,
	[IRQ(37)] = USART1_IRQHandler,
	[IRQ(38)] = USART2_IRQHandler,
};
