// openurl: the XDG handler and the command-line client of openurld.
import Foundation

exit(Client(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment).run())
