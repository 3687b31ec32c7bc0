/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fw_mtt.h - the test firmware's MTT traces on USART2 (mtt.c), called
 * from main.c: fw_mtt_start() once (after mprofdev_fw_start(), whose
 * timer gives the timestamps), fw_mtt_tick() for each tick of work,
 * fw_mtt_stop() after the last.
 */
#ifndef FW_MTT_H
#define FW_MTT_H

#include <stdint.h>

void fw_mtt_start(void);
void fw_mtt_tick(uint32_t n);
void fw_mtt_stop(void);

#endif
