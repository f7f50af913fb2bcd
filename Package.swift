// swift-tools-version:6.0
// Hark — a GTK4 voice-message app. Dependencies point one way:
//   hark-window → HarkUI → GtkSupport → GLibSupport → C modules
//   HarkUI → HarkModel (playback, the account, transcription: no GTK) → Conversations, Transcription, AudioEngine
//   hark (the command line: no GTK) → Conversations, Transcription, StoreAudio, MessageStore, AudioEngine, Drawing
//   StoreAudio (the store's audio work: imports analysed, exports transcoded, StoreRecording: a take
//     recorded into the store, for the window and the command line) → MessageStore and AudioEngine
// The model's changes are observed through Subscriptions (several observers, each ended by its
// token): the window, the rooms and a media-player service each subscribe on their own.
// Levels and Subscriptions are pure Swift; Drawing, AudioEngine, MessageStore, StoreAudio and HarkModel never import GTK.
// GStreamer is AudioEngine's alone (its C in CGStreamerHelpers, its BusWatch): GLibSupport, CHelpers,
// MessageStore, Matrix, HelperProcesses and Transcription link none (StoreAudio analyses and transcodes for the store).
// The Matrix tables are one value beside the messages, `store.matrix` (MessageStore/Matrix/), that Conversations keeps.
// End-to-end encryption plugs into Conversations as one seam (RoomEncryption: a sync's keys in, events
// decrypted before the store, sends encrypted once): its keys in the Encryption engine (a helper
// process over HelperProcesses), attachments and cross-signing in Swift on MatrixCrypto (libcrypto).
import PackageDescription

let package = Package(
    name: "Hark",
    products: [
        .executable(name: "hark", targets: ["hark"]),
        .executable(name: "hark-window", targets: ["hark-window"]),
    ],
    targets: [
        // MARK: C libraries from Debian, through pkg-config.
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "gio-unix-2.0"),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo"),
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk4"),
        .systemLibrary(name: "CAdwaita", path: "Sources/CAdwaita", pkgConfig: "libadwaita-1"),
        .systemLibrary(
            name: "CGStreamer", path: "Sources/CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-audio-1.0 gstreamer-app-1.0 gstreamer-pbutils-1.0"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CEpoxy", path: "Sources/CEpoxy", pkgConfig: "epoxy"),
        .systemLibrary(name: "CSoup", path: "Sources/CSoup", pkgConfig: "libsoup-3.0"),
        .systemLibrary(name: "CSecret", path: "Sources/CSecret", pkgConfig: "libsecret-1"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto"),
        // Only what Swift cannot do, with GLib alone: libdispatch's main-queue SPI, renameat2.
        .target(
            name: "CHelpers",
            dependencies: ["CGLib"],
            linkerSettings: [.linkedLibrary("dispatch")]),
        // Only what Swift cannot do with GStreamer: GValueArray reads, the recorder's pad probes, Skip Silence's
        // fades (GStreamer's controller library). AudioEngine's alone.
        .target(name: "CGStreamerHelpers", dependencies: ["CGStreamer"], linkerSettings: [.linkedLibrary("gstcontroller-1.0")]),

        // Which OpenGL draws the windows (a GPU, or the CPU in software).
        .target(name: "CGraphicsProbe", dependencies: ["CGtk", "CEpoxy"]),

        // MARK: Swift modules.
        .target(name: "GLibSupport", dependencies: ["CGLib", "CHelpers"]),
        .target(name: "GtkSupport", dependencies: ["GLibSupport", "CGLib", "CGtk", "CAdwaita"]),
        .target(name: "Levels"),
        // Hark's name, id and version: for the window and the command line alike.
        .target(name: "Identity"),
        // Hark in the user's language: gettext (GLib's g_dgettext) through tr(), trn(), trc().
        .target(name: "Localization", dependencies: ["Identity", "CGLib"]),
        .target(name: "Drawing", dependencies: ["Levels", "CCairo"]),
        // SQLite and files, no GStreamer: analyses (Levels' Analysis) and transcodings come from above (StoreAudio).
        .target(name: "MessageStore", dependencies: ["Localization", "Levels", "CSQLite", "CHelpers"]),
        // GStreamer, no GTK: recording, playback, analysis, transcoding, and the bus watch they share.
        .target(name: "AudioEngine", dependencies: ["Localization", "Levels", "GLibSupport", "CGLib", "CGStreamer", "CGStreamerHelpers"]),
        // The store's audio work, done above it: imports and recovery analysed, exports transcoded,
        // StoreRecording (a take from its row and lock to its message: the composer's and `hark record`'s).
        .target(name: "StoreAudio", dependencies: ["Localization", "MessageStore", "AudioEngine", "Levels"]),
        // Matrix, no GTK: pure requests and decoders, HTTP on GLib's loop (libsoup), the keyring (libsecret).
        .target(name: "Matrix", dependencies: ["Localization", "Levels", "GLibSupport", "MatrixCrypto", "CGLib", "CSoup", "CSecret"]),
        // End-to-end encryption's pure pieces (libcrypto, no GTK, no network): canonical JSON and
        // signing, Ed25519, encrypted attachments, Secret Storage and recovery keys.
        .target(name: "MatrixCrypto", dependencies: ["Localization", "COpenSSL"]),
        // Programs beside Hark (no GTK): spawning (GSubprocess), a bounded line reader, and a
        // JSON-lines channel whose calls are matched by id. The transcriber is one; the encryption helper next.
        .target(name: "HelperProcesses", dependencies: ["Localization", "GLibSupport", "CGLib"]),
        // End-to-end encryption (no GTK): the vodozemac helper (Resources/crypto-engine.py) over a JSON-lines channel.
        .target(name: "Encryption", dependencies: ["HelperProcesses", "Identity"]),
        // Local transcripts (no GTK): the helper over a JSON-lines channel, its queue in MessageStore.
        .target(name: "Transcription", dependencies: ["Localization", "MessageStore", "HelperProcesses", "GLibSupport", "Identity", "CGLib"]),
        // The signed-in account at work (outbox, sync, downloads, encryption), its state in MessageStore; no GTK.
        .target(name: "Conversations", dependencies: ["Localization", "Matrix", "MatrixCrypto", "Encryption", "MessageStore", "StoreAudio", "AudioEngine", "Levels", "GLibSupport", "Subscriptions"]),
        // Observers and their Subscription tokens: pure Swift with no dependency (it needs no GLib),
        // so every layer can offer its changes to several observers, the model first.
        .target(name: "Subscriptions"),
        // The model the window shows, with no GTK (no CGtk, no CAdwaita): the one player, the Matrix
        // account, the transcription service. Their changes go to every subscriber (the window, the
        // rooms, a media-player service), none wrapping another.
        .target(name: "HarkModel", dependencies: ["Subscriptions", "Localization", "Conversations", "Transcription", "HelperProcesses", "Encryption", "Matrix",
                                                  "AudioEngine", "MessageStore", "Levels"]),
        .target(name: "HarkUI", dependencies: ["HarkModel", "Subscriptions", "Localization", "Conversations", "Transcription", "HelperProcesses", "Matrix", "GtkSupport", "GLibSupport", "Drawing", "Levels", "AudioEngine", "MessageStore", "StoreAudio", "Identity", "CGLib", "CGtk", "CAdwaita", "CCairo", "CGraphicsProbe"]),
        .executableTarget(name: "hark-bench", dependencies: ["Drawing", "Levels", "CCairo", "MessageStore", "StoreAudio"]),
        // The command line links no GTK (loading it cost `hark record` its first 100 ms):
        // `hark` with no command, or `hark gallery`, execs the window's own executable.
        .executableTarget(name: "hark", dependencies: ["Localization", "Transcription", "Conversations", "Matrix", "AudioEngine", "MessageStore", "StoreAudio", "Drawing", "Levels", "GLibSupport", "Identity", "Encryption", "HelperProcesses"]),
        .executableTarget(name: "hark-window", dependencies: ["Localization", "HarkUI"]),

        // MARK: Tests. GLib-bound tests are XCTest methods: XCTest runs them on the
        // process's main thread, where the GLib main loop lives (see GLibSupportTests).
        .testTarget(
            name: "GLibSupportTests",
            dependencies: ["GLibSupport", "CGLib", "CHelpers"]),
        .testTarget(
            name: "HarkUITests",
            dependencies: ["HarkUI", "HarkModel", "GtkSupport", "GLibSupport", "MessageStore", "StoreAudio", "AudioEngine", "Drawing", "Levels", "HarkTestSupport", "CTestSignals", "CCairo",
                           "Matrix", "Conversations", "Identity", "Transcription", "HelperProcesses", "Encryption", "CGLib", "CGtk", "CAdwaita"]),
        // Black-box tests of the `hark` binary: the CLI without a display, the
        // window (launch, single instance, Ctrl+Q) under Xvfb and D-Bus.
        .target(name: "HarkTestSupport", dependencies: ["CTimeCode", "GLibSupport"], path: "Tests/HarkTestSupport"),
        .target(name: "CTimeCode", path: "Tests/CTimeCode", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("m")]),
        .testTarget(name: "LevelsTests", dependencies: ["Levels"]),
        .testTarget(name: "SubscriptionsTests", dependencies: ["Subscriptions"]),
        // The model without a display: real GStreamer (into a fakesink) and a real store.
        .testTarget(name: "HarkModelTests", dependencies: ["HarkModel", "Subscriptions", "MessageStore", "Levels", "GLibSupport",
                                                           "AudioEngine", "HarkTestSupport"]),
        .testTarget(name: "IdentityTests", dependencies: ["Identity"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(name: "MatrixTests", dependencies: ["Matrix", "MatrixCrypto", "Levels"]),
        .testTarget(name: "MatrixCryptoTests", dependencies: ["MatrixCrypto"]),
        .testTarget(name: "ConversationsTests", dependencies: ["Conversations", "Matrix", "MessageStore", "StoreAudio", "HarkTestSupport"]),
        // Against a real Synapse and a real gnome-keyring the tests start themselves.
        .testTarget(name: "MatrixServerTests",
                    dependencies: ["Matrix", "MatrixCrypto", "Conversations", "MessageStore", "StoreAudio", "Levels", "GLibSupport", "AudioEngine",
                                   "HarkTestSupport"]),
        // The window against a real Synapse and gnome-keyring, under Xvfb.
        .testTarget(name: "MatrixAppTests",
                    dependencies: ["HarkUI", "HarkModel", "Matrix", "MatrixCrypto", "Conversations", "Encryption", "MessageStore", "StoreAudio", "AudioEngine", "Levels",
                                   "GtkSupport", "GLibSupport", "HarkTestSupport", "CTestSignals", "CGLib", "CGtk", "CAdwaita"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "Levels", "CCairo"]),
        .testTarget(name: "MessageStoreTests", dependencies: ["MessageStore", "StoreAudio", "AudioEngine", "Levels", "CSQLite", "HarkTestSupport"]),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "Levels", "GLibSupport", "HarkTestSupport", "CGLib", "CGStreamer"]),
        .testTarget(name: "CModulesTests", dependencies: ["CCairo", "CSQLite"]),
        .target(name: "CTestSignals", dependencies: ["CGLib"], path: "Tests/CTestSignals"),
        .testTarget(
            name: "GtkSupportTests",
            dependencies: ["GtkSupport", "GLibSupport", "CGLib", "CGtk", "CTestSignals"]),
        .testTarget(name: "HarkCLITests", dependencies: ["hark", "HarkTestSupport", "CCairo", "CSQLite"]),
        .testTarget(name: "HarkAppTests", dependencies: ["hark", "hark-window", "HarkTestSupport"]),
        // With the real engine and model (scripts/run-tests installs them once into .build/transcriber).
        .testTarget(name: "HelperProcessesTests", dependencies: ["HelperProcesses", "GLibSupport", "HarkTestSupport"]),
        // With the real engine (scripts/run-tests installs it once into .build/crypto-engine),
        // and matrix-nio peers against Synapse (.build/nio-venv).
        // The engine alone, and Hark's encryption against Synapse with a matrix-nio peer as the other person.
        .testTarget(name: "EncryptionTests", dependencies: ["Encryption", "Conversations", "Matrix", "MatrixCrypto", "MessageStore",
                                                            "StoreAudio", "HelperProcesses", "GLibSupport", "HarkTestSupport"]),
        .testTarget(name: "TranscriptionTests",
                    dependencies: ["Transcription", "HelperProcesses", "hark", "MessageStore", "StoreAudio", "GLibSupport", "HarkTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
