// openurl-chooser: the window openurld shows for an `ask` decision. It prints each answer as one
// JSON line on stdout (the daemon carries it out) and exits after the last one.
//
//   openurl-chooser --url URL [--original URL] [--opener NAME] [--safety JSON] --choice KEY<TAB>LABEL<TAB>ICON...
//                   [--dump]
//   openurl-chooser --serve   (one question per stdin line; see ChooserServer)
import CGtkLoader
import URLModel
import JSON
import Platform
import RoutingCore
import RouterContract

/// The command line, parsed.
struct ChooserArguments {
    var url = ""
    var original: String?
    var opener: String?
    var choices: [OfferedChoice] = []
    var dump = false
    /// `--safety JSON`: the decision's `safety` object (as `openurl test --json` prints it).
    var safety: LinkPreview.Safety?

    static let usage = "usage: openurl-chooser --url URL [--original URL] [--opener NAME] [--safety JSON] --choice 'KEY\\tLABEL\\tICON'... [--dump]"

    init(_ arguments: [String]) throws(ChooserFailure) {
        var rest = arguments[...]
        func value(_ flag: String) throws(ChooserFailure) -> String {
            guard let next = rest.popFirst() else { throw ChooserFailure("\(flag) needs a value\n\(Self.usage)") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--url": url = try value(argument)
            case "--original": original = try value(argument)
            case "--opener": opener = try value(argument)
            case "--dump": dump = true
            case "--safety":
                let text = try value(argument)
                guard let parsed = LinkPreview.Safety(json: try? JSONValue(parsing: text)) else {
                    throw ChooserFailure("--safety needs a safety object such as {\"verdict\":\"warn\",\"reasons\":[…]}")
                }
                safety = parsed
            case "--choice":
                let fields = try value(argument).split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
                guard let key = fields.first, !key.isEmpty else { throw ChooserFailure("--choice needs KEY<TAB>LABEL<TAB>ICON") }
                choices.append(OfferedChoice(key: key, label: fields.count > 1 && !fields[1].isEmpty ? fields[1] : key,
                                                  icon: fields.count > 2 ? fields[2] : ""))
            case "--help", "-h":
                print(Self.usage)
                exitProcess(0)
            default: throw ChooserFailure("unknown argument \(argument)\n\(Self.usage)")
            }
        }
        guard !url.isEmpty else { throw ChooserFailure("--url is required\n\(Self.usage)") }
        guard !choices.isEmpty else { throw ChooserFailure("at least one --choice is required\n\(Self.usage)") }
    }
}

/// A message for stderr and exit status 2.
struct ChooserFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The Public Suffix List's bytes, or nil when it cannot be read.
func readPublicSuffixList(path: String = PublicSuffixList.debianPath) -> [UInt8]? {
    FileSystem.contents(path)
}

/// Loads GTK 4 (the multi-call binary does not link it), or exits with status 3 and a message
/// saying what to install; the daemon then asks another way (a chooser that exits before its
/// window is shown could not ask).
func loadGTK() {
    var message = [CChar](repeating: 0, count: 512)
    guard openurl_gtk_load(&message, message.count) == 0 else {
        StandardStream.error.write("openurl-chooser: \(String(cString: message))\n")
        exitProcess(3)
    }
}

/// The chooser's entry point: `openurl-chooser` in the multi-call binary.
public enum ChooserMain {
    /// Shows the window for `arguments` (argv, program name first), or serves questions with `--serve`, and exits.
    public static func run(arguments: [String]) -> Never {
        if arguments.dropFirst().first == "--serve" {
            loadGTK()
            exitProcess(ChooserServer.run())
        }
        do {
            let arguments = try ChooserArguments(Array(arguments.dropFirst()))
            let preview: LinkPreview
            do {
                preview = try LinkPreview(url: arguments.url, original: arguments.original, choices: arguments.choices,
                                          opener: arguments.opener, publicSuffixes: readPublicSuffixList(), safety: arguments.safety)
            } catch {
                throw ChooserFailure("not a URL: \(error.message)")
            }
            if arguments.dump {
                print(preview.json.text)
                exitProcess(0)
            }
            loadGTK()
            exitProcess(ChooserWindow.run(preview))
        } catch let failure as ChooserFailure {
            StandardStream.error.write("openurl-chooser: \(failure.message)\n")
            exitProcess(2)
        } catch {
            StandardStream.error.write("openurl-chooser: \(error)\n")
            exitProcess(2)
        }
    }
}
