# SPDX-License-Identifier: GPL-2.0
# tests/firmware/mtt-lib.sh - sourced by the firmware lane's MTT tests
# (after tests/host/lib.sh): what the test firmwares' fixed MTT work
# decodes to (mttdecode's text, timestamps removed).
#
# mtt_rounds PREFIX CPU APP_MASK SENSOR_MASK: 3 rounds of one trace of
#   "app" (count = round * 100 + level index) and of "sensor" (temp, its
#   negative) at each level of MTT_LEVELS that the component's filter
#   mask lets through, and app's INFO mtt_print; each line PREFIX "MTT
#   ...", target id CPU (decimal)
# mtt_norm FILE: mttdecode's text lines without their timestamp column

MTT_LEVELS="ERROR:0x80000000 WARNING:0x40000000 INFO:0x20000000 DEBUG:0x10000000
API_ENTRY:0x00010000 API_RETURN:0x00020000 USER0:0x00000001"

mtt_rounds() {
	for i in 0 1 2; do
		l=0
		for lv in $MTT_LEVELS; do
			name=${lv%%:*}
			mask=${lv#*:}
			v=$((i * 100 + l))
			[ $(($3 & mask)) -eq 0 ] ||
				echo "$1MTT $name app count = $v cpu $2"
			[ $(($4 & mask)) -eq 0 ] ||
				echo "$1MTT $name sensor temp = $((-v)) cpu $2"
			l=$((l + 1))
		done
		[ $(($3 & 0x20000000)) -eq 0 ] ||
			echo "$1MTT INFO app \"round $((i + 1)) of 3\" cpu $2"
	done
}

mtt_norm() {
	grep -v '^-- sync' "$1" | sed 's/^ *[0-9-]* //'
}

# stm32_mtt TICKS: the whole USART2 capture of the STM32F405 firmware
# (tests/firmware/stm32f4/mtt.c, target id 0x60) after TICKS ticks of work
stm32_mtt() {
	echo '- MTT META 0x00000001 "app"'
	echo '- MTT META 0x00000002 "sensor"'
	echo '- MTT META 0x00000003 "tick"'
	mtt_rounds '- ' 96 0xffffffff 0xffffffff
	i=1
	while [ $i -le "$1" ]; do
		echo "- MTT DEBUG tick tick = $i cpu 96"
		i=$((i + 1))
	done
	echo '- MTT STOP - comp:0x00000000 - seq 0 cpu 96'
}
