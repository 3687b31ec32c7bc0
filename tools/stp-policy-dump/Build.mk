# SPDX-License-Identifier: GPL-2.0
# stp-policy-dump/Build.mk - the stp-policy-dump command: a shell script,
# nothing to build.
install: install-stp-policy-dump
install-stp-policy-dump:
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 stp-policy-dump/stp-policy-dump \
		$(DESTDIR)$(BINDIR)/stp-policy-dump
