import Foundation

/// What encrypted rooms add to the Matrix tables (migrations 14 and 15): the
/// ciphertext a send was made with, and how a received file is decrypted.
extension MatrixTables {
    /// The encrypted event content a send into an encrypted room was made
    /// with (JSON text), once it was encrypted; nil before.
    public func encryptedContent(ofSend transactionID: String) throws(StoreError) -> Data? {
        try json("SELECT encrypted_content FROM outbox WHERE transaction_id = ?", transactionID)
    }

    /// Keeps what a send encrypted, before it is sent; its message went encrypted.
    public func setEncryptedContent(ofSend transactionID: String, _ content: Data) throws(StoreError) {
        try store.checkWritable()
        try store.inTransaction {
            try store.database.query("UPDATE outbox SET encrypted_content = ? WHERE transaction_id = ?",
                                     [.text(String(decoding: content, as: UTF8.self)), .text(transactionID)])
            try store.database.query("""
                UPDATE messages SET encrypted = 1 WHERE id = (SELECT message_id FROM outbox WHERE transaction_id = ?)
                """, [.text(transactionID)])
        }
    }

    /// How a received message's audio is decrypted (the event's `file` as JSON), when it came encrypted.
    public func encryptedMedia(of messageID: String) throws(StoreError) -> Data? {
        try json("SELECT file FROM encrypted_media WHERE message_id = ?", messageID)
    }

    public func setEncryptedMedia(of messageID: String, file: Data) throws(StoreError) {
        try store.checkWritable()
        try store.run("INSERT OR REPLACE INTO encrypted_media (message_id, file) VALUES (?, ?)",
                      [.text(messageID), .text(String(decoding: file, as: UTF8.self))])
    }

    /// The one JSON text `query` finds for `key`, as bytes.
    private func json(_ query: String, _ key: String) throws(StoreError) -> Data? {
        var found: Data?
        try store.run(query, [.text(key)]) { row in found = row.text(0).map { Data($0.utf8) } }
        return found
    }
}
