# openurld: build, install for the current user, and test.
#   make install     build (release), install for this user, become the default handler, route a link
#   make test        the full test suite (what CI runs)
#   make bench       the release-mode benchmarks
#   make fuzz        build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS (default 60)
#   make test-sanitize  the suite under AddressSanitizer, then ThreadSanitizer
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
CONFIGDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)
APPDIR = $(DATADIR)/applications
DBUSDIR = $(DATADIR)/dbus-1/services
UNITDIR = $(CONFIGDIR)/systemd/user
RELEASE = swift build -c release --static-swift-stdlib

FUZZ_SECONDS ?= 60

.PHONY: build release install uninstall test bench fuzz fuzz-build test-sanitize

build:
	swift build

release:
	$(RELEASE) --product openurl
	$(RELEASE) --product openurl-tool
	$(RELEASE) --product openurld

install: release
	install -d $(BINDIR) $(APPDIR) $(DBUSDIR) $(UNITDIR)
	install -m 755 .build/release/openurl .build/release/openurl-tool .build/release/openurld $(BINDIR)/
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
	rm -f $(BINDIR)/openurl $(BINDIR)/openurl-tool $(BINDIR)/openurld $(APPDIR)/io.github.openurld.desktop \
	      $(DBUSDIR)/io.github.openurld.service $(UNITDIR)/openurld.service

test:
	swift build --build-tests
	swift test --skip-build

bench: release
	for b in bench-routing bench-hygiene bench-extract bench-daemon bench-hostile; do swift build -c release --product $$b || exit 1; done
	.build/release/bench-routing
	.build/release/bench-hygiene
	.build/release/bench-extract
	.build/release/bench-daemon
	.build/release/bench-hostile

fuzz-build:
	Fuzz/build.sh

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# Separate build directories, so the sanitizer builds do not replace the normal one. Leak
# detection is off (LSan reports Swift arrays held in enum spare bits); the small quarantine
# keeps ASan's own memory out of the daemon's memory check. Both settings reach the daemons the
# tests start (TestSupport passes *SAN_OPTIONS through).
test-sanitize:
	SWIFT_BACKTRACE=enable=no swift build --build-tests --sanitize=address --scratch-path .build/asan
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16 swift test --skip-build --sanitize=address --scratch-path .build/asan
	SWIFT_BACKTRACE=enable=no swift build --build-tests --sanitize=thread --scratch-path .build/tsan
	SWIFT_BACKTRACE=enable=no swift test --skip-build --sanitize=thread --scratch-path .build/tsan
