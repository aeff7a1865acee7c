import DBus
import RouterContract
import Testing

/// `Routed` and `ConfigReloaded`: what the daemon emits, listeners read back, and a missing or
/// mistyped argument is an error naming it.
@Suite struct Router1SignalsTests {
    @Test(arguments: [
        RoutedSignal(url: "https://example.org/", decision: "open", target: "firefox.desktop", rule: "Work"),
        RoutedSignal(url: "mailto:a@b.c", decision: "discard", target: "", rule: ""),
    ])
    func routedRoundTrips(signal: RoutedSignal) throws {
        #expect(try RoutedSignal(arguments: signal.arguments) == signal)
        #expect(signal.arguments.map(\.signature).joined() == RoutedSignal.declaration.arguments.map(\.signature).joined())
    }

    @Test(arguments: [ConfigReloadedSignal(error: ""), ConfigReloadedSignal(error: "config.toml:3:1: unknown key"), ConfigReloadedSignal(ok: false, error: "")])
    func configReloadedRoundTrips(signal: ConfigReloadedSignal) throws {
        #expect(try ConfigReloadedSignal(arguments: signal.arguments) == signal)
        #expect(signal.arguments.map(\.signature).joined() == "bs")
    }

    @Test(arguments: [
        ([DBusValue.string("u"), .string("open"), .string("t")], "Routed: rule: missing"),
        ([.string("u"), .uint32(1), .string("t"), .string("r")], "Routed: decision: must be a string (s)"),
        ([], "Routed: url: missing"),
    ])
    func aBadRoutedArgumentIsNamed(arguments: [DBusValue], message: String) {
        do { _ = try RoutedSignal(arguments: arguments); Issue.record("decoded \(arguments)") } catch { #expect(error.description == message) }
    }

    @Test(arguments: [
        ([DBusValue](), "ConfigReloaded: ok: missing"),
        ([.string("yes"), .string("")], "ConfigReloaded: ok: must be a boolean (b)"),
        ([.bool(true)], "ConfigReloaded: error: missing"),
        ([.bool(false), .uint32(2)], "ConfigReloaded: error: must be a string (s)"),
    ])
    func aBadConfigReloadedArgumentIsNamed(arguments: [DBusValue], message: String) {
        do { _ = try ConfigReloadedSignal(arguments: arguments); Issue.record("decoded \(arguments)") } catch { #expect(error.description == message) }
    }
}
