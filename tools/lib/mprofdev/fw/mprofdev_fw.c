// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fw/mprofdev_fw.c - libmprofdev on a microcontroller (mprofdev_fw.h):
 * the one instance in static storage, the core (core.c) driven by the
 * board's UART interrupt, the hooks' one stack (interrupts nest last in,
 * first out, so one stack serves thread mode and every handler).
 * Freestanding.
 */
#include "../core.h"
#include "mprofdev/mprofdev_fw.h"
#include "wire/crc.h"

#ifndef MPROFDEV_FW_RING_ORDER
#define MPROFDEV_FW_RING_ORDER 8
#endif
#ifndef MPROFDEV_FW_RPP
#define MPROFDEV_FW_RPP 16
#endif

static struct mprofdev_core core;
static struct ring_slot slots[1u << MPROFDEV_FW_RING_ORDER];
static uint8_t out[MPROFDEV_OUT_SIZE(MPROFDEV_FW_RPP)];
/* the hooks' one stack; not static: core.c built with
 * -DMPROFDEV_ONE_STACK uses it directly (and the board's clock) */
struct mprofdev_stack mprofdev_one_stack;

NO_INSTR struct mprofdev_stack *mprofdev_port_stack(void)
{
	return &mprofdev_one_stack;
}

NO_INSTR uint32_t mprofdev_port_now_us(void)
{
	return mprofdev_board_now_us();
}

static NO_INSTR void kick(void)
{
	uint32_t m = mprofdev_board_irq_save();

	mprofdev_board_tx_start();
	mprofdev_board_irq_restore(m);
}

NO_INSTR void mprofdev_fw_start(const struct mprofdev_fw_config *cfg)
{
	struct mprof_metadata meta = { .timer_freq = 1000000 };
	const char *v = cfg->fw_version ? cfg->fw_version : "";
	unsigned int i;

	meta.mcu_clock_hz = cfg->mcu_clock_hz;
	meta.elf_build_id = wire_crc32(0, cfg->text_start,
				       (size_t)((const uint8_t *)cfg->text_end -
						(const uint8_t *)cfg->text_start));
	for (i = 0; i < MPROF_FW_VERSION_LEN - 1 && v[i]; i++)
		meta.fw_version[i] = v[i];
	mprofdev_core_init(&core, slots, MPROFDEV_FW_RING_ORDER, out,
			   MPROFDEV_FW_RPP, &meta, 0);
	/* a Thumb function's address has bit 0 set: send the code's */
	core.addr_mask = ~(uintptr_t)1;
	core.kick = kick;
	mprofdev_board_timer_init();
	core.t0_us = mprofdev_board_now_us();
	mprofdev_board_uart_init(cfg->baud);
	mprofdev_core_activate(&core);
}

NO_INSTR void mprofdev_fw_idle(void)
{
	mprofdev_core_kick(&core);
}

NO_INSTR int mprofdev_fw_profiling(void)
{
	return atomic_load(&core.profiling);
}

NO_INSTR void mprofdev_fw_rx(uint8_t byte)
{
	mprofdev_core_rx(&core, &byte, 1);
}

NO_INSTR int mprofdev_fw_tx(void)
{
	int b = mprofdev_core_tx_byte(&core);

	if (b < 0) {
		mprofdev_board_tx_stop();
		mprofdev_core_tx_stopped(&core);
	}
	return b;
}
