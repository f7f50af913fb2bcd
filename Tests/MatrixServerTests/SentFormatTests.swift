@testable import Conversations
import AudioEngine
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// A voice message goes out as Ogg Opus, whatever the message's own file
/// is: an imported WAV is converted (the message keeps its WAV), Ogg Opus
/// goes byte for byte. What is checked is what Synapse serves back.
/// (An extension of ConversationTests: the same homeserver, started once for the class.)
extension ConversationTests {
    func testAnImportedWAVGoesOutAsOggOpusAndTheMessageKeepsItsWAV() throws {
        let url = try server.url, base = folder.url
        let wav = folder.path("Twelve seconds.wav"), downloaded = folder.path("downloaded")
        try WAVFile.write([.init(seconds: 1, amplitude: 0), .init(seconds: 10, amplitude: 0.5),
                           .init(seconds: 1, amplitude: 0)], rate: 48_000, to: URL(fileURLWithPath: wav))
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "From a WAV")
            let message = try alice.store.importFile(wav, title: "Twelve seconds")
            let original = try XCTUnwrap(FileManager.default.contents(atPath: alice.store.audioPath(of: message)))
            try awaitOnLoop { try await alice.syncOnce() }
            _ = try alice.send(message.id, to: roomID)
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])

            let content = try XCTUnwrap(try Self.audioEvents(bob, roomID: roomID).first?.content)
            XCTAssertTrue(content.isVoice)
            XCTAssertEqual(content.info?.mimetype, "audio/ogg")
            XCTAssertEqual(content.fileName, "Twelve seconds.ogg")
            let uploaded = try awaitOnLoop { try await bob.downloadedData(contentURI: try XCTUnwrap(content.url)) }
            XCTAssertEqual(content.info?.size, uploaded.count)
            XCTAssertLessThan(uploaded.count, original.count / 10, "Opus, not PCM")
            try uploaded.write(to: URL(fileURLWithPath: downloaded))
            let (status, found) = try ChildProcess.run("/usr/bin/gst-typefind-1.0", [downloaded])
            XCTAssertEqual(status, 0, found)
            XCTAssertTrue(found.contains("audio/ogg"), found)
            XCTAssertEqual(AudioContent(path: downloaded).kind, .oggOpus)
            XCTAssertEqual(try Analyzer.analyze(path: downloaded).duration, message.duration, accuracy: 0.1)

            XCTAssertEqual(FileManager.default.contents(atPath: alice.store.audioPath(of: message)), original,
                           "the message's own file is kept as it was")
            XCTAssertEqual(AudioContent(path: alice.store.audioPath(of: message)).kind, .wav)
        }
    }

    func testAnOggOpusMessageIsUploadedByteForByte() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Already Opus")
            let message = try Self.voiceMessage(in: alice.store, voicePath, title: "Opus")
            try awaitOnLoop { try await alice.syncOnce() }
            _ = try alice.send(message.id, to: roomID)
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            let content = try XCTUnwrap(try Self.audioEvents(bob, roomID: roomID).first?.content)
            let uploaded = try awaitOnLoop { try await bob.downloadedData(contentURI: try XCTUnwrap(content.url)) }
            XCTAssertEqual(uploaded, FileManager.default.contents(atPath: alice.store.audioPath(of: message)))
            XCTAssertEqual(content.info?.mimetype, "audio/ogg")
            XCTAssertEqual(content.info?.size, uploaded.count)
            XCTAssertEqual(content.fileName, "Opus.ogg")
        }
    }
}
