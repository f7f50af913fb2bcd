/// The user's choices (microphone, auto-play…), kept in the database's
/// `meta` table beside the messages: one place to back up, no schema files
/// to install as GSettings would need.
extension MessageStore {
    /// The value of a setting, or nil when it was never set.
    public func setting(_ key: String) -> String? {
        meta(Self.settingKey(key))
    }

    /// Sets (or with nil, forgets) a setting.
    public func setSetting(_ key: String, _ value: String?) throws(StoreError) {
        try checkWritable()
        try inTransaction { try setMeta(Self.settingKey(key), value) }
    }

    /// The draft's "Send With Transcript": a message sent from the window
    /// goes with its transcript inside its event. Off until turned on.
    public static let sendWithTranscriptSetting = "send.with-transcript"

    public var sendsWithTranscript: Bool { setting(Self.sendWithTranscriptSetting) == "on" }

    /// Settings share `meta` with the store's own bookkeeping; the prefix
    /// keeps them apart.
    private static func settingKey(_ key: String) -> String { "setting." + key }

    /// A row of `meta`: settings, and the Matrix account's record (`MatrixTables`).
    func meta(_ key: String) -> String? {
        var value: String?
        try? run("SELECT value FROM meta WHERE key = ?", [.text(key)]) { value = $0.text(0) }
        return value
    }

    /// Sets (nil: removes) a `meta` row, inside a transaction of the caller's.
    func setMeta(_ key: String, _ value: String?) throws(SQLiteError) {
        if let value {
            try database.query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        } else {
            try database.query("DELETE FROM meta WHERE key = ?", [.text(key)])
        }
    }
}
