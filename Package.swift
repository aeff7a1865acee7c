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

let package = Package(
    name: "openurld",
    products: [
        .executable(name: "openurl", targets: ["openurl"]),
        // openurld, openurl-tool and openurl-chooser in one binary; the build's and the install's
        // openurl-tool and openurl-chooser are symlinks to it (see Sources/openurld).
        .executable(name: "openurld", targets: ["openurld"]),
    ],
    targets: [
        // C boundaries: a modulemap and a shim header each, or a small C++ bridge for toml++.
        .target(
            name: "CTOML",
            cxxSettings: [
                .define("TOML_HEADER_ONLY", to: "0"),
                .define("TOML_SHARED_LIB", to: "1"),
            ],
            linkerSettings: [.linkedLibrary("tomlplusplus")]
        ),
        // ICU's UTS #46 (IDNA) mapping, as browsers use it for hosts.
        .target(name: "CIDNA", linkerSettings: [.linkedLibrary("icuuc")]),
        // ICU's spoof checker (UTS 39: restriction levels, skeletons) and character properties.
        .target(name: "CSpoof", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CGIO", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // GTK 4's declarations, for the chooser window only (Debian libgtk-4-dev); it links nothing.
        .systemLibrary(name: "CGtk"),
        // The GTK functions the chooser calls, forwarding into libgtk-4 loaded with dlopen in
        // chooser mode only, so the multi-call binary does not link GTK. GLib and GObject are linked.
        .target(name: "CGtkLoader", cSettings: [.unsafeFlags(gtkIncludeFlags)],
                linkerSettings: [.linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"), .linkedLibrary("dl")]),

        // The system calls the others need (files, directories, environment, clocks, threads), over
        // Glibc in one file, so nothing installed needs Foundation.
        .target(name: "Platform"),

        // Pure logic, no I/O, one module per concern; each depends only on the ones above it.
        // JSON values: written for machine output, parsed (RFC 8259, order kept) for data files.
        .target(name: "JSON"),
        // The URL model: WHATWG parsing and hosts, percent-encoding, Punycode, mailto (RFC 6068), public suffixes.
        .target(name: "URLModel", dependencies: ["CIDNA"]),
        // Patterns as users write them: PCRE2 regular expressions and globs.
        .target(name: "Patterns", dependencies: ["CPCRE2"]),
        // URL hygiene: redirect unwrapping, tracking-parameter cleaning, the ClearURLs catalogue.
        .target(name: "Hygiene", dependencies: ["URLModel", "Patterns", "JSON"]),
        // Link extraction: URLs and addresses found in free text, as linkify-it finds them.
        .target(name: "LinkExtraction"),
        // Link safety: IDN look-alikes as browsers judge them, look-alikes of the user's domains,
        // offline block lists, link text naming another domain; one verdict per link.
        .target(name: "LinkSafety", dependencies: ["CSpoof", "URLModel", "LinkExtraction", "JSON"]),
        // Site lists admins already keep for their browsers: Enterprise Mode schema v.1 and v.2
        // XML and Chrome's URL lists, read and matched as Legacy Browser Support matches them.
        .target(name: "SiteLists", dependencies: ["URLModel"]),
        // The rules: config schema, loading and errors, matchers, index, engine, decisions (each with its
        // safety verdict), templates, targets.
        .target(name: "Routing", dependencies: ["URLModel", "Patterns", "Hygiene", "JSON", "CTOML", "LinkSafety", "SiteLists"]),
        // Swift over libdbus.
        .target(name: "DBus", dependencies: ["CDBus", "Platform"]),
        // The Router1 contract: its names, keys, error names and the click's time budget are
        // defined once, in C (CRouterContract/router1.h), for the Embedded handler and for
        // RouterContract, which adds the decision's a{sv} and JSON encodings and the options' reader.
        .systemLibrary(name: "CRouterContract"),
        .target(name: "RouterContract", dependencies: ["CRouterContract", "Platform", "JSON", "DBus", "Routing"]),
        // Desktop entries, their Exec lines, spawning and discovery of what is installed.
        .target(name: "Launching", dependencies: ["Platform", "Routing", "RouterContract", "CGIO"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The desktop's default handlers: takeover, restore, the guard against a browser taking them.
        .target(name: "DesktopDefaults", dependencies: ["Platform", "DBus", "RouterContract", "Launching"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The config files on disk: loading with discovery, remembered answers.
        .target(name: "ConfigFiles", dependencies: ["Platform", "URLModel", "Hygiene", "LinkSafety", "Routing", "Launching", "DesktopDefaults", "SiteLists"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // What a click's moment holds beside the URL: NetworkManager's network (watched on the
        // system bus), the local time, the X11 display's focused window and held keys (spoken
        // to directly, no libX11), and the programs running (from /proc).
        .target(name: "SessionState", dependencies: ["Platform", "DBus", "Routing"]),
        // Carrying decisions out: launch, copy, notify, ask.
        .target(name: "Execution", dependencies: ["Platform", "JSON", "URLModel", "Routing", "DBus", "RouterContract", "Launching", "DesktopDefaults", "ConfigFiles"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),

        // The daemon: owns io.github.openurld on the session bus.
        .target(name: "OpenurlDaemon", dependencies: ["Platform", "URLModel", "LinkExtraction", "Routing", "DBus", "RouterContract",
                                                      "Launching", "DesktopDefaults", "ConfigFiles", "Execution", "SessionState"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The XDG handler on every click's path: Embedded Swift over libdbus (no Swift runtime to
        // start, ~100 KB), so a click costs about what `dbus-send` costs. COpenurl is its C library.
        .systemLibrary(name: "COpenurl"),
        .executableTarget(name: "openurl", dependencies: ["CDBus", "COpenurl", "CRouterContract"],
                          swiftSettings: [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo"])],
                          linkerSettings: [.unsafeFlags(["-enable-experimental-feature", "Embedded"])]),
        // Every other command and the embedded mode; `openurl` hands over to it with execv.
        .target(name: "OpenurlTool", dependencies: ["Platform", "JSON", "URLModel", "Hygiene", "LinkExtraction", "LinkSafety", "Routing", "DBus", "RouterContract",
                                                    "Launching", "DesktopDefaults", "ConfigFiles", "Execution", "OpenurlCommands", "SessionState"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The one table of openurl's commands: parsing, help, man synopsis, completions. No Foundation.
        .target(name: "OpenurlCommands"),

        // The chooser window the daemon spawns for `ask` (GTK 4; never linked into openurl).
        .target(name: "OpenurlChooser", dependencies: ["CGtk", "CGtkLoader", "Platform", "JSON", "URLModel", "Routing", "RouterContract"],
                swiftSettings: gtkSwiftSettings + [.enableUpcomingFeature("MemberImportVisibility")]),
        // One binary for the three above, dispatching on the name it was run by (argv[0]).
        .executableTarget(name: "openurld", dependencies: ["OpenurlDaemon", "OpenurlTool", "OpenurlChooser"],
                          swiftSettings: gtkSwiftSettings),

        // Fakes and harnesses for tests: private buses, Xvfb + dunst, a recording browser.
        .target(name: "TestSupport", dependencies: ["DBus"]),
        .executableTarget(name: "openurl-fake-browser"),

        // Release-mode benchmarks, each printing figures beside the peer it names.
        .executableTarget(name: "bench-routing", dependencies: ["Patterns", "Hygiene", "URLModel", "LinkSafety", "Routing", "SiteLists"], path: "Benchmarks/bench-routing"),
        .executableTarget(name: "bench-extract", dependencies: ["LinkExtraction"], path: "Benchmarks/bench-extract"),
        .executableTarget(name: "bench-hostile", dependencies: ["URLModel", "Routing"], path: "Benchmarks/bench-hostile"),
        .executableTarget(name: "bench-hygiene", dependencies: ["Hygiene"], path: "Benchmarks/bench-hygiene"),
        .executableTarget(name: "bench-daemon", dependencies: ["DBus", "TestSupport"], path: "Benchmarks/bench-daemon"),
        .executableTarget(name: "bench-chooser", dependencies: ["TestSupport"], path: "Benchmarks/bench-chooser"),
        .executableTarget(name: "bench-footprint", dependencies: ["DBus", "TestSupport"], path: "Benchmarks/bench-footprint"),
        .executableTarget(name: "bench-safety", dependencies: ["URLModel", "LinkSafety"], path: "Benchmarks/bench-safety"),
        .executableTarget(name: "bench-gio", dependencies: ["TestSupport"], path: "Benchmarks/bench-gio"),
        .executableTarget(name: "bench-notify", dependencies: ["Launching", "Execution", "DBus", "TestSupport"], path: "Benchmarks/bench-notify"),

        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "URLModelTests", dependencies: ["URLModel", "Patterns"]),
        .testTarget(name: "HygieneTests", dependencies: ["URLModel", "Hygiene"]),
        .testTarget(name: "LinkExtractionTests", dependencies: ["LinkExtraction"]),
        .testTarget(name: "LinkSafetyTests", dependencies: ["LinkSafety", "URLModel", "JSON"], exclude: ["Data"]),
        .testTarget(name: "RoutingTests", dependencies: ["JSON", "URLModel", "Patterns", "Hygiene", "LinkSafety", "Routing", "SiteLists"]),
        .testTarget(name: "SiteListsTests", dependencies: ["SiteLists", "URLModel"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "RouterContractTests", dependencies: ["DBus", "Routing", "RouterContract"]),
        .testTarget(name: "DesktopTests", dependencies: ["URLModel", "Routing", "DBus", "Launching", "DesktopDefaults", "Execution", "TestSupport"]),
        // Issue 15's guard: no installed binary links Foundation or Foundation's ICU.
        .testTarget(name: "FootprintTests", dependencies: ["TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Routing", "DBus", "RouterContract", "TestSupport", "OpenurlCommands"]),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)
