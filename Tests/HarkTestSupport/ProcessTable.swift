import Foundation

/// The processes alive on this machine, read from /proc as `ps` would: how
/// tests find a helper process Hark started without asking Hark for it.
public enum ProcessTable {
    /// The live processes (zombies left out) whose command line matches,
    /// only the children of `parent` when one is given.
    public static func processes(childrenOf parent: pid_t? = nil,
                                 where matches: ([String]) -> Bool) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let status = stat(of: pid), status.state != "Z" else { return false }
            if let parent, status.parent != parent { return false }
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return matches(data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// The children of this test process running `script` (a helper Hark spawned).
    public static func helpers(running script: String) -> [pid_t] {
        processes(childrenOf: getpid()) { $0.contains(script) }
    }

    /// The helpers running `script`, once there are at least `count` (or
    /// after `seconds`): a helper that was just spawned may still be between
    /// its launcher's exec and its own (`chrt` then Python), when its command
    /// line reads empty for a moment.
    public static func helpers(running script: String, atLeast count: Int, within seconds: Double = 10) -> [pid_t] {
        let deadline = Date().addingTimeInterval(seconds)
        var found = helpers(running: script)
        while found.count < count, Date() < deadline {
            usleep(10_000)
            found = helpers(running: script)
        }
        return found
    }

    /// Whether `pid` has ended (gone, or a zombie nobody reaped yet).
    public static func isDead(_ pid: pid_t) -> Bool {
        stat(of: pid).map { $0.state == "Z" } ?? true
    }

    /// State letter and parent from /proc/PID/stat (after the command's closing parenthesis).
    private static func stat(of pid: pid_t) -> (state: Substring, parent: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
        return (fields[0], parent)
    }
}
