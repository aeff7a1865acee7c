// swift-tools-version:6.0
import Foundation
import PackageDescription

/// GTK 4's include directories (`pkg-config --cflags-only-I gtk4`), for the chooser's code only.
/// Not `.systemLibrary(pkgConfig: "gtk4")`: that would also link libgtk-4, pango, cairo, … into
/// the multi-call binary, and the daemon would map them all at every start (see CGtkLoader).
let gtkIncludeFlags: [String] = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags-only-I", "gtk4"]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
}()
/// The same, as Swift compiler flags for targets that import CGtk (or import a module that does).
let gtkSwiftSettings: [SwiftSetting] = [.unsafeFlags(gtkIncludeFlags.flatMap { ["-Xcc", $0] })]

// The daemon's hot functions first: Sources/openurld/openurld.order lists the functions a start,
// a burst of clicks and the usual links run (make order-file: Benchmarks/order-file.sh, from callgrind),
// and lld puts them together at the front of the text. Scattered over 7 MB, they kept 6.2 MB of
// it resident (the kernel maps 64 KB around each page fault); together, ~4 MB. Names the build
// no longer has are skipped: a stale list only orders less.
let hotFunctionsFirst = ["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/openurld/openurld.order",
                         "-Xlinker", "--no-warn-symbol-ordering"]

let package = Package(
    name: "openurld",
    products: [
        .executable(name: "openurl", targets: ["openurl"]),
        // openurld, openurl-tool and openurl-chooser in one binary; the build's and the install's
        // openurl-tool and openurl-chooser are symlinks to it (see Sources/openurld).
        .executable(name: "openurld", targets: ["openurld"]),
    ],
    targets: [
        // C boundaries: a modulemap and a shim header each, or a small C++ bridge for toml++
        // (for the tests only now: the oracle our own TOML reader is held to).
        .target(
            name: "CTOML",
            cxxSettings: [
                .define("TOML_HEADER_ONLY", to: "0"),
                .define("TOML_SHARED_LIB", to: "1"),
            ],
            linkerSettings: [.linkedLibrary("tomlplusplus")]
        ),
        // ICU's UTS #46 (IDNA) mapping, as browsers use it for hosts; and ICU's spoof checker
        // (UTS 39: restriction levels, skeletons) and character properties. Neither links ICU:
        // each loads it (dlopen) when a non-ASCII host or text first needs it.
        .target(name: "CIDNA"),
        .target(name: "CSpoof"),
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // GIO, for the tests only: the oracle our desktop-entry and Exec readers are held to.
        .systemLibrary(name: "CGIO", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // GTK 4's declarations, for the chooser window only (Debian libgtk-4-dev); it links nothing.
        .systemLibrary(name: "CGtk"),
        // The GTK functions the chooser calls, forwarding into libgtk-4 loaded with dlopen in
        // chooser mode only, so the multi-call binary does not link GTK, nor GLib and GObject.
        .target(name: "CGtkLoader", cSettings: [.unsafeFlags(gtkIncludeFlags)], linkerSettings: [.linkedLibrary("dl")]),

        // The system calls the others need (files, directories, environment, clocks, threads, the
        // one lock, descriptors, sockets, child processes): the only module that imports Glibc,
        // so nothing installed needs Foundation. It depends on nothing of the package.
        .target(name: "Platform"),

        // Pure logic, no I/O, one module per concern; each depends only on the ones above it.
        // JSON values: written for machine output, parsed (RFC 8259, order kept) for data files.
        .target(name: "JSON"),
        // The URL model: WHATWG parsing and hosts, percent-encoding, Punycode, mailto (RFC 6068), public suffixes.
        .target(name: "URLModel", dependencies: ["CIDNA", "Platform"]),
        // Patterns as users write them: PCRE2 regular expressions and globs.
        .target(name: "Patterns", dependencies: ["CPCRE2", "Platform"]),
        // URL hygiene: redirect unwrapping, tracking-parameter cleaning, the ClearURLs catalogue.
        .target(name: "Hygiene", dependencies: ["URLModel", "Patterns", "JSON", "Platform"]),
        // Link extraction: URLs and addresses found in free text, as linkify-it finds them.
        .target(name: "LinkExtraction"),
        // Link safety: IDN look-alikes as browsers judge them, look-alikes of the user's domains,
        // offline block lists, link text naming another domain; one verdict per link.
        .target(name: "LinkSafety", dependencies: ["CSpoof", "URLModel", "LinkExtraction", "JSON", "Platform"]),
        // Site lists admins already keep for their browsers: Enterprise Mode schema v.1 and v.2
        // XML and Chrome's URL lists, read and matched as Legacy Browser Support matches them.
        .target(name: "SiteLists", dependencies: ["URLModel"]),
        // The link's vocabulary, under everything that routes: the decision and its effect, the
        // target, a rule's intent, the choice, the launch, the outcome, the trace, the moment's
        // facts, the safety verdict on a decision and the rule sources. Values only.
        .target(name: "RoutingCore", dependencies: ["URLModel", "JSON", "LinkSafety"]),
        // What is installed and what it is called: desktop entries, browsers and their profiles,
        // web apps, mail programs, app links, the labels and icons of choices.
        .target(name: "Catalog", dependencies: ["RoutingCore", "URLModel", "JSON"]),
        // TOML documents with positions (toml++ through CTOML), for file:line:column errors.
        .target(name: "TOML"),
        // `{url}`-style templates and the built-in webmail compose templates.
        .target(name: "Templates", dependencies: ["URLModel"]),
        // The config language: its schema, reading TOML into rules, layers, remembered answers,
        // diagnostics, globs as URLs are written.
        .target(name: "ConfigLanguage", dependencies: ["RoutingCore", "Catalog", "TOML", "Templates", "URLModel", "Patterns", "Hygiene", "JSON",
                                                       "LinkSafety", "SiteLists", "Platform"]),
        // The engine: one decision for a link, from the rules in force (`decide`), its index and
        // how each matcher is judged.
        .target(name: "Routing", dependencies: ["JSON", "URLModel", "Patterns", "Hygiene", "LinkSafety", "SiteLists", "RoutingCore", "Catalog", "TOML", "Templates", "ConfigLanguage", "Platform"]),
        // Swift over libdbus.
        .target(name: "DBus", dependencies: ["CDBus", "Platform"]),
        // The Router1 contract: its names, keys, error names and the click's time budget are
        // defined once, in C (CRouterContract/router1.h), for the Embedded handler and for
        // RouterContract, which adds the decision's a{sv} and JSON encodings and the options' reader.
        .systemLibrary(name: "CRouterContract"),
        .target(name: "RouterContract", dependencies: ["CRouterContract", "Platform", "JSON", "LinkSafety", "RoutingCore", "DBus"]),
        // Desktop entries, their Exec lines, spawning and discovery of what is installed.
        .target(name: "Launching", dependencies: ["Platform", "RoutingCore", "Catalog", "RouterContract"]),
        // The desktop's default handlers: takeover, restore, the guard against a browser taking them.
        .target(name: "DesktopDefaults", dependencies: ["Platform", "DBus", "RouterContract", "Launching"]),
        // The config files on disk: loading with discovery, remembered answers.
        .target(name: "ConfigFiles", dependencies: ["Platform", "URLModel", "Hygiene", "LinkSafety", "SiteLists", "RoutingCore", "Catalog", "TOML", "ConfigLanguage", "Routing", "Launching", "DesktopDefaults"]),
        // What a click's moment holds beside the URL: NetworkManager's network (watched on the
        // system bus), the local time, the X11 display's focused window and held keys (spoken
        // to directly, no libX11), and the programs running (from /proc).
        .target(name: "SessionState", dependencies: ["Platform", "RoutingCore", "DBus"]),
        // What the user is told: desktop notifications (org.freedesktop.Notifications), their
        // texts, and the log or the terminal, as the session allows.
        .target(name: "Notifying", dependencies: ["Platform", "URLModel", "RoutingCore", "TOML", "ConfigLanguage", "DBus", "RouterContract"]),
        // What is kept on disk of each click: the recent links, the questions still waiting, the
        // id counter; each file written whole, never through a link.
        .target(name: "Records", dependencies: ["Platform", "JSON", "URLModel", "RoutingCore", "DBus", "RouterContract"]),
        // Carrying decisions out: launch, copy, notify, ask.
        .target(name: "Execution", dependencies: ["Platform", "Notifying", "Records", "JSON", "URLModel", "RoutingCore", "Catalog", "ConfigLanguage", "Routing", "DBus", "RouterContract", "Launching", "DesktopDefaults", "ConfigFiles"]),

        // The daemon: owns io.github.openurld on the session bus.
        .target(name: "OpenurlDaemon", dependencies: ["Platform", "URLModel", "LinkExtraction", "RoutingCore", "TOML", "ConfigLanguage", "Routing", "DBus", "RouterContract", "Launching", "DesktopDefaults", "ConfigFiles", "SessionState", "Notifying", "Records", "Execution", "LinkSafety"]),
        // The XDG handler on every click's path: Embedded Swift over libc, speaking the D-Bus wire
        // format itself (no Swift runtime to start, no libdbus, ~75 KB), so a click costs less than
        // `dbus-send`. COpenurl is its C library.
        .systemLibrary(name: "COpenurl"),
        .executableTarget(name: "openurl", dependencies: ["COpenurl", "CRouterContract"],
                          swiftSettings: [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo"])],
                          linkerSettings: [.unsafeFlags(["-enable-experimental-feature", "Embedded"])]),
        // Every other command and the embedded mode; `openurl` hands over to it with execv.
        // Every way a link can arrive (xdg-open per desktop, gio, the portal, sensible-browser,
        // $BROWSER, ...), what each would run, and what `openurl doctor --fix` may mend.
        .target(name: "ArrivalPaths", dependencies: ["Platform", "Launching", "DesktopDefaults"]),
        // The browser companion's host side: native-messaging frames, its requests, the browser
        // it serves, and whether a clicked link stays in that browser. No I/O but /proc.
        .target(name: "BrowserCompanion", dependencies: ["Catalog", "JSON", "Platform", "URLModel"]),
        .target(name: "OpenurlTool", dependencies: ["ArrivalPaths", "BrowserCompanion", "Platform", "JSON", "URLModel", "Hygiene", "LinkExtraction", "LinkSafety", "RoutingCore", "Catalog", "TOML", "ConfigLanguage", "Routing", "DBus", "RouterContract", "Launching", "DesktopDefaults", "ConfigFiles", "SessionState", "Notifying", "Execution", "OpenurlCommands"]),
        // The one table of openurl's commands: parsing, help, man synopsis, completions. No Foundation.
        .target(name: "OpenurlCommands"),

        // What openurld's GTK windows share: the C casts, signals, labels.
        .target(name: "GtkWidgets", dependencies: ["CGtk", "RoutingCore"], swiftSettings: gtkSwiftSettings),
        // The chooser window the daemon spawns for `ask` (GTK 4; never linked into openurl).
        .target(name: "OpenurlChooser", dependencies: ["CGtk", "CGtkLoader", "GtkWidgets", "Platform", "JSON", "URLModel", "LinkSafety", "RoutingCore", "RouterContract"],
                swiftSettings: gtkSwiftSettings),
        // `openurl settings`: the rules in force, a link tried, recent clicks made into rules,
        // remembered answers, the default handlers (GTK 4); it talks to the daemon over Router1 and
        // writes only the user's config.toml.
        .target(name: "OpenurlSettings", dependencies: ["CGtk", "CGtkLoader", "GtkWidgets", "Platform", "JSON", "URLModel", "RoutingCore", "Catalog",
                                                        "ConfigLanguage", "ConfigFiles", "DBus", "RouterContract", "Launching"],
                swiftSettings: gtkSwiftSettings),
        // One binary for the three above, dispatching on the name it was run by (argv[0]).
        .executableTarget(name: "openurld", dependencies: ["OpenurlDaemon", "OpenurlTool", "OpenurlChooser", "OpenurlSettings", "Platform"],
                          exclude: ["openurld.order"], swiftSettings: gtkSwiftSettings,
                          linkerSettings: [.unsafeFlags(hotFunctionsFirst, .when(configuration: .release))]),

        // Fakes and harnesses for tests: private buses, Xvfb + dunst, a recording browser.
        .target(name: "TestSupport", dependencies: ["DBus", "Platform"]),
        .executableTarget(name: "openurl-fake-browser", dependencies: ["Platform"]),

        // Release-mode benchmarks, each printing figures beside the peer it names; BenchSupport
        // is their one copy of the clock, the statistics and the figures' formats.
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport"),
        .executableTarget(name: "bench-routing", dependencies: ["BenchSupport", "URLModel", "Patterns", "Hygiene", "LinkSafety", "SiteLists", "RoutingCore", "ConfigLanguage", "Routing"], path: "Benchmarks/bench-routing"),
        .executableTarget(name: "bench-extract", dependencies: ["BenchSupport", "LinkExtraction"], path: "Benchmarks/bench-extract"),
        .executableTarget(name: "bench-hostile", dependencies: ["BenchSupport", "URLModel", "ConfigLanguage"], path: "Benchmarks/bench-hostile"),
        .executableTarget(name: "bench-hygiene", dependencies: ["BenchSupport", "Hygiene"], path: "Benchmarks/bench-hygiene"),
        .executableTarget(name: "bench-daemon", dependencies: ["BenchSupport", "DBus", "TestSupport"], path: "Benchmarks/bench-daemon"),
        .executableTarget(name: "bench-chooser", dependencies: ["BenchSupport", "TestSupport"], path: "Benchmarks/bench-chooser"),
        .executableTarget(name: "bench-footprint", dependencies: ["BenchSupport", "DBus", "LinkSafety", "TestSupport"], path: "Benchmarks/bench-footprint"),
        .executableTarget(name: "bench-safety", dependencies: ["BenchSupport", "URLModel", "LinkSafety"], path: "Benchmarks/bench-safety"),
        .executableTarget(name: "bench-doctor", dependencies: ["BenchSupport", "TestSupport"], path: "Benchmarks/bench-doctor"),
        .executableTarget(name: "bench-companion", dependencies: ["BenchSupport", "DBus", "TestSupport"], path: "Benchmarks/bench-companion"),
        .executableTarget(name: "bench-gio", dependencies: ["BenchSupport", "DBus", "TestSupport"], path: "Benchmarks/bench-gio"),
        .executableTarget(name: "bench-notify", dependencies: ["BenchSupport", "ConfigLanguage", "DBus", "Launching", "Notifying", "Execution", "TestSupport"], path: "Benchmarks/bench-notify"),

        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "URLModelTests", dependencies: ["URLModel", "Patterns", "TestSupport"]),
        .testTarget(name: "HygieneTests", dependencies: ["URLModel", "Hygiene", "Patterns", "TestSupport"]),
        .testTarget(name: "LinkExtractionTests", dependencies: ["LinkExtraction", "TestSupport"]),
        .testTarget(name: "LinkSafetyTests", dependencies: ["LinkSafety", "URLModel", "JSON", "Platform"], exclude: ["Data"]),
        .testTarget(name: "RoutingTests", dependencies: ["JSON", "URLModel", "Patterns", "Hygiene", "LinkSafety", "SiteLists", "RoutingCore", "Catalog", "TOML", "Templates", "ConfigLanguage", "Routing", "TestSupport", "CTOML"]),
        .testTarget(name: "OpenurlChooserTests", dependencies: ["URLModel", "RouterContract", "OpenurlChooser"], swiftSettings: gtkSwiftSettings),
        .testTarget(name: "SiteListsTests", dependencies: ["SiteLists", "URLModel", "TestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport", "CDBus"]),
        .testTarget(name: "RouterContractTests", dependencies: ["JSON", "RoutingCore", "ConfigLanguage", "Routing", "DBus", "RouterContract"]),
        // In-process tests of Launching, DesktopDefaults and Execution: browser discovery, spawned
        // processes and their time limits, the click record, clipboard, notifications, default
        // handlers and their takeover, the session clock.
        .testTarget(name: "LaunchingAndExecutionTests", dependencies: ["JSON", "URLModel", "RoutingCore", "Catalog", "ConfigLanguage", "Routing", "DBus", "Launching", "DesktopDefaults", "Notifying", "Records", "Execution", "ConfigFiles", "Platform", "TestSupport", "CGIO"]),
        .testTarget(name: "ConfigFilesTests", dependencies: ["RoutingCore", "ConfigLanguage", "ConfigFiles", "Routing", "Platform"]),
        .testTarget(name: "SessionStateTests", dependencies: ["RoutingCore", "SessionState", "TestSupport"]),
        // Issue 15's guard: no installed binary links Foundation or Foundation's ICU.
        .testTarget(name: "FootprintTests", dependencies: ["TestSupport"]),
        .testTarget(name: "BrowserCompanionTests", dependencies: ["BrowserCompanion", "JSON", "TestSupport"]),
        .testTarget(name: "ArrivalPathsTests", dependencies: ["ArrivalPaths", "DesktopDefaults", "RoutingCore", "Launching"]),
        .testTarget(name: "IntegrationTests", dependencies: ["JSON", "Templates", "ConfigLanguage", "DBus", "RouterContract", "OpenurlCommands", "TestSupport"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)

// Every Swift module imports what it uses, members included (a member found only through another
// module's import is an error), so Package.swift's edges stay the imports. The Embedded handler
// (`openurl`) has its own settings; C targets have none.
let cTargets: Set<String> = ["CTOML", "CIDNA", "CSpoof", "CGtkLoader"]
for target in package.targets where target.type != .system && target.name != "openurl" && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

// What we ship is built without _StringProcessing: nothing in it uses Regex, yet the implicit
// import let String's generic search (`contains`, `firstRange(of:)`) pull in the Regex parser and
// the Unicode names table, ~1.4 MB of the binary. Platform's `Text+Search` searches by bytes
// instead. Tests, benchmarks and test helpers keep the implicit import.
let notShipped: Set<String> = ["openurl", "TestSupport", "openurl-fake-browser"]
for target in package.targets where (target.type == .regular || target.type == .executable)
    && !notShipped.contains(target.name) && !cTargets.contains(target.name) && target.path?.hasPrefix("Benchmarks") != true {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]
}

// Release executables link with lld: make's RELEASE builds with thin LTO, which gold cannot link;
// lld packs the relative relocations (DT_RELR, glibc 2.36: ~5 KB where gold's RELA entries took
// 0.55 MB, and fewer to apply at start) and folds identical functions (--icf=all: Swift emits many
// byte-identical specializations and thunks; 0.54 MB). Nothing in Swift compares function
// addresses, and the release binary passes the whole suite (`make test-release`).
//
// They take libstdc++ from GCC's static archive (Build/static-libstdc++ holds a linker script the
// Swift driver's `-lstdc++` finds first): the Swift runtime calls 22 of its functions, and the
// shared library cost ~0.9 MB of every daemon's Rss just by being mapped and initialised.
for target in package.targets where target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + [
        .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--icf=all",
                      "-L", "\(Context.packageDirectory)/Build/static-libstdc++"],
                     .when(configuration: .release)),
    ]
}
