import Identity
import XCTest

/// Both executables find the same prefix, hence the same stylesheet, helper
/// and translations: the command line in PREFIX/bin, the window in
/// PREFIX/libexec/hark.
final class InstalledLayoutTests: XCTestCase {
    func testBothExecutablesNameTheSamePrefix() {
        XCTAssertEqual(InstalledLayout.prefix(ofExecutable: "/usr/bin/hark"), "/usr")
        XCTAssertEqual(InstalledLayout.prefix(ofExecutable: "/usr/libexec/hark/hark-window"), "/usr")
        XCTAssertEqual(InstalledLayout.prefix(ofExecutable: "/opt/x/bin/hark"), "/opt/x")
        XCTAssertEqual(InstalledLayout.prefix(ofExecutable: "/opt/x/libexec/hark/hark-window"), "/opt/x")
    }

    func testABuildInACheckoutIsNotInstalled() {
        XCTAssertTrue(InstalledLayout.isBuiltInCheckout("/src/hark/.build/debug/hark-window"))
        XCTAssertFalse(InstalledLayout.isBuiltInCheckout("/usr/libexec/hark/hark-window"))
        XCTAssertNil(InstalledLayout.prefix, "these tests run from a build")
    }
}
