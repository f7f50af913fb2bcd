/// What the user asked for on the command line. Parsing is kept apart from
/// running so that every command reads its arguments the same way.
enum CommandLineRequest: Equatable {
    case gui
    case help
    case version
    /// A one-line reason; the process exits with status 2 (a usage error).
    case usageError(String)

    static func parse(_ arguments: [String]) -> CommandLineRequest {
        guard let first = arguments.first else { return .gui }
        switch first {
        case "-h", "--help", "help":
            return arguments.count == 1 ? .help : .usageError("'\(first)' takes no arguments")
        case "--version":
            return arguments.count == 1 ? .version : .usageError("'--version' takes no arguments")
        case let option where option.hasPrefix("-"):
            return .usageError("unknown option '\(option)'")
        default:
            return .usageError("unknown command '\(first)'")
        }
    }

    static let usage = """
        Usage: hark [COMMAND] [OPTIONS]

        Record, play and keep voice messages.

        With no command, Hark opens its window (or shows the one already open).

        Commands:
          help, -h, --help    Show this help and exit
          --version           Print the version and exit

        Exit status: 0 on success, 1 on failure, 2 on a usage error.
        """
}
