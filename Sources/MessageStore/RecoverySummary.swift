import Localization

extension RecoveryReport {
    /// What recovery found in the files, in a sentence for the user (the
    /// window's toast, the CLI's stderr); nil when there is nothing to say.
    /// Each finding is a clause of its own; they are joined as the
    /// language joins clauses ("; " in English) into one sentence.
    public var summary: String? {
        var parts: [String] = []
        if !recoveredRecordings.isEmpty {
            parts.append(trn("an interrupted recording was saved", "{count} interrupted recordings were saved",
                             recoveredRecordings.count))
        }
        if !adoptedFiles.isEmpty {
            parts.append(trn("an audio file found in the messages folder was added",
                             "{count} audio files found in the messages folder were added", adoptedFiles.count))
        }
        if !linksLeftOut.isEmpty {
            parts.append(trn("a link in the messages folder to a file outside it was not added",
                             "{count} links in the messages folder to files outside it were not added", linksLeftOut.count))
        }
        if !markedMissing.isEmpty {
            // Which one, when it is one: "a message" sends the user searching.
            if markedMissing.count == 1, let title = missingTitles.first {
                parts.append(tr("the audio file of “{title}” is missing", ["title": title]))
            } else if markedMissing.count == 1 {
                parts.append(tr("a message's audio file is missing"))
            } else {
                parts.append(trn("the audio file of {count} message is missing", "the audio files of {count} messages are missing",
                                 markedMissing.count))
            }
        }
        guard var sentence = parts.first.map({ $0.prefix(1).uppercased() + $0.dropFirst() }) else { return nil }
        // TRANSLATORS: joins two findings of recovery into one sentence, "an interrupted recording was saved; a message's audio file is missing".
        for part in parts.dropFirst() { sentence = tr("{findings}; {finding}", ["findings": sentence, "finding": part]) }
        // TRANSLATORS: ends the sentence of recovery's findings.
        return tr("{findings}.", ["findings": sentence])
    }
}
