#!/usr/bin/env python3
"""Hark's end-to-end encryption helper: Olm and Megolm through vodozemac.

Started by Hark (Sources/Encryption) with the Python of the engine's virtual
environment (scripts/install-crypto-engine):

    python crypto-engine.py STATE_DIR

The very first line on standard input is the 32-byte pickle key, in base64
(never an argument, the environment or a file: other processes could read
those). The helper then opens STATE_DIR/engine-state.json (or makes a new
device there) and says, in a line with no id:

    {"event": "ready", "curve25519": "…", "ed25519": "…"}
    {"event": "failed", "code": "wrong_pickle_key" | "state_unreadable" | …, "error": "…"}

and after "failed" it exits. Then each line is a call, answered by one line
carrying the same id:

    {"id": "…", "method": "identity_keys" | "sign" | …, …its arguments}
    {"id": "…", …the result}
    {"id": "…", "error": "…", "code": "…"}     (this call failed; the helper goes on)

The methods are listed in METHODS below, each with what it takes and gives.
What a call changes is in the state file before its answer is written
(written to a temporary file, synced, renamed over the old one; 0600). Every
secret in it (the account, Olm and Megolm sessions) is a vodozemac pickle
encrypted under the pickle key; beside them are only public keys, room and
session ids, counts and event ids. Diagnostics go to standard error, never a
key.
"""
import base64
import json
import os
import sys
import time

import vodozemac as v

# helper_lines beside it: no bytecode left in Hark's folder (the checkout, or share/hark).
sys.dont_write_bytecode = True
import helper_lines  # noqa: E402

STATE_FILE = "engine-state.json"
OLM_ALGORITHM = "m.olm.v1.curve25519-aes-sha2"
MEGOLM_ALGORITHM = "m.megolm.v1.aes-sha2"
# The spec's defaults for m.room.encryption: a week, or 100 messages.
ROTATION_PERIOD_MS = 7 * 24 * 3600 * 1000
ROTATION_MESSAGES = 100
# Olm sessions kept per peer device (the newest first): a peer that made new
# ones while our answers were lost still finds its own among them.
SESSIONS_PER_PEER = 5


class Refused(Exception):
    """A call's failure with a code the caller acts on."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def log(message):
    print("crypto-engine: " + message, file=sys.stderr, flush=True)


def unpadded(data):
    return base64.b64encode(data).decode().rstrip("=")


def padded(text):
    return base64.b64decode(text + "=" * (-len(text) % 4))


def now_ms():
    return int(time.time() * 1000)


def canonical(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def public_key(text, what):
    try:
        return v.Curve25519PublicKey.from_base64(text)
    except Exception:
        raise Refused("bad_key", "%s is not a Curve25519 public key" % what)


class Engine:
    """The device's keys and sessions, live and as pickled in the state file."""

    def __init__(self, folder, pickle_key):
        self.folder = folder
        self.key = pickle_key
        self.path = os.path.join(folder, STATE_FILE)
        self.olm = {}        # peer curve25519 -> [Session], newest first
        self.outbound = {}   # room id -> GroupSession
        self.inbound = {}    # (room id, session id) -> InboundGroupSession
        if os.path.exists(self.path):
            self.load()
        else:
            self.account = v.Account()
            self.doc = {"version": 1, "olm": {}, "outbound": {}, "inbound": {}}
            self.doc["account"] = self.account.pickle(self.key)
            self.save()

    # MARK: the state file

    def load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                self.doc = json.load(f)
            account = self.doc["account"]
        except (OSError, ValueError, KeyError) as error:
            raise Refused("state_unreadable", "the state file cannot be read: %s" % error)
        try:
            self.account = v.Account.from_pickle(account, self.key)
        except v.PickleException:
            raise Refused("wrong_pickle_key", "the state file is not encrypted under this pickle key")
        try:
            for peer, pickles in self.doc["olm"].items():
                self.olm[peer] = [v.Session.from_pickle(p, self.key) for p in pickles]
            for room, entry in self.doc["outbound"].items():
                self.outbound[room] = v.GroupSession.from_pickle(entry["pickle"], self.key)
            for room, sessions in self.doc["inbound"].items():
                for session_id, entry in sessions.items():
                    self.inbound[(room, session_id)] = v.InboundGroupSession.from_pickle(entry["pickle"], self.key)
        except (v.PickleException, KeyError, TypeError) as error:
            raise Refused("state_unreadable", "a session in the state file cannot be read: %s" % error)

    def save(self):
        """The document, atomically: a crash leaves the old file or the new, whole."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        temporary = self.path + ".new"
        data = json.dumps(self.doc, sort_keys=True).encode()
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temporary, self.path)
        folder = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def keep_account(self):
        self.doc["account"] = self.account.pickle(self.key)

    def keep_olm(self, peer):
        self.olm[peer] = self.olm[peer][:SESSIONS_PER_PEER]
        self.doc["olm"][peer] = [s.pickle(self.key) for s in self.olm[peer]]

    # MARK: the device

    def identity_keys(self, request):
        """-> curve25519, ed25519 (the device's public identity keys), max_one_time_keys."""
        return {"curve25519": self.account.curve25519_key.to_base64(),
                "ed25519": self.account.ed25519_key.to_base64(),
                "max_one_time_keys": self.account.max_number_of_one_time_keys}

    def sign(self, request):
        """message (a canonical-JSON string) -> signature (ed25519, unpadded base64)."""
        return {"signature": self.account.sign(request["message"].encode()).to_base64()}

    def generate_one_time_keys(self, request):
        """count, fallback (bool) -> one_time_keys {key id: curve25519},
        fallback_key {key id: curve25519} (empty unless asked): the unpublished
        keys, to upload; mark_keys_published after the upload."""
        count = int(request.get("count", 0))
        if count < 0 or count > self.account.max_number_of_one_time_keys:
            raise Refused("bad_request", "count must be between 0 and %d" % self.account.max_number_of_one_time_keys)
        if count:
            self.account.generate_one_time_keys(count)
        if request.get("fallback"):
            self.account.generate_fallback_key()
        self.keep_account()
        self.save()
        return {"one_time_keys": {k: key.to_base64() for k, key in self.account.one_time_keys.items()},
                "fallback_key": {k: key.to_base64() for k, key in self.account.fallback_key.items()}}

    def mark_keys_published(self, request):
        """-> {}: the keys generate_one_time_keys gave are on the server."""
        self.account.mark_keys_as_published()
        self.keep_account()
        self.save()
        return {}

    # MARK: Olm (to-device)

    def olm_encrypt(self, request):
        """peer_key (its curve25519), one_time_key (a claimed one, optional:
        makes a new session), plaintext (a JSON object: the whole to-device
        payload) -> ciphertext {peer_key: {type, body}}, sender_key."""
        peer = request["peer_key"]
        peer_key = public_key(peer, "peer_key")
        if request.get("one_time_key"):
            session = self.account.create_outbound_session(peer_key, public_key(request["one_time_key"], "one_time_key"))
            self.olm[peer] = [session] + self.olm.get(peer, [])
            self.keep_account()
        elif self.olm.get(peer):
            session = self.olm[peer][0]
        else:
            raise Refused("no_session", "no Olm session with this device: claim one of its one-time keys")
        message_type, body = session.encrypt(canonical(request["plaintext"]).encode()).to_parts()
        self.keep_olm(peer)
        self.save()
        return {"ciphertext": {peer: {"type": message_type, "body": unpadded(body)}},
                "sender_key": self.account.curve25519_key.to_base64()}

    def olm_decrypt(self, request):
        """sender_key, type (0 pre-key, 1 normal), body -> plaintext (the JSON
        object), sender_key. A pre-key message no session knows makes one (and
        uses up the one-time key it names); its recipient_keys, when given,
        must be this device's."""
        peer = request["sender_key"]
        peer_key = public_key(peer, "sender_key")
        try:
            message = v.AnyOlmMessage.from_parts(int(request["type"]), padded(request["body"]))
        except Exception as error:
            raise Refused("bad_message", "not an Olm message: %s" % error)
        plaintext = None
        sessions = self.olm.get(peer, [])
        for session in sessions:
            if request["type"] == 0 and not session.session_matches(message.to_pre_key()):
                continue
            try:
                plaintext = session.decrypt(message)
            except v.OlmDecryptionException:
                continue
            sessions.remove(session)
            self.olm[peer] = [session] + sessions
            break
        if plaintext is None:
            if request["type"] != 0:
                raise Refused("no_session", "no Olm session with this device decrypts the message")
            try:
                session, plaintext = self.account.create_inbound_session(peer_key, message.to_pre_key())
            except Exception as error:  # an unknown (used) one-time key: a replay, or lost keys
                raise Refused("bad_message", "the pre-key message makes no session: %s" % error)
            self.olm[peer] = [session] + sessions
            self.keep_account()
        self.keep_olm(peer)
        self.save()
        try:
            payload = json.loads(plaintext)
        except ValueError:
            raise Refused("bad_message", "the Olm plaintext is not JSON")
        mine = self.account.ed25519_key.to_base64()
        recipient = payload.get("recipient_keys", {}).get("ed25519") if isinstance(payload, dict) else None
        if recipient is not None and recipient != mine:
            raise Refused("wrong_recipient", "the message was encrypted for another device")
        return {"plaintext": payload, "sender_key": peer}

    # MARK: Megolm (room events)

    def megolm_encrypt(self, request):
        """room_id, type, content (the event's), rotation_period_ms,
        rotation_messages (the room's m.room.encryption, optional), rotate
        (bool: a member left, history visibility changed) -> session_id,
        ciphertext, message_index, session_key (from this message's index on:
        what a device that has not got it needs), new_session (bool),
        shared_with (the devices mark_room_key_shared recorded)."""
        room = request["room_id"]
        entry = self.doc["outbound"].get(room)
        session = self.outbound.get(room)
        period = int(request.get("rotation_period_ms") or ROTATION_PERIOD_MS)
        messages = int(request.get("rotation_messages") or ROTATION_MESSAGES)
        new = (session is None or request.get("rotate") or now_ms() - entry["created"] >= period
               or entry["messages"] >= messages)
        if new:
            session = v.GroupSession()
            entry = {"created": now_ms(), "messages": 0, "shared_with": []}
            self.outbound[room] = session
            self.doc["outbound"][room] = entry
            # Our own messages are read through the same inbound table as everyone's.
            self.add_inbound(room, v.InboundGroupSession(session.session_key),
                             self.account.curve25519_key.to_base64(), self.account.ed25519_key.to_base64())
        session_key = session.session_key.to_base64()
        index = session.message_index
        plaintext = canonical({"type": request["type"], "content": request["content"], "room_id": room})
        ciphertext = session.encrypt(plaintext.encode()).to_base64()
        entry["messages"] += 1
        entry["pickle"] = session.pickle(self.key)
        self.save()
        return {"session_id": session.session_id, "ciphertext": ciphertext, "message_index": index,
                "session_key": session_key, "new_session": bool(new), "shared_with": entry["shared_with"],
                "algorithm": MEGOLM_ALGORITHM, "sender_key": self.account.curve25519_key.to_base64()}

    def mark_room_key_shared(self, request):
        """room_id, session_id, devices (ids the key went to) -> shared_with."""
        entry = self.doc["outbound"].get(request["room_id"])
        session = self.outbound.get(request["room_id"])
        if entry is None or session.session_id != request["session_id"]:
            raise Refused("no_session", "that room's outbound session is another (it rotated)")
        entry["shared_with"] = sorted(set(entry["shared_with"]) | set(request["devices"]))
        self.save()
        return {"shared_with": entry["shared_with"]}

    def discard_outbound(self, request):
        """room_id -> {}: the next message in the room starts a new session."""
        self.outbound.pop(request["room_id"], None)
        if self.doc["outbound"].pop(request["room_id"], None) is not None:
            self.save()
        return {}

    def add_inbound(self, room, session, sender_key, signing_key):
        """Keeps `session` unless one with the same id reaches further back."""
        known = self.inbound.get((room, session.session_id))
        if known is not None and known.first_known_index <= session.first_known_index:
            return False
        self.inbound[(room, session.session_id)] = session
        sessions = self.doc["inbound"].setdefault(room, {})
        old = sessions.get(session.session_id, {})
        sessions[session.session_id] = {"pickle": session.pickle(self.key), "sender_key": sender_key,
                                        "signing_key": signing_key, "indices": old.get("indices", {})}
        return True

    def import_room_key(self, request):
        """payload (an m.room_key's whole Olm payload, as olm_decrypt gave it),
        sender_key (the Olm sender's curve25519, as olm_decrypt gave it) ->
        room_id, session_id, imported (false when a session reaching further
        back is already known), first_known_index. The signing key kept with
        the session is the payload's keys.ed25519: the sending device's."""
        payload = request["payload"]
        content = payload.get("content", {})
        if payload.get("type") != "m.room_key" or content.get("algorithm") != MEGOLM_ALGORITHM:
            raise Refused("bad_key", "not an m.room_key for %s" % MEGOLM_ALGORITHM)
        room, session_id = content["room_id"], content["session_id"]
        try:
            session = v.InboundGroupSession(v.SessionKey(content["session_key"]))
        except Exception as error:
            raise Refused("bad_key", "not a Megolm session key: %s" % error)
        if session.session_id != session_id:
            raise Refused("bad_key", "the session key is not that session's")
        imported = self.add_inbound(room, session, request["sender_key"], payload["keys"]["ed25519"])
        if imported:
            self.save()
        return {"room_id": room, "session_id": session_id, "imported": imported,
                "first_known_index": self.inbound[(room, session_id)].first_known_index}

    def megolm_decrypt(self, request):
        """room_id, session_id, ciphertext, event_id -> plaintext (the event's
        {type, content, room_id}), message_index, sender_key, signing_key.
        Refused: waiting_for_key (no such session yet), unknown_index (the
        session we have starts later), replay (that index came under another
        event id), wrong_room, bad_message."""
        room, session_id = request["room_id"], request["session_id"]
        session = self.inbound.get((room, session_id))
        if session is None:
            raise Refused("waiting_for_key", "the room key for this message has not arrived")
        entry = self.doc["inbound"][room][session_id]
        try:
            message = v.MegolmMessage.from_base64(request["ciphertext"])
        except Exception as error:
            raise Refused("bad_message", "not a Megolm message: %s" % error)
        if message.message_index() < session.first_known_index:
            raise Refused("unknown_index", "the room key we have starts after this message")
        try:
            decrypted = session.decrypt(message)
        except v.MegolmDecryptionException as error:
            raise Refused("bad_message", "the message does not decrypt: %s" % error)
        index = str(decrypted.message_index)
        seen = entry["indices"].get(index)
        if seen is not None and seen != request["event_id"]:
            raise Refused("replay", "message index %s was already used by event %s" % (index, seen))
        try:
            payload = json.loads(decrypted.plaintext)
        except ValueError:
            raise Refused("bad_message", "the Megolm plaintext is not JSON")
        if not isinstance(payload, dict) or payload.get("room_id") != room:
            raise Refused("wrong_room", "the message was encrypted for another room")
        if seen is None:
            entry["indices"][index] = request["event_id"]
            entry["pickle"] = session.pickle(self.key)
            self.save()
        return {"plaintext": payload, "message_index": decrypted.message_index,
                "sender_key": entry["sender_key"], "signing_key": entry["signing_key"]}


METHODS = {name: getattr(Engine, name) for name in (
    "identity_keys", "sign", "generate_one_time_keys", "mark_keys_published",
    "olm_encrypt", "olm_decrypt", "megolm_encrypt", "mark_room_key_shared",
    "discard_outbound", "import_room_key", "megolm_decrypt")}


def call(engine, request):
    method = METHODS.get(request.get("method"))
    if method is None:
        raise Refused("unknown_method", "no method %r" % request.get("method"))
    try:
        return method(engine, request)
    except OSError as error:
        # The call's change is not on disk: nothing it gave may be used. The helper ends
        # (Hark starts it again from the file), so memory and file never disagree.
        log("the state could not be saved: %s" % error)
        helper_lines.write({"id": request.get("id"), "error": "the state could not be saved: %s" % error,
                            "code": "state_unwritable"})
        sys.exit(4)


def failed(error):
    if isinstance(error, Refused):
        return {"error": str(error), "code": error.code}
    if isinstance(error, (KeyError, TypeError, ValueError, AttributeError)):
        return {"error": "bad request: %s" % (str(error) or type(error).__name__), "code": "bad_request"}
    return {"error": str(error) or type(error).__name__, "code": "failed"}


def start():
    """The engine over STATE_DIR, opened with the key on the first line; or the helper ends."""
    if len(sys.argv) != 2:
        helper_lines.write({"event": "failed", "code": "usage", "error": "usage: crypto-engine.py STATE_DIR"})
        sys.exit(2)
    try:
        pickle_key = base64.b64decode(sys.stdin.readline().strip(), validate=True)
    except ValueError:
        pickle_key = b""
    if len(pickle_key) != 32:
        helper_lines.write({"event": "failed", "code": "bad_pickle_key",
                            "error": "the first line must be a 32-byte pickle key in base64"})
        sys.exit(3)
    try:
        return Engine(sys.argv[1], pickle_key)
    except Refused as error:
        log(str(error))
        helper_lines.write({"event": "failed", "code": error.code, "error": str(error)})
    except OSError as error:
        helper_lines.write({"event": "failed", "code": "state_unwritable", "error": str(error)})
    sys.exit(3)


def main():
    engine = start()
    keys = engine.identity_keys({})
    helper_lines.write({"event": "ready", "curve25519": keys["curve25519"], "ed25519": keys["ed25519"]})
    log("ready")
    helper_lines.serve(lambda request: call(engine, request), failed)


if __name__ == "__main__":
    main()
