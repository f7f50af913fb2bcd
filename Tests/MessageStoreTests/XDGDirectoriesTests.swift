import MessageStore
import XCTest

/// The XDG base directories as the specification has them.
final class XDGDirectoriesTests: XCTestCase {
    private func folders(_ environment: [String: String], passwdHome: String? = "/home/from-passwd") -> XDGDirectories {
        XDGDirectories(environment: environment, passwdHome: { passwdHome })
    }

    func testWithoutXDGVariablesTheFoldersAreUnderHOMENotThePasswdHome() {
        let found = folders(["HOME": "/tmp/alt"])
        XCTAssertEqual(found.home, "/tmp/alt")
        XCTAssertEqual(found.dataHome.path, "/tmp/alt/.local/share")
        XCTAssertEqual(found.cacheHome.path, "/tmp/alt/.cache")
        XCTAssertEqual(found.configHome.path, "/tmp/alt/.config")
    }

    func testAbsoluteXDGVariablesWin() {
        let found = folders(["HOME": "/tmp/alt", "XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "/cache", "XDG_CONFIG_HOME": "/config"])
        XCTAssertEqual(found.dataHome.path, "/data")
        XCTAssertEqual(found.cacheHome.path, "/cache")
        XCTAssertEqual(found.configHome.path, "/config")
    }

    /// "If an implementation encounters a relative path in any of these
    /// variables it should consider the path invalid and ignore it."
    func testRelativeOrEmptyXDGVariablesAreIgnored() {
        let found = folders(["HOME": "/tmp/alt", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "config"])
        XCTAssertEqual(found.dataHome.path, "/tmp/alt/.local/share")
        XCTAssertEqual(found.configHome.path, "/tmp/alt/.config")
        XCTAssertEqual(found.cacheHome.path, "/tmp/alt/.cache")
    }

    func testWithoutHOMEThePasswdHomeIsUsed() {
        XCTAssertEqual(folders([:]).dataHome.path, "/home/from-passwd/.local/share")
        XCTAssertEqual(folders(["HOME": ""]).cacheHome.path, "/home/from-passwd/.cache")
    }

    func testThePasswdHomeIsThisUsersEntry() {
        XCTAssertEqual(XDGDirectories.passwdHome(), getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) })
    }
}
