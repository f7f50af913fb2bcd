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

import vodozemac as v

# Its parts and helper_lines beside it: no bytecode left in Hark's folder (the checkout, or share/hark).
sys.dont_write_bytecode = True
import helper_lines  # noqa: E402
from crypto_common import OLM_ALGORITHM, Refused, canonical, log, padded, public_key, unpadded  # noqa: E402
from crypto_megolm import MegolmCalls  # noqa: E402

STATE_FILE = "engine-state.json"
# Olm sessions kept per peer device (the newest first): a peer that made new
# ones while our answers were lost still finds its own among them.
SESSIONS_PER_PEER = 5


class Engine(MegolmCalls):
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
        payload) -> algorithm, ciphertext {peer_key: {type, body}}, sender_key:
        the content of an m.room.encrypted to-device event."""
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
        return {"algorithm": OLM_ALGORITHM, "ciphertext": {peer: {"type": message_type, "body": unpadded(body)}},
                "sender_key": self.account.curve25519_key.to_base64()}

    def olm_decrypt(self, request):
        """sender_key, type (0 pre-key, 1 normal), body -> plaintext (the JSON
        object), sender_key. A pre-key message no session knows makes one (and
        uses up the one-time key it names); its recipient_keys, when given,
        must be this device's."""
        peer = request["sender_key"]
        peer_key = public_key(peer, "sender_key")
        try:
            message_type = int(request["type"])
            message = v.AnyOlmMessage.from_parts(message_type, padded(request["body"]))
        except Exception as error:
            raise Refused("bad_message", "not an Olm message: %s" % error)
        plaintext = None
        sessions = self.olm.get(peer, [])
        for session in sessions:
            if message_type == 0 and not session.session_matches(message.to_pre_key()):
                continue
            try:
                plaintext = session.decrypt(message)
            except v.OlmDecryptionException:
                continue
            sessions.remove(session)
            self.olm[peer] = [session] + sessions
            break
        if plaintext is None:
            if message_type != 0:
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


METHODS = {name: getattr(Engine, name) for name in (
    "identity_keys", "sign", "generate_one_time_keys", "mark_keys_published",
    "olm_encrypt", "olm_decrypt", "megolm_encrypt", "mark_room_key_shared",
    "discard_outbound", "import_room_key", "megolm_decrypt", "megolm_decrypt_batch")}


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
