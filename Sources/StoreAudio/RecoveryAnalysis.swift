import AudioEngine
import Levels
import MessageStore

/// The store's recovery with AudioEngine's Analyzer measuring the files it
/// finds (recordings a crash left, files with no row, unreadable levels).
extension MessageStore {
    @discardableResult
    public func recover(thorough: Bool = false) throws(StoreError) -> RecoveryReport {
        try recover(thorough: thorough, analyze: Self.analyze)
    }

    @discardableResult
    public func recoverInterruptedRecordings() throws(StoreError) -> RecoveryReport {
        try recoverInterruptedRecordings(analyze: Self.analyze)
    }

    @discardableResult
    public func compareFiles(thorough: Bool = false) throws(StoreError) -> RecoveryReport {
        try compareFiles(thorough: thorough, analyze: Self.analyze)
    }

    private static func analyze(_ path: String) throws -> Analysis { try Analyzer.analyze(path: path) }
}
