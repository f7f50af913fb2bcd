extension RecoveryReport {
    /// What recovery found in the files, in a sentence for the user (the
    /// window's toast, the CLI's stderr); nil when there is nothing to say.
    public var summary: String? {
        var parts: [String] = []
        func count(_ number: Int, _ one: String, _ many: String) -> String { number == 1 ? one : "\(number) \(many)" }
        if !recoveredRecordings.isEmpty {
            parts.append(count(recoveredRecordings.count, "an interrupted recording was saved",
                               "interrupted recordings were saved"))
        }
        if !adoptedFiles.isEmpty {
            parts.append(count(adoptedFiles.count, "an audio file found in the messages folder was added",
                               "audio files found in the messages folder were added"))
        }
        if !linksLeftOut.isEmpty {
            parts.append(count(linksLeftOut.count, "a link in the messages folder to a file outside it was not added",
                               "links in the messages folder to files outside it were not added"))
        }
        if !markedMissing.isEmpty {
            // Which one, when it is one: "a message" sends the user searching.
            if markedMissing.count == 1, let title = missingTitles.first {
                parts.append("the audio file of “\(title)” is missing")
            } else if markedMissing.count == 1 {
                parts.append("a message's audio file is missing")
            } else {
                parts.append("the audio files of \(markedMissing.count) messages are missing")
            }
        }
        guard var sentence = parts.first.map({ $0.prefix(1).uppercased() + $0.dropFirst() }) else { return nil }
        for part in parts.dropFirst() { sentence += "; " + part }
        return sentence + "."
    }
}
