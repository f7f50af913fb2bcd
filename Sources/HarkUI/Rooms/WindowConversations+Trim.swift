import MessageStore
import StoreAudio

extension WindowConversations {
    /// A take of one's own sent with Send to… goes trimmed of the silence at
    /// its ends, as a draft does, and the one kept is the same; other audio
    /// (an import, a received message) goes as it is.
    func trimmingTakes(_ message: Message, then send: @escaping @MainActor (Message) -> Void) {
        guard message.origin == .recorded else { return send(message) }
        Task { [weak self] in
            let store = self?.account.store
            _ = try? await store?.trimSilence(of: message.id)
            send((try? store?.message(message.id)) ?? message)
        }
    }
}
