import MessageStore

extension MessageStore {
    /// The messages `hark list` shows (all but deleted ones), newest first.
    func list(limit: Int? = nil) throws -> [Message] {
        var listed: [Message] = []
        try eachListed(limit: limit) { listed.append($0) }
        return listed
    }
}
