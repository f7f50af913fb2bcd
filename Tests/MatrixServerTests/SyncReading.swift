import Matrix

/// What another person's client makes of a room's part of a `/sync`.
extension SyncResponse.JoinedRoom {
    /// The voice and audio messages of this batch, oldest first.
    var audioMessages: [(event: RoomEvent, content: MessageContent)] {
        timeline.compactMap { event in
            guard case .message(let content) = event.content, content.isAudio, event.eventID != nil
            else { return nil }
            return (event, content)
        }
    }

    /// The ids of the events redacted in this batch.
    var redactedEventIDs: [String] {
        timeline.compactMap { event in
            if case .redaction(let redacts) = event.content { return redacts }
            return nil
        }
    }
}
