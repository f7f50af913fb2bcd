import Foundation
import HarkTestSupport
import XCTest

/// Without `XDG_DATA_HOME` and `XDG_CACHE_HOME`, the store is under `$HOME`,
/// as the XDG specification says, not under the home the passwd database
/// gives (Foundation's choice).
final class HomeFolderCommandTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    /// A short recording to import, in `folder`.
    private func recording(in folder: ScratchFolder) throws -> String {
        let path = folder.path("to-import.ogg")
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.5", "--output", path,
                                                                     "--source", tone])
        XCTAssertEqual(status, 0, output)
        return path
    }

    /// The command `hark arguments…` with `HOME` set to `home` and no XDG
    /// data or cache folder.
    private func withHome(_ home: String, _ arguments: [String]) -> [String] {
        ["-u", "XDG_DATA_HOME", "-u", "XDG_CACHE_HOME", "HOME=\(home)", harkExecutable] + arguments
    }

    /// `HOME=… hark import` puts the message in `$HOME/.local/share/hark`, and
    /// nothing in the passwd entry's home. That home is an empty tmpfs in a
    /// mount namespace of the test's own, so that a Hark that still wrote
    /// there would write nothing that outlives the test.
    func testImportGoesUnderHOME() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root, to mount a tmpfs over the passwd home in a namespace") }
        let scratch = try ScratchFolder()
        let file = try recording(in: scratch)
        let home = scratch.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        guard let entry = getpwuid(getuid()) else { throw XCTSkip("this user has no passwd entry") }
        let passwdHome = String(cString: entry.pointee.pw_dir)
        for needed in [harkExecutable, scratch.url.path] where (needed + "/").hasPrefix(passwdHome + "/") {
            throw XCTSkip("\(needed) is inside the passwd home \(passwdHome), which the test hides")
        }
        // Both commands inside the namespace: a Hark that wrote to the
        // passwd home would write into the tmpfs, which goes with it.
        let shell = """
            passwd_home=$1 home=$2 hark=$3 file=$4
            mount -t tmpfs -o size=1m tmpfs "$passwd_home" || exit 97
            unset XDG_DATA_HOME XDG_CACHE_HOME
            HOME=$home "$hark" import "$file" || exit 1
            HOME=$home "$hark" list || exit 2
            echo "in the passwd home: [$(ls -A "$passwd_home")]"
            """
        let (status, output) = try ChildProcess.run("/usr/bin/unshare",
                                                    ["--mount", "--propagation", "private", "/bin/sh", "-c", shell, "sh",
                                                     passwdHome, home, harkExecutable, file])
        if status == 97 { throw XCTSkip("cannot mount in a mount namespace of its own here: \(output)") }
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("to-import"), "listed: \(output)")
        XCTAssertTrue(output.contains("in the passwd home: []"), "nothing written to the passwd home: \(output)")
        let messages = home + "/.local/share/hark/messages"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: messages).count, 1, "imported under $HOME")
    }

    /// A user whose passwd home does not exist (`nobody`: /nonexistent) can
    /// use Hark with a `HOME` of its own; it used to fail, unable to create
    /// /nonexistent/.local/share/hark.
    func testAUserWhosePasswdHomeDoesNotExistUsesHOME() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root, to run a command as nobody") }
        let scratch = try ScratchFolder()
        let file = try recording(in: scratch)
        guard let nobody = getpwnam("nobody"), !FileManager.default.fileExists(atPath: String(cString: nobody.pointee.pw_dir)) else {
            throw XCTSkip("no user nobody whose home does not exist")
        }
        let asNobody = ["--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups", "/usr/bin/env"]
        // The test's own temporary folder is private to root: nobody's home
        // and the file it imports are in a folder of their own in /tmp.
        var template = Array("/tmp/hark-nobody-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("cannot make a folder in /tmp") }
        let folder = String(cString: made)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o755)
        let home = folder + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: file, toPath: folder + "/to-import.ogg")
        chown(home, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        chmod(folder + "/to-import.ogg", 0o644)
        let reachable = try ChildProcess.run("/usr/bin/setpriv", asNobody + ["test", "-x", harkExecutable])
        guard reachable.status == 0 else { throw XCTSkip("nobody cannot run \(harkExecutable) (a private build folder)") }
        let (status, output) = try ChildProcess.run("/usr/bin/setpriv", asNobody + withHome(home, ["import", folder + "/to-import.ogg"]))
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/.local/share/hark/messages").count, 1,
                       "imported under $HOME: \(output)")
    }
}
