// openurl: the XDG handler and the command-line client of openurld.
#if canImport(Glibc)
import Glibc
#endif

exit(Client(arguments: Array(CommandLine.arguments.dropFirst()), environment: Environment.current).run())
