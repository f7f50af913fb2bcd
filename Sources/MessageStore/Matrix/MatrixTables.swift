/// The Matrix account's state in the store: the account's record and sync
/// token, rooms and their members, the outbox, downloads, the messages
/// received and the timeline's gaps. Conversations keeps it; the window and
/// the command line read what they show of it.
///
/// Not a database of its own: the store's connection, so its changes share
/// the store's transactions, the salvage of a damaged database and the
/// refusal of a store that can only be read, and a message's row and its
/// room's stay consistent. Each table's statements are an extension of this
/// type in a file of their own beside this one; the encryption's records
/// (device lists, the bookkeeping of room keys) will be one more.
public struct MatrixTables {
    let store: MessageStore
}

extension MessageStore {
    /// The Matrix account's tables, in this store's database.
    public var matrix: MatrixTables { MatrixTables(store: self) }
}
