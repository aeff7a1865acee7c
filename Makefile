# openurld: build, install for the current user, and test.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
RELEASE = swift build -c release --static-swift-stdlib

.PHONY: build release install uninstall test bench

build:
	swift build

release:
	$(RELEASE) --product openurl
	$(RELEASE) --product openurld

install: release
	install -d $(BINDIR)
	install -m 755 .build/release/openurl .build/release/openurld $(BINDIR)/
	$(BINDIR)/openurl check
	$(BINDIR)/openurl test https://example.org/

test:
	swift build --build-tests
	swift test

bench:
	swift build -c release --product bench-routing && .build/release/bench-routing
