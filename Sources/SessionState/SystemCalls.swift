import Platform

/// A connection to a local X server's socket whose reads and writes give up at one deadline
/// (Platform's `UnixSocket`, its failures worded for the X server).
final class LocalSocket {
    private let socket: UnixSocket

    /// Connects to `path`; every later read and write must finish within `timeout` seconds of now.
    init(path: String, timeout: Double) throws {
        do { socket = try UnixSocket(connectingTo: path, timeout: timeout) } catch { throw Self.explained(error) }
    }

    /// Closes the connection.
    func close() { socket.close() }

    /// Sends all of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        do { try socket.write(bytes) } catch { throw Self.explained(error) }
    }

    /// Exactly `count` bytes.
    func read(_ count: Int) throws -> [UInt8] {
        do { return try socket.read(count) } catch { throw Self.explained(error) }
    }

    /// The failure as an X11Error, in the words used before the socket moved to Platform.
    private static func explained(_ failure: UnixSocket.Failure) -> X11Error {
        switch failure {
        case .system(let error) where error.operation == "connect":
            return X11Error("cannot connect to \(error.path ?? ""): \(error.message)")
        case .system(let error): return X11Error(error.description)
        case .pathTooLong: return X11Error("socket path too long")
        case .timedOut: return X11Error("no answer within the time allowed (a hung X server?)")
        case .closedByPeer: return X11Error("the X server closed the connection")
        case .connectionFailed: return X11Error("the connection failed")
        }
    }

    /// The whole file (at most 1 MiB), or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = try? ReadableFile(path), let bytes = try? file.read(upTo: 1 << 20), bytes.count <= 1 << 20 else { return nil }
        return bytes
    }

    /// This machine's host name (as Xauthority's local entries name it).
    static func hostName() -> String { Environment.hostName }
}

/// The real user id of this process.
func currentUserID() -> UInt32 { Environment.userID }

/// The owner of a path (without following a final symlink), or nil.
func ownerOf(_ path: String) -> UInt32? { (try? FileSystem.status(path, followingSymlinks: false))?.owner }
