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
        if let value {
            try run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [.text(Self.settingKey(key)), .text(value)])
        } else {
            try run("DELETE FROM meta WHERE key = ?", [.text(Self.settingKey(key))])
        }
    }

    /// Settings share `meta` with the store's own bookkeeping; the prefix
    /// keeps them apart.
    private static func settingKey(_ key: String) -> String { "setting." + key }
}
