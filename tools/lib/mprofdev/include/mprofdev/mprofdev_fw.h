/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mprofdev_fw.h - libmprofdev on a microcontroller: the MiniProfiler's
 * device half for firmware, freestanding C11 (no malloc, no threads, no
 * libc beyond memcpy and memset).
 *
 * Build the firmware's own code with -finstrument-functions and, without
 * it, these sources: tools/lib/mprofdev/core.c and ring.c,
 * tools/lib/mprofdev/fw/mprofdev_fw.c, tools/lib/wire/crc.c and
 * mprof_wire.c, and one board file (tools/lib/mprofdev/port/stm32f4.c
 * for an STM32F4); include paths tools/lib/mprofdev/include and
 * tools/lib/wire/include.  Then call mprofdev_fw_start() once, early in
 * main, and mprofdev_fw_idle() from the idle loop.
 *
 * What runs where: the hooks put one 14-byte record per returning call
 * into a lock-free ring (from thread mode or any interrupt, nested; a
 * full ring counts an overflow and drops the record, the program never
 * waits); the UART interrupt assembles the host's 12-byte commands
 * (resynchronising after a bad checksum), answers them and sends the
 * ring's records in PROFILE_DATA packets of MPROFDEV_FW_RPP records,
 * a byte per transmit-empty interrupt.  The hooks kick the transmitter
 * when a packet's worth is waiting, mprofdev_fw_idle() when anything is.
 *
 * Sizes, fixed at compile time (-D): MPROFDEV_FW_RING_ORDER (ring of
 * 2^order records, default 8), MPROFDEV_FW_RPP (records per packet,
 * default 16), MPROFDEV_MAX_DEPTH (call depth recorded, default 512;
 * 4 bytes of RAM a level).
 */
#ifndef MPROFDEV_FW_H
#define MPROFDEV_FW_H

#include <stdint.h>

struct mprofdev_fw_config {
	const char *fw_version;	/* METADATA fw_version (15 chars kept) */
	uint32_t mcu_clock_hz;	/* METADATA mcu_clock_hz */
	uint32_t baud;		/* the UART's bit rate */
	/* the firmware's .text as linked (the linker script's symbols at
	 * the start and end of the .text output section): METADATA's
	 * build id is the CRC32 of these bytes, computed at start */
	const void *text_start;
	const void *text_end;
};

/* Set up the timer and the UART and start answering the host */
void mprofdev_fw_start(const struct mprofdev_fw_config *cfg);
/* From the idle loop: send what is waiting, however little */
void mprofdev_fw_idle(void);
/* 1 while the host has profiling started */
int mprofdev_fw_profiling(void);

/* For the board's UART interrupt handler: a byte received; the next
 * byte to send, or -1 when there is none (the transmit interrupt has
 * then been disabled through mprofdev_board_tx_stop()) */
void mprofdev_fw_rx(uint8_t byte);
int mprofdev_fw_tx(void);

/*
 * The board layer: porting to another microcontroller is one file that
 * defines these (port/stm32f4.c is the example), and calls
 * mprofdev_fw_rx() and mprofdev_fw_tx() from its UART interrupt.  None
 * of them may be built with -finstrument-functions.
 *
 * mprofdev_board_timer_init()  start a free-running counter at 1 MHz
 * mprofdev_board_now_us()      read it (32 bits, wrapping)
 * mprofdev_board_uart_init()   the UART at baud, 8N1, its receive
 *                              interrupt enabled, its interrupt line
 *                              enabled in the interrupt controller
 * mprofdev_board_tx_start()    enable the transmit-empty interrupt, so
 *                              the handler calls mprofdev_fw_tx() until
 *                              it returns -1 (called with interrupts
 *                              masked)
 * mprofdev_board_tx_stop()     disable it (from the handler)
 * mprofdev_board_irq_save()    mask interrupts, return the old mask
 * mprofdev_board_irq_restore() put it back
 */
void mprofdev_board_timer_init(void);
uint32_t mprofdev_board_now_us(void);
void mprofdev_board_uart_init(uint32_t baud);
void mprofdev_board_tx_start(void);
void mprofdev_board_tx_stop(void);
uint32_t mprofdev_board_irq_save(void);
void mprofdev_board_irq_restore(uint32_t mask);

#endif
