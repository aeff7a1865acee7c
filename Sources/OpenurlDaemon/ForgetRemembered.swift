import ConfigFiles
import ConfigLanguage
import DBus
import Platform
import RouterContract
import RoutingCore
import Routing

/// `ForgetRemembered(s name)`: the settings window's "Forget" and `openurl rules forget`. The
/// answer is cut out of `remembered.toml` (the rest of the file as it was), then the rules are
/// reloaded, and the reply waits for that: once it comes, the next click no longer uses the answer.
extension Daemon {
    var forgetRememberedMethod: DBusMethod {
        DBusMethod(Router1.Method.forgetRemembered, inputs: [.init("name", "s")]) { [unowned self] args, context in
            let name = args[0].string ?? ""
            try self.forgetRemembered(name)
            Log.info("forgot the remembered answer \"\(name)\"")
            return try self.answering(context) { reply in self.reloadInBackground { reply(Self.reloadReply($0)) } }
        }
    }

    /// Removes the remembered answer `name` from its file; a name that is not one (unknown, or a
    /// rule of a config file) is `InvalidArgs` saying what it is, a file that cannot be written `Failed`.
    func forgetRemembered(_ name: String) throws {
        let config = rules.engine.config
        guard config.remembered.contains(where: { $0.name == name }) else {
            throw DBusError.invalidArgs(Self.notRemembered(name, config: config))
        }
        let written: Bool
        do { written = try RememberedRulesFile.forget(name, configPath: configPath) } catch {
            throw DBusError(name: Router1.Error.failed, message: "\"\(name)\" not forgotten: \(error.description)")
        }
        guard written else {
            // In force, but no longer in the file: it was edited since the last load.
            throw DBusError.invalidArgs("no remembered answer named \"\(name)\" in \(ConfigFile.rememberedPath(besides: configPath)) any more (it changed since it was loaded; openurl reload)")
        }
    }

    /// Why `name` cannot be forgotten: a rule of a config file is not an answer (it is turned
    /// off, or edited), and an unknown name lists the answers there are.
    static func notRemembered(_ name: String, config: Config) -> String {
        if let rule = config.rules.first(where: { $0.name == name }) {
            let layer = rule.source.layer == .system ? "the system configuration" : "your configuration"
            return "\"\(name)\" is a rule of \(layer) (\(rule.source.file):\(rule.source.line)), not a remembered answer: "
                + "turn it off with openurl rules disable, or edit the file"
        }
        let names = config.remembered.compactMap(\.name).map { "\"\($0)\"" }
        return "no remembered answer named \"\(name)\" (remembered: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
    }
}
