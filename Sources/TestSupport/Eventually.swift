import Foundation

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass, then asks once more
/// (so a condition that became true during the last sleep still counts). For what another
/// process or thread brings about, where a fixed sleep would be either too long or flaky.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
