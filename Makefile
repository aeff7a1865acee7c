# openurld: build, install, package and test.
#   make install setup       build (release), install for this user (~/.local), become the default handler, route a link
#   make install PREFIX=/usr DESTDIR=./stage
#                            stage everything a package ships; touches nothing in $HOME
#   make setup               the per-user step: openurl install, check, and route a test link
#   make uninstall           give the defaults back, stop the daemon, remove every installed file
#   make package             build the .deb (dpkg-buildpackage -b -us -uc) into .build/deb and run lintian
#   make check-all           the README's test command (.ci/run is exactly it): install what the tests need
#                            (make test-deps), make test, make package, and a short fuzz pass
#   make test-deps           apt-get update and install the Debian packages and PyPI oracles the tests need
#   make test                the full test suite alone; one line per suite, full output in .build/test.log
#   make bench               the release-mode benchmarks, ending with issues 15 and 32's footprint table
#   make bench-footprint     that table alone: install size, idle memory, start-up CPU, per-click cost, gio path, clicks vs dbus-send
#   make order-file          the daemon's hot functions (valgrind, ~10 min), which the release link puts first
#   make fuzz                build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS (default 60)
#   make test-sanitize       the suite under AddressSanitizer, then ThreadSanitizer
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
# A home install follows XDG_DATA_HOME when it is set, as the desktop looks for entries there.
DATADIR ?= $(if $(and $(XDG_DATA_HOME),$(filter $(HOME)/.local,$(PREFIX))),$(XDG_DATA_HOME),$(PREFIX)/share)
APPDIR = $(DATADIR)/applications
DBUSDIR = $(DATADIR)/dbus-1/services
# systemd looks for user units in $(PREFIX)/lib/systemd/user under /usr and /usr/local, but in
# ~/.local/share/systemd/user for a home install.
UNITDIR ?= $(if $(filter $(HOME)/%,$(PREFIX)),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
MANDIR ?= $(DATADIR)/man
BASHDIR = $(DATADIR)/bash-completion/completions
ZSHDIR = $(DATADIR)/zsh/site-functions
FISHDIR = $(DATADIR)/fish/vendor_completions.d
SCHEMADIR = $(DATADIR)/openurld
# The browser companion: the extension (unpacked, for Chromium, and as an .xpi for Firefox) and the
# native-messaging host's manifests where each browser reads them: a home install in the user's
# (Firefox reads ~/.mozilla/native-messaging-hosts even when its profiles are under
# $XDG_CONFIG_HOME; creating ~/.mozilla does not move them), any other in the system's.
EXTDIR = $(SCHEMADIR)/browser-extension
EXTFILES = manifest.json background.js content.js container.html container.js options.html options.js
XPI = $(SCHEMADIR)/openurld-companion.xpi
HOMEINSTALL = $(filter $(HOME)/%,$(PREFIX))
MOZHOSTDIR ?= $(if $(HOMEINSTALL),$(HOME)/.mozilla/native-messaging-hosts,/usr/lib/mozilla/native-messaging-hosts)
CHROMIUMHOSTDIR ?= $(if $(HOMEINSTALL),$(or $(XDG_CONFIG_HOME),$(HOME)/.config)/chromium/NativeMessagingHosts,/etc/chromium/native-messaging-hosts)
HOSTMANIFEST = io.github.openurld.json
# Where install-files takes the binaries from (make install builds them there first).
BUILDDIR ?= .build/release
GENDIR = $(BUILDDIR)/generated
LEGACYUNIT = $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/systemd/user/openurld.service
# Every release build, benchmarks included, with the same flags, so that building a benchmark
# does not recompile the modules openurld shares with it under other ones. Not exporting every
# symbol (static-stdlib-args.lnk asks for -export-dynamic): nothing looks our symbols up by
# name, and the dynamic symbol table was 0.6 MB of the binary. Thin LTO across our modules (with
# lld's identical-code folding, Package.swift) took the stripped openurld from 11.3 to 9.6 MB.
# No $ORIGIN run path: nothing is loaded from beside the binaries, and with it ld.so first looked
# for every library in the binary's directory and its hwcaps/tls subdirectories (~30 failed
# opens at each exec of openurld, ~20 of openurl, the handler GIO spawns per click).
RELEASE = swift build -c release --disable-local-rpath --static-swift-stdlib -Xlinker --no-export-dynamic --experimental-lto-mode=thin

# `install -s` strips the installed binaries (a debug build keeps its symbols in .build);
# debian/rules sets it empty so that dh_strip strips and fills the -dbgsym package.
INSTALL_STRIP ?= -s

# Every file `make install` writes, relative to DESTDIR; `make uninstall` removes exactly these.
INSTALLED = $(BINDIR)/openurl $(BINDIR)/openurl-tool $(BINDIR)/openurld $(BINDIR)/openurl-chooser $(BINDIR)/openurl-native-host $(BINDIR)/openurl-settings \
	$(APPDIR)/io.github.openurld.desktop $(APPDIR)/io.github.openurld.Settings.desktop $(DBUSDIR)/io.github.openurld.service $(UNITDIR)/openurld.service \
	$(MANDIR)/man1/openurl.1 $(MANDIR)/man1/openurld.1 $(MANDIR)/man1/openurl-chooser.1 $(MANDIR)/man1/openurl-native-host.1 $(MANDIR)/man1/openurl-settings.1 $(MANDIR)/man5/openurld.toml.5 \
	$(BASHDIR)/openurl $(ZSHDIR)/_openurl $(FISHDIR)/openurl.fish $(SCHEMADIR)/config.schema.json \
	$(addprefix $(EXTDIR)/,$(EXTFILES)) $(XPI) $(MOZHOSTDIR)/$(HOSTMANIFEST) $(CHROMIUMHOSTDIR)/$(HOSTMANIFEST)

.PHONY: extension build release generated install install-files setup uninstall stop-daemon package test test-release test-deps check-all bench bench-footprint order-file fuzz fuzz-build test-sanitize
FUZZ_SECONDS ?= 60

# openurld is one multi-call binary (Sources/openurld): openurl-tool and openurl-chooser are
# symlinks to it (relative, so they hold wherever the directory goes), which SwiftPM does not
# make: each build rule links them in its build directory, and install-files in BINDIR.
MULTICALL_LINKS = openurl-tool openurl-chooser openurl-native-host openurl-settings
link-multicall = for name in $(MULTICALL_LINKS); do ln -sfn openurld $(1)/$$name; done

build:
	swift build
	$(call link-multicall,.build/debug)

release:
	@# openurl is Embedded Swift: no Swift runtime, so no --static-swift-stdlib.
	swift build -c release --disable-local-rpath --product openurl
	$(RELEASE) --product openurld
	$(call link-multicall,.build/release)

# Man pages, completions and the schema, generated from the command and schema tables.
generated:
	$(call link-multicall,$(BUILDDIR))
	man/generate.sh $(BUILDDIR)/openurl-tool $(GENDIR)
	$(BUILDDIR)/openurl-tool __generate bash > $(GENDIR)/openurl.bash
	$(BUILDDIR)/openurl-tool __generate zsh > $(GENDIR)/_openurl
	$(BUILDDIR)/openurl-tool __generate fish > $(GENDIR)/openurl.fish
	$(BUILDDIR)/openurl-tool __generate schema > $(GENDIR)/config.schema.json
	$(MAKE) -s extension XPIOUT=$(GENDIR)/openurld-companion.xpi

# The companion extension as Firefox installs it: a zip of browser/ (files stored in a fixed
# order with a fixed time, so the same sources give the same bytes).
XPIOUT ?= .build/openurld-companion.xpi
extension:
	mkdir -p $(dir $(XPIOUT))
	cd browser && python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED); [z.writestr(zipfile.ZipInfo(n, (2020, 1, 1, 0, 0, 0)), open(n, "rb").read(), zipfile.ZIP_DEFLATED) for n in sys.argv[2:]]; z.close()' \
	    $(abspath $(XPIOUT)) $(EXTFILES)

install: release
	$(MAKE) install-files

install-files: generated
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(APPDIR) $(DESTDIR)$(DBUSDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHDIR) $(DESTDIR)$(ZSHDIR) $(DESTDIR)$(FISHDIR) $(DESTDIR)$(SCHEMADIR)
	install -m 755 $(INSTALL_STRIP) $(BUILDDIR)/openurl $(BUILDDIR)/openurld $(DESTDIR)$(BINDIR)/
	$(call link-multicall,$(DESTDIR)$(BINDIR))
	sed 's|^Exec=openurl |Exec=$(BINDIR)/openurl |' desktop/io.github.openurld.desktop > $(DESTDIR)$(APPDIR)/io.github.openurld.desktop
	sed 's|@BINDIR@|$(BINDIR)|' dbus/io.github.openurld.service.in > $(DESTDIR)$(DBUSDIR)/io.github.openurld.service
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/openurld.service > $(DESTDIR)$(UNITDIR)/openurld.service
	sed 's|^Exec=openurl |Exec=$(BINDIR)/openurl |' desktop/io.github.openurld.Settings.desktop > $(DESTDIR)$(APPDIR)/io.github.openurld.Settings.desktop
	chmod 644 $(DESTDIR)$(APPDIR)/io.github.openurld.Settings.desktop
	chmod 644 $(DESTDIR)$(APPDIR)/io.github.openurld.desktop $(DESTDIR)$(DBUSDIR)/io.github.openurld.service $(DESTDIR)$(UNITDIR)/openurld.service
	install -m 644 $(GENDIR)/openurl.1 $(GENDIR)/openurld.1 $(GENDIR)/openurl-chooser.1 $(GENDIR)/openurl-native-host.1 $(GENDIR)/openurl-settings.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(GENDIR)/openurld.toml.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(GENDIR)/openurl.bash $(DESTDIR)$(BASHDIR)/openurl
	install -m 644 $(GENDIR)/_openurl $(DESTDIR)$(ZSHDIR)/_openurl
	install -m 644 $(GENDIR)/openurl.fish $(DESTDIR)$(FISHDIR)/openurl.fish
	install -m 644 $(GENDIR)/config.schema.json $(DESTDIR)$(SCHEMADIR)/config.schema.json
	install -d $(DESTDIR)$(EXTDIR) $(DESTDIR)$(MOZHOSTDIR) $(DESTDIR)$(CHROMIUMHOSTDIR)
	install -m 644 $(addprefix browser/,$(EXTFILES)) $(DESTDIR)$(EXTDIR)/
	install -m 644 $(GENDIR)/openurld-companion.xpi $(DESTDIR)$(XPI)
	sed 's|@BINDIR@|$(BINDIR)|' browser-host/firefox.json.in > $(DESTDIR)$(MOZHOSTDIR)/$(HOSTMANIFEST)
	sed 's|@BINDIR@|$(BINDIR)|' browser-host/chromium.json.in > $(DESTDIR)$(CHROMIUMHOSTDIR)/$(HOSTMANIFEST)
	chmod 644 $(DESTDIR)$(MOZHOSTDIR)/$(HOSTMANIFEST) $(DESTDIR)$(CHROMIUMHOSTDIR)/$(HOSTMANIFEST)
	@# A staged install leaves caches to the package manager's triggers.
	if [ -z "$(DESTDIR)" ]; then update-desktop-database -q $(APPDIR) 2>/dev/null || true; fi

# The per-user step; the README's first command runs it after install.
setup:
	$(BINDIR)/openurl install
	$(BINDIR)/openurl check
	$(BINDIR)/openurl test https://example.org/
	@echo "Routing https://example.org/ for real (through openurld if a session bus is up, else in-process):"
	-$(BINDIR)/openurl -v https://example.org/

# Stops a running openurld, whoever started it (systemd or D-Bus activation).
stop-daemon:
	-systemctl --user stop openurld.service 2>/dev/null
	-pid=$$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
	    org.freedesktop.DBus.GetConnectionUnixProcessID string:io.github.openurld 2>/dev/null | awk '{print $$2}'); \
	    if [ -n "$$pid" ]; then kill -TERM "$$pid" && echo "stopped openurld (pid $$pid)"; fi

# Gives the defaults back first (while openurl still exists), stops the daemon, then removes the
# files. A staged (DESTDIR) uninstall only removes files.
uninstall:
	if [ -z "$(DESTDIR)" ] && [ -x $(BINDIR)/openurl ]; then $(BINDIR)/openurl uninstall || true; fi
	if [ -z "$(DESTDIR)" ]; then $(MAKE) -s stop-daemon; fi
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@# Earlier versions put the unit in ~/.config/systemd/user.
	if [ -z "$(DESTDIR)" ] && [ -n "$(filter $(HOME)/%,$(PREFIX))" ] && grep -qs '^BusName=io.github.openurld$$' $(LEGACYUNIT); then rm -f $(LEGACYUNIT); fi
	-rmdir $(DESTDIR)$(EXTDIR) $(DESTDIR)$(SCHEMADIR) 2>/dev/null
	-rmdir $(DESTDIR)$(MOZHOSTDIR) $(DESTDIR)$(CHROMIUMHOSTDIR) 2>/dev/null
	if [ -z "$(DESTDIR)" ]; then update-desktop-database -q $(APPDIR) 2>/dev/null || true; fi

# The .deb, built in this tree with the Swift toolchain on PATH; dpkg-buildpackage writes to ..,
# so the results are moved into .build/deb.
package:
	dpkg-buildpackage -b -us -uc
	mkdir -p .build/deb
	mv ../openurld_*.deb ../openurld-dbgsym_*.deb ../openurld_*.buildinfo ../openurld_*.changes .build/deb/ 2>/dev/null || true
	lintian --fail-on error .build/deb/openurld_*.deb

# The one test command (README, .ci/run): what the tests need, the suite, the .deb with lintian
# (2 to 5 minutes: a release build and packing) and a 3-second pass of every fuzz target.
check-all: test-deps
	$(MAKE) test
	$(MAKE) package
	$(MAKE) fuzz FUZZ_SECONDS=3

test-deps:
	.ci/test-deps

# One line per suite plus every failure; the full output is kept in .build/test.log.
test:
	swift build --build-tests
	$(call link-multicall,.build/debug)
	@mkdir -p .build
	@set -o pipefail; swift test --skip-build 2>&1 | tee .build/test.log | .ci/test-summary; \
	    status=$$?; echo "full output: .build/test.log"; exit $$status

# The same suite against the release build (thin LTO, lld's folded code): what is installed.
test-release: release
	swift build --build-tests
	$(call link-multicall,.build/release)
	@mkdir -p .build
	@set -o pipefail; OPENURL_TEST_PRODUCTS=$(abspath .build/release) swift test --skip-build 2>&1 | tee .build/test-release.log | .ci/test-summary; \
	    status=$$?; echo "full output: .build/test-release.log"; exit $$status

# bench-footprint runs bench-routing, bench-hygiene and bench-gio itself and ends with issues 15 and 32's table.
BENCHES = bench-routing bench-hygiene bench-extract bench-daemon bench-chooser bench-hostile bench-safety bench-gio bench-doctor bench-companion bench-footprint openurl-fake-browser

bench: release
	for b in $(BENCHES); do $(RELEASE) --product $$b || exit 1; done
	.build/release/bench-extract
	.build/release/bench-daemon
	.build/release/bench-chooser
	.build/release/bench-hostile
	.build/release/bench-safety
	.build/release/bench-doctor
	.build/release/bench-companion
	.build/release/bench-footprint

# Only issues 15 and 32's table (with the routing, hygiene and gio figures it includes).
bench-footprint: release
	for b in bench-routing bench-hygiene bench-gio bench-footprint openurl-fake-browser; do $(RELEASE) --product $$b || exit 1; done
	.build/release/bench-footprint

# The daemon's hot functions, which the release link puts first (Package.swift): ~10 minutes
# under valgrind. Commit the new Sources/openurld/openurld.order, then make release again.
order-file: release
	for b in bench-footprint openurl-fake-browser; do $(RELEASE) --product $$b || exit 1; done
	Benchmarks/order-file.sh

fuzz-build:
	Fuzz/build.sh

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# Separate build directories, so the sanitizer builds do not replace the normal one. Leak
# detection is off (LSan reports Swift arrays held in enum spare bits); the small quarantine
# keeps ASan's own memory out of the daemon's memory check. Both settings reach the daemons the
# tests start (TestSupport passes *SAN_OPTIONS through).
SWIFT_RUNTIME_DIR = $(shell dirname $$(dirname $$(readlink -f $$(command -v swift))))/lib/swift/linux
test-sanitize:
	SWIFT_BACKTRACE=enable=no swift build --build-tests --sanitize=address --scratch-path .build/asan
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16 swift test --skip-build --sanitize=address --scratch-path .build/asan
	@# The TSan runtime needs the toolchain's libBlocksRuntime.so; Embedded Swift (openurl) gets no rpath to it by itself.
	SWIFT_BACKTRACE=enable=no swift build --build-tests --sanitize=thread --scratch-path .build/tsan -Xlinker -rpath -Xlinker $(SWIFT_RUNTIME_DIR)
	SWIFT_BACKTRACE=enable=no swift test --skip-build --sanitize=thread --scratch-path .build/tsan
