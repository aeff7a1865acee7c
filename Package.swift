// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "openurld",
    products: [
        .executable(name: "openurl", targets: ["openurl"]),
        .executable(name: "openurl-tool", targets: ["openurl-tool"]),
        .executable(name: "openurld", targets: ["openurld"]),
        .executable(name: "openurl-chooser", targets: ["openurl-chooser"]),
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
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CGIO", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // GTK 4, for the chooser window only.
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),

        // Pure routing logic: no I/O.
        .target(name: "Routing", dependencies: ["CTOML", "CPCRE2", "CIDNA"]),
        // Swift over libdbus.
        .target(name: "DBus", dependencies: ["CDBus"]),
        // Side effects behind protocols.
        .target(name: "Desktop", dependencies: ["Routing", "DBus", "CGIO"]),

        .executableTarget(name: "openurld", dependencies: ["Routing", "DBus", "Desktop"]),
        // The XDG handler on every click's path: only libdbus, so it starts in a millisecond or two.
        .executableTarget(name: "openurl", dependencies: ["DBus", "OpenurlCommands"]),
        // Every other command and the embedded mode; `openurl` hands over to it with execv.
        .executableTarget(name: "openurl-tool", dependencies: ["Routing", "DBus", "Desktop", "OpenurlCommands"], path: "Sources/OpenurlTool"),
        // The one table of openurl's commands: parsing, help, man synopsis, completions. No Foundation.
        .target(name: "OpenurlCommands"),

        // The chooser window the daemon spawns for `ask` (GTK 4; never linked into openurld or openurl).
        .executableTarget(name: "openurl-chooser", dependencies: ["CGtk", "Routing"], path: "Sources/Chooser"),

        // Fakes and harnesses for tests: private buses, Xvfb + dunst, a recording browser.
        .target(name: "TestSupport", dependencies: ["DBus"]),
        .executableTarget(name: "openurl-fake-browser", path: "Sources/FakeBrowser"),

        // Release-mode benchmarks, each printing figures beside the peer it names.
        .executableTarget(name: "bench-routing", dependencies: ["Routing"], path: "Benchmarks/Routing"),
        .executableTarget(name: "bench-extract", dependencies: ["Routing"], path: "Benchmarks/Extract"),
        .executableTarget(name: "bench-hostile", dependencies: ["Routing"], path: "Benchmarks/Hostile"),
        .executableTarget(name: "bench-hygiene", dependencies: ["Routing"], path: "Benchmarks/Hygiene"),
        .executableTarget(name: "bench-daemon", dependencies: ["DBus", "TestSupport"], path: "Benchmarks/Daemon"),
        .executableTarget(name: "bench-chooser", dependencies: ["DBus", "TestSupport"], path: "Benchmarks/Chooser"),
        .executableTarget(name: "bench-notify", dependencies: ["Desktop", "DBus", "TestSupport"], path: "Benchmarks/Notify"),

        .testTarget(name: "RoutingTests", dependencies: ["Routing"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "DesktopTests", dependencies: ["Desktop", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Routing", "DBus", "TestSupport", "OpenurlCommands"]),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)
