import Localization

/// `hark --help`: the commands, then the record key.
extension CommandLineRequest {
    static var usage: String { commands + "\n\n" + recordKey }

    // TRANSLATORS: the end of `hark --help`; keep 'hark record --toggle' and the lines at most 72 characters.
    private static var recordKey: String { tr("""
        A record key: 'hark record --toggle' starts a recording in Hark's window
        (opening it), or stops the one it records; bind it to a key in GNOME
        Settings, Keyboard, Custom Shortcuts.
        """) }

    private static var commands: String { tr("""
        Usage: hark [COMMAND] [OPTIONS]

        Record, play and keep voice messages.

        With no command, Hark opens its window (or shows the one already open).

        Commands:
          record [--output FILE.ogg] [--duration SECONDS] [--source DESCRIPTION] [--title T] [--raw]
                              Record from the default microphone (or a GStreamer
                              source description) into the message store, printing
                              the new message's id, or to an Ogg/Opus file;
                              Ctrl+C or the duration ends it cleanly. Background
                              noise is reduced and the voice's level evened out
                              unless --raw is given
          play FILE|ID [--start SECONDS] [--rate R] [--skip-silence]
                              Play a file or a message to the default output
                              (R from 0.5 to 2); --skip-silence shortens the long
                              pauses and prints the time saved
          list [--json] [--limit N]
                              List the messages, newest first (the first N)
          import FILE...      Add audio files to the messages (a chained Ogg
                              file is refused: convert it to one stream first)
          rename ID TITLE     Rename a message
          delete ID           Delete a message (undo with undelete)
          undelete ID         Bring a deleted message back
          export ID PATH [--format opus|mp3|wav] [--force]
                              Write a message's audio to PATH as Ogg Opus, MP3
                              or WAV; the format follows PATH's extension unless
                              given; audio already in it (by its content) is
                              copied unchanged, other audio converted
                              (--force replaces a regular file; a device, link
                              or folder is never replaced)
          waveform FILE|ID --png OUT [--width W] [--height H] [--played F]
                   [--style bars|line] [--dark] [--force]
                              Draw a file's or a message's waveform to a PNG
                              (a message's stored levels are used: no decoding;
                              --force replaces an existing file)
          levels FILE --json  Print the file's duration and its 50 ms RMS and peak
                              levels (dBFS, floored at -100) as JSON
          account login --homeserver URL --user NAME
                              Sign in to a Matrix account (URL, server name or
                              Matrix ID; the password from standard input, or
                              asked for); the token is kept in the keyring only
          account logout      Sign out (the server ends the session)
          account status [--json]
                              Who is signed in, this device, whether it is
                              cross-signed, and how many messages wait
          account recover [--new]
                              Verify this device with the account's recovery key
                              or passphrase (from standard input), or with --new
                              make the account's identity and print its new
                              recovery key once (keep it safe; the password,
                              when the server asks, from HARK_PASSWORD)
          encryption install  Install the engine Hark encrypts with (vodozemac,
                              about 1 MB, progress on standard error)
          dm USER_ID          Find or start the direct chat with someone and
                              print its room id (encrypted when they have keys)
          accept-identity USER_ID
                              Accept the new identity of someone whose identity
                              changed ('hark sync' says so): their devices are
                              trusted again and get room keys
          rooms [--json]      The joined rooms and invitations (with --json,
                              identity_changed: members whose identity changed)
          join ROOM_ID        Join a room, or accept its invitation
          leave ROOM_ID       Leave a room, or decline its invitation
          send ID ROOM_ID [--with-transcript]
                              Send a message into a room as a voice message and
                              print its event id; exit status 3 when the server
                              cannot be reached (it stays queued). With
                              --with-transcript its transcript goes inside the
                              event, for people and clients that read rather than
                              listen; a message without one is not sent (exit
                              status 1: 'hark transcribe ID' first)
          sync [--once]       Send what is queued, then receive the rooms' voice
                              messages (once, or until Ctrl+C)
          transcriber enable [--language en|auto|CODE]
                              Transcribe messages on this computer: installs the
                              engine and model once (about 200 MB, progress on
                              standard error), then new recordings, imports and
                              received messages are transcribed as they are
                              saved ('record', 'import' and 'sync' do it before
                              they end; Ctrl+C leaves it queued)
          transcriber disable Stop transcribing (transcripts made are kept)
          transcriber status [--json]
                              Whether it is on, installed, and what waits
          transcribe ID...|--all
                              Transcribe messages now (--all: every one without
                              a transcript, those queued included), waiting, and
                              print each transcript
          search WORDS [--json]
                              The messages whose title or transcript has the
                              words (numbers as digits or words: 10 or ten)
          gallery [--still]   Open a window showing every widget, for review
                              (--still: without moving sample data)
          help, -h, --help    Show this help and exit
          --version           Print the version and exit

        After '--', nothing is taken for an option: 'hark import -- -take.ogg'.

        Exit status: 0 on success, 1 on failure, 2 on a usage error, 3 when a
        message is queued because the server cannot be reached.
        """) }
}
