# SPDX-License-Identifier: GPL-2.0
# stp-policy-dump/Build.mk - the stp-policy-dump command (POSIX sh, runs on
# the target): make writes the package version (MTTD_VERSION, the one
# source of every tool's --version: Documentation/cli.rst) into
# $(B)/stp-policy-dump, which is what is installed.
all: $(B)/stp-policy-dump
$(B)/stp-policy-dump: stp-policy-dump/stp-policy-dump \
		lib/mttdecode/include/mttdecode/mttdecode.h
	@mkdir -p $(@D)
	sed 's/^version=@VERSION@$$/version=$(MTTD_VERSION)/' $< >$@.tmp
	chmod 755 $@.tmp
	mv $@.tmp $@

install: install-stp-policy-dump
install-stp-policy-dump: $(B)/stp-policy-dump
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(B)/stp-policy-dump $(DESTDIR)$(BINDIR)/stp-policy-dump
	$(call install_completion,stp-policy-dump)
