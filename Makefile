# openurld: build, install for the current user, and test.
#   make install     build (release), install for this user, become the default handler, route a link
#   make test        the full test suite (what CI runs)
#   make bench       the release-mode benchmarks
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
CONFIGDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)
APPDIR = $(DATADIR)/applications
DBUSDIR = $(DATADIR)/dbus-1/services
UNITDIR = $(CONFIGDIR)/systemd/user
RELEASE = swift build -c release --static-swift-stdlib

.PHONY: build release install uninstall test bench

build:
	swift build

release:
	$(RELEASE) --product openurl
	$(RELEASE) --product openurl-tool
	$(RELEASE) --product openurld
	$(RELEASE) --product openurl-chooser

install: release
	install -d $(BINDIR) $(APPDIR) $(DBUSDIR) $(UNITDIR)
	install -m 755 .build/release/openurl .build/release/openurl-tool .build/release/openurld .build/release/openurl-chooser $(BINDIR)/
	sed 's|^Exec=openurl |Exec=$(BINDIR)/openurl |' desktop/io.github.openurld.desktop > $(APPDIR)/io.github.openurld.desktop
	sed 's|@BINDIR@|$(BINDIR)|' dbus/io.github.openurld.service.in > $(DBUSDIR)/io.github.openurld.service
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/openurld.service > $(UNITDIR)/openurld.service
	-update-desktop-database -q $(APPDIR) 2>/dev/null
	$(BINDIR)/openurl install
	$(BINDIR)/openurl check
	$(BINDIR)/openurl test https://example.org/
	@echo "Routing https://example.org/ for real (through openurld if a session bus is up, else in-process):"
	-$(BINDIR)/openurl -v https://example.org/

uninstall:
	-$(BINDIR)/openurl uninstall
	rm -f $(BINDIR)/openurl $(BINDIR)/openurl-tool $(BINDIR)/openurld $(BINDIR)/openurl-chooser $(APPDIR)/io.github.openurld.desktop \
	      $(DBUSDIR)/io.github.openurld.service $(UNITDIR)/openurld.service

test:
	swift build --build-tests
	swift test --skip-build

bench: release
	for b in bench-routing bench-hygiene bench-extract bench-daemon bench-chooser; do swift build -c release --product $$b || exit 1; done
	.build/release/bench-routing
	.build/release/bench-hygiene
	.build/release/bench-extract
	.build/release/bench-daemon
	.build/release/bench-chooser
