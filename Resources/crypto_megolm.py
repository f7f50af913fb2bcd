"""The encryption helper's Megolm calls (room events), a part of its Engine
(crypto-engine.py): outbound sessions by room, inbound ones by room and session
id with the replay table of each."""
import json

import vodozemac as v

from crypto_common import MEGOLM_ALGORITHM, ROTATION_MESSAGES, ROTATION_PERIOD_MS, Refused, canonical, now_ms


class MegolmCalls:
    """Needs the Engine's account, key, doc, outbound, inbound and save()."""

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
        answer, kept = self.read_megolm(request)
        if kept:
            self.save()
        return answer

    def megolm_decrypt_batch(self, request):
        """events (a list of megolm_decrypt's arguments) -> results: for each,
        in order, megolm_decrypt's answer or its refusal {error, code}. Saved
        once, before the answer; a message index seen earlier in the batch
        under another event id is a replay too."""
        results, kept = [], False
        for event in request["events"]:
            try:
                answer, new = self.read_megolm(event)
                kept = kept or new
            except Refused as error:
                answer = {"error": str(error), "code": error.code}
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                answer = {"error": "bad request: %s" % (str(error) or type(error).__name__), "code": "bad_request"}
            results.append(answer)
        if kept:
            self.save()
        return {"results": results}

    def read_megolm(self, request):
        """megolm_decrypt's answer, and whether the document changed (a new
        index in the replay table): the caller saves it before answering."""
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
        answer = {"plaintext": payload, "message_index": decrypted.message_index,
                  "sender_key": entry["sender_key"], "signing_key": entry["signing_key"]}
        return answer, seen is None
