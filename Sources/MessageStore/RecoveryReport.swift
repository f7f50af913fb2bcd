import Localization

/// What opening the store had to repair.
public struct RecoveryReport: Sendable, Equatable {
    /// Where a damaged database file was moved (it is kept).
    public var movedAsideDatabase: String?
    public var recoveredRecordings: [String] = []
    public var adoptedFiles: [String] = []
    /// Files of `messages/` that are symbolic links to files outside the
    /// store: not adopted (their target is someone else's), only named.
    public var linksLeftOut: [String] = []
    public var markedMissing: [String] = []
    /// The titles of `markedMissing`, in the same order: the user is told
    /// which message lost its audio.
    public var missingTitles: [String] = []
    public var recomputedLevels: [String] = []
    /// Whether the files were compared with the rows (see `compareFiles`).
    public var comparedFiles = false
    /// Messages copied out of the damaged database, titles, levels and ids
    /// kept; and those its indexes knew of that could not be read.
    public var salvagedMessages = 0
    public var lostMessages = 0

    /// What the user is told when the database was damaged; nil when not.
    public var damageSummary: String? {
        guard let aside = movedAsideDatabase else { return nil }
        guard salvagedMessages > 0 else {
            return tr("The message database was damaged and could not be read; the messages were rebuilt "
                      + "from their audio files, without their titles, and the damaged file is kept as {file}.", ["file": aside])
        }
        guard lostMessages > 0 else {
            return trn("The message database was damaged: {count} message was saved from it with their titles, "
                           + "and the damaged file is kept as {file}.",
                       "The message database was damaged: {count} messages were saved from it with their titles, "
                           + "and the damaged file is kept as {file}.", salvagedMessages, ["file": aside])
        }
        // TRANSLATORS: {lost} is a number of messages, which could not be read.
        return trn("The message database was damaged: {count} message was saved from it with their titles "
                       + "({lost} could not be read), and the damaged file is kept as {file}.",
                   "The message database was damaged: {count} messages were saved from it with their titles "
                       + "({lost} could not be read), and the damaged file is kept as {file}.", salvagedMessages,
                   ["file": aside, "lost": LocaleNumbers.integer(lostMessages)])
    }

    public init() {}

    public var isEmpty: Bool {
        movedAsideDatabase == nil && recoveredRecordings.isEmpty && adoptedFiles.isEmpty
            && markedMissing.isEmpty && recomputedLevels.isEmpty
    }
}
