extension MessageStore {
    /// How long this store's statements wait for another process's write to
    /// end before failing as busy (`StoreError`'s "The message store is
    /// busy…"). Opening waits longer (another process may be creating or
    /// migrating the store); a command a user waits for need not.
    public func waitWhenBusy(milliseconds: Int32) {
        database.waitWhenBusy(milliseconds: milliseconds)
    }
}
