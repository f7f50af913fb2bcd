"""The measuring half of scripts/bench-encryption (which starts the homeserver,
the keyring and Hark's sign-in, then this with the nio peer's Python):

    bench-encryption.py HARK URL WORK RUNS COUNT

Alice is Hark (the `hark` command line), Bob the independent matrix-nio peer
of the tests (Tests/Peer/nio-peer.py), driven here in-process. It measures and
prints; it asserts nothing (a step that cannot be done is said, and ends it).
"""
import asyncio
import base64
import hashlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import threading
import time

import vodozemac

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Peer"))
_spec = importlib.util.spec_from_file_location("nio_peer", os.path.join(ROOT, "Tests", "Peer", "nio-peer.py"))
nio_peer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nio_peer)

ALICE, BOB = "@alice:localhost", "@bob:localhost"
HARK, URL, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
RUNS, COUNT = int(sys.argv[4]), int(sys.argv[5])


def line(label, value, unit, note=""):
    """A figure under its heading, as scripts/bench prints them."""
    print("    %-42s %6s %s%s" % (label, value, unit, ("   (" + note + ")") if note else ""), flush=True)


def give_up(what, detail=""):
    print("  (%s: %s)" % (what, detail.strip()[-400:]), flush=True)
    sys.exit(1)


class TimedPeer(nio_peer.Peer):
    """The peer, noting when each room event reached it (decrypted, when it could be)."""

    async def received(self, room, event):
        await super().received(room, event)
        self.events[-1]["at"] = time.monotonic()


async def hark(*arguments):
    child = await asyncio.create_subprocess_exec(HARK, *arguments, stdin=subprocess.DEVNULL,
                                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await child.communicate()
    if child.returncode != 0:
        give_up("hark " + " ".join(arguments) + " failed", err.decode() + out.decode())
    lines = out.decode().strip().splitlines()
    return lines[-1] if lines else ""


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


async def setup(bob):
    await bob.sign_in()
    await bob.sync_once()
    await bob.handle({"cmd": "cross_sign"})
    await hark("sync", "--once")                      # the engine set up, this device's keys uploaded
    await hark("account", "recover", "--new")         # cross-signed: the peer shares keys with it
    encrypted = await hark("dm", BOB)
    plain = (await bob.handle({"cmd": "create_room", "invite": [ALICE], "encrypted": False}))["room_id"]
    await hark("join", plain)
    await bob.handle({"cmd": "sync_until", "invited": True, "room_id": encrypted, "seconds": 60})
    await bob.handle({"cmd": "join", "room_id": encrypted})
    await bob.handle({"cmd": "trust", "mode": "cross_signed_only"})   # as Element since 2026
    await bob.handle({"cmd": "sync_until", "joined": ALICE, "room_id": plain, "seconds": 60})
    await hark("sync", "--once")                      # Bob's membership and devices known
    return encrypted, plain


async def one_send(bob, room, voice):
    """From `hark send` started to Bob's sync holding the event (decrypted) and
    to its audio downloaded (and decrypted); and `hark send`'s own time, in ms."""
    message = (await hark("import", voice)).split(" ")[0]
    await bob.sync_once()
    before = len(bob.events)

    async def arrival():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for event in bob.events[before:]:
                if event["room_id"] == room and event["sender"] == ALICE:
                    return event
            await bob.sync_once(30000)
        give_up("the peer did not receive the message in 60 s")

    waiting = asyncio.create_task(arrival())
    await asyncio.sleep(0.5)  # the long-poll is waiting
    start = time.monotonic()
    await hark("send", message, room)
    sent = time.monotonic()
    event = await waiting
    if event["undecryptable"] or event["content"].get("msgtype") != "m.audio":
        give_up("the peer could not read Hark's message", repr(event["content"])[:200])
    got = os.path.join(WORK, "received.ogg")
    answer = await bob.handle({"cmd": "download", "event_id": event["event_id"], "path": got})
    done = time.monotonic()
    if answer["sha256"] != sha256(voice):
        give_up("the peer's copy of the audio differs from Hark's")
    return [(event["at"] - start) * 1000, (done - start) * 1000, (sent - start) * 1000]


async def sends(bob, encrypted, plain):
    voice = os.path.join(WORK, "voice-30s.ogg")
    first = await one_send(bob, encrypted, voice)     # the room key shared with Bob's device over Olm
    await one_send(bob, plain, voice)
    times = {encrypted: [], plain: []}
    for _ in range(RUNS):
        for room in (plain, encrypted):
            times[room].append(await one_send(bob, room, voice))
    medians = {room: [statistics.median(run[i] for run in runs) for i in range(3)] for room, runs in times.items()}
    print("  a 30 s voice message, Stop → the nio peer has it (median of %d):" % RUNS, flush=True)
    for room, label in ((plain, "unencrypted room"), (encrypted, "encrypted chat")):
        event, audio, send = medians[room]
        line("%s: the event" % label, "%.0f" % event, "ms", "hark send exits at %.0f ms" % send)
        line("%s: and its audio" % label, "%.0f" % audio, "ms")
    for index, what in ((0, "the event"), (1, "with the audio")):
        line("encrypted / unencrypted, %s" % what, "%.2f" % (medians[encrypted][index] / medians[plain][index]), "x",
             "goal: at most 1.2x")
    line("first in the encrypted chat, with audio", "%.0f" % first[1], "ms",
         "its room key shared over Olm; hark send exits at %.0f ms" % first[2])


class PeakMemory(threading.Thread):
    """Polls the encryption helper under `parent` for its peak RSS (VmHWM, kB)."""

    def __init__(self, parent):
        super().__init__(daemon=True)
        self.parent, self.peak, self.done = str(parent), 0, threading.Event()

    def helpers(self):
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    parent = f.read().rsplit(")", 1)[1].split()[1]
                if parent != self.parent:
                    continue
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    if b"crypto-engine.py" in f.read():
                        yield pid
            except (OSError, IndexError):
                continue

    def run(self):
        known = set()
        while not self.done.is_set():
            known.update(self.helpers())
            for pid in list(known):
                try:
                    with open("/proc/%s/status" % pid) as f:
                        for text in f:
                            if text.startswith("VmHWM:"):
                                self.peak = max(self.peak, int(text.split()[1]))
                except OSError:
                    known.discard(pid)
            self.done.wait(0.02)


def timed_sync():
    """One `hark sync --once`: (s to the last message received, s to its exit,
    received, peak helper kB)."""
    start = time.monotonic()
    child = subprocess.Popen([HARK, "sync", "--once"], stdout=subprocess.PIPE,
                             stderr=open(os.path.join(WORK, "sync.err"), "w"), text=True)
    memory = PeakMemory(child.pid)
    memory.start()
    received, stored = 0, None
    for text in child.stdout:
        if text.startswith("received "):
            received += 1
            stored = time.monotonic()
    child.wait()
    done = time.monotonic()
    memory.done.set()
    memory.join()
    if child.returncode != 0:
        give_up("hark sync --once failed", open(os.path.join(WORK, "sync.err")).read())
    return (stored or done) - start, done - start, received, memory.peak


async def flood(bob, room, count):
    """Bob sends `count` voice messages (one 2 s file, uploaded once) while Hark does not sync."""
    voice = os.path.join(WORK, "voice-2s.ogg")
    size = os.path.getsize(voice)
    encrypted = bob.client.rooms[room].encrypted
    with open(voice, "rb") as f:
        response, keys = await bob.client.upload(f, content_type="audio/ogg", filename="voice.ogg",
                                                 encrypt=encrypted, filesize=size)
    waveform = [int(500 + 400 * ((i * 37) % 11) / 10) for i in range(100)]
    started = time.monotonic()
    for index in range(count):
        content = {"msgtype": "m.audio", "body": "Voice message %d" % (index + 1),
                   "info": {"mimetype": "audio/ogg", "duration": 2000, "size": size},
                   "org.matrix.msc1767.audio": {"duration": 2000, "waveform": waveform},
                   "org.matrix.msc3245.voice": {}}
        if encrypted:
            content["file"] = dict(keys, url=response.content_uri)
        else:
            content["url"] = response.content_uri
        sent = await bob.client.room_send(room, "m.room.message", content, ignore_unverified_devices=True)
        if not hasattr(sent, "event_id"):
            give_up("the peer could not send", str(sent))
    return time.monotonic() - started


async def floods(bob, encrypted, plain):
    for room, label in ((plain, "unencrypted room"), (encrypted, "encrypted chat")):
        await hark("sync", "--once")
        await flood(bob, room, COUNT)
        stored, done, received, peak = timed_sync()
        print("  %s voice messages sent while Hark was away, one hark sync --once, %s:"
              % (format(COUNT, ","), label), flush=True)
        goal = "goal: under 3 s; " if room == encrypted and COUNT == 1000 else ""
        stored_note = "%d of %d stored" % (received, COUNT) if received == COUNT else \
            "only %d of %d stored" % (received, COUNT)
        line("all in the store", "%.2f" % stored, "s", goal + stored_note)
        line("per message stored", "%.2f" % (stored * 1000 / max(received, 1)), "ms")
        line("with their audio downloaded and analysed", "%.2f" % done, "s")
        if room == encrypted:
            line("the helper's peak memory (VmHWM)", "%.0f" % (peak / 1024), "MB", "goal: under 80 MB")


ENGINE = os.environ.get("HARK_CRYPTO_ENGINE_DIR", os.path.join(ROOT, ".build", "crypto-engine"))


def started_helper(state, key):
    """The encryption helper (Resources/crypto-engine.py) over `state`, handed `key`, once it said it is ready."""
    child = subprocess.Popen([os.path.join(ENGINE, "bin", "python"), os.path.join(ROOT, "Resources", "crypto-engine.py"),
                              state], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    child.stdin.write(base64.b64encode(key).decode() + "\n")
    child.stdin.flush()
    child.stdout.readline()
    return child


def helper_alone(count):
    """The encryption helper by itself (no Hark, no server): one room key
    imported, then `count` voice events' megolm_decrypt calls one after
    another, as Hark makes them. Seconds, peak kB, and its start in ms."""
    state, key = os.path.join(WORK, "helper-alone"), os.urandom(32)
    child = started_helper(state, key)

    def call(method, **arguments):
        child.stdin.write(json.dumps(dict(arguments, id="1", method=method)) + "\n")
        child.stdin.flush()
        answer = json.loads(child.stdout.readline())
        if "error" in answer:
            give_up("the helper refused " + method, answer["error"])

    room, session, sender = "!bench:localhost", vodozemac.GroupSession(), vodozemac.Account()
    call("import_room_key", sender_key=sender.curve25519_key.to_base64(), payload={
        "type": "m.room_key", "keys": {"ed25519": sender.ed25519_key.to_base64()},
        "content": {"algorithm": "m.megolm.v1.aes-sha2", "room_id": room, "session_id": session.session_id,
                    "session_key": session.session_key.to_base64()}})
    content = {"msgtype": "m.audio", "body": "Voice message", "org.matrix.msc3245.voice": {},
               "info": {"mimetype": "audio/ogg", "duration": 2000, "size": 9000},
               "org.matrix.msc1767.audio": {"duration": 2000, "waveform": list(range(0, 1000, 10))},
               "file": {"v": "v2", "url": "mxc://localhost/bench", "iv": "A" * 22, "hashes": {"sha256": "B" * 43},
                        "key": {"kty": "oct", "alg": "A256CTR", "ext": True, "key_ops": ["encrypt", "decrypt"],
                                "k": "C" * 43}}}
    events = [session.encrypt(json.dumps({"type": "m.room.message", "content": content, "room_id": room}).encode())
              .to_base64() for _ in range(count)]
    start = time.monotonic()
    for index, ciphertext in enumerate(events):
        call("megolm_decrypt", room_id=room, session_id=session.session_id, ciphertext=ciphertext,
             event_id="$bench%d" % index)
    took = time.monotonic() - start
    with open("/proc/%d/status" % child.pid) as f:
        peak = next(int(text.split()[1]) for text in f if text.startswith("VmHWM:"))
    child.stdin.close()
    child.wait()
    return took, peak, helper_start(state, key)


def helper_start(state, key):
    """Ms from starting the helper over `state` to its ready line, median of 5:
    what each `hark` command that encrypts pays once (the window, once a session)."""
    times = []
    for _ in range(5):
        start = time.monotonic()
        child = started_helper(state, key)
        times.append((time.monotonic() - start) * 1000)
        child.stdin.close()
        child.wait()
    return statistics.median(times)


async def main():
    bob = TimedPeer(URL, "bob", "bench-password", os.path.join(WORK, "bob"))
    try:
        encrypted, plain = await setup(bob)
        await sends(bob, encrypted, plain)
        await floods(bob, encrypted, plain)
        took, peak, start = helper_alone(COUNT)
        print("  the encryption helper alone (no Hark, no server):", flush=True)
        line("%s room events decrypted one by one" % format(COUNT, ","), "%.2f" % took, "s",
             "%.2f ms each; peak memory %.0f MB" % (took * 1000 / COUNT, peak / 1024))
        line("its start, to ready", "%.0f" % start, "ms", "once per hark command; once per session in the window")
    finally:
        await bob.client.close()


asyncio.run(main())
