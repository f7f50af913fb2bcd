#!/usr/bin/env python3
"""An independent Matrix client for Hark's tests: matrix-nio with end-to-end
encryption (vodozemac), none of Hark's code. Run with the Python of the
environment Tests/Peer/install-nio-peer makes (.build/nio-venv):

    nio-peer.py HOMESERVER_URL USER PASSWORD STORE_DIR

It signs in as USER (once: the session is kept in STORE_DIR with nio's key
store, and restored from there the next time), then takes one command per
line on standard input and answers each with one line carrying its id, as
Hark's helpers do (Sources/HelperProcesses' JSONLinesChannel can drive it):

    {"id": "1", "cmd": "whoami"}
        -> user_id, device_id, curve25519, ed25519
    {"id": "2", "cmd": "sync", "timeout_ms": 0}
        -> next_batch (one /sync; keys uploaded, queried, claimed as needed)
    {"id": "3", "cmd": "sync_until", "seconds": 60, "room_id": "!…" (optional),
     "body": "…" | "msgtype": "m.audio" | "invited": true | "joined": "@user" (one of them),
     "sender": "@user" (optional)}
        -> event (the first received event that matches), or room_id (invited/joined)
    {"id": "4", "cmd": "join", "room_id": "!…"}
    {"id": "4b", "cmd": "invite", "room_id": "!…", "user_id": "@…"}; {"cmd": "leave", "room_id": "!…"}
    {"id": "5", "cmd": "create_room", "invite": ["@bob:localhost"], "encrypted": true, "direct": false}
        -> room_id
    {"id": "6", "cmd": "send_text", "room_id": "!…", "body": "…"} -> event_id
    {"id": "7", "cmd": "send_audio", "room_id": "!…", "path": "/…/voice.ogg",
     "mimetype": "audio/ogg", "duration_ms": 1500, "waveform": [0, 512, …]}
        -> event_id (m.audio with the voice marker; the file encrypted when the room is)
        "withhold_from": "@user" (send_text, send_audio): the message starts a new room
        session whose key that user's devices do not get (nor any notice; they are
        blocked meanwhile, so later messages are kept from them too) until
    {"cmd": "share_withheld_key", "room_id": "!…"} sends it to them, from its first message on
    {"id": "8", "cmd": "trust", "mode": "ignore_unverified" | "verify_all" | "strict" | "cross_signed_only"}
        (how sending treats other devices: nio refuses unverified ones unless told;
         cross_signed_only shares only with devices their owner cross-signed, as Element
         does since 2026, and sends m.room_key.withheld (m.unverified) to the others)
    {"cmd": "cross_sign"} publishes a cross-signing identity and signs this device;
    {"cmd": "cross_sign", "identity_from": STORE_DIR} signs it with the identity another
    peer of the same user made (kept in that peer's STORE_DIR);
    {"cmd": "cross_sign", "replace": true} replaces the account's identity with a
    new one (new master key; the password given through user-interactive auth)
    {"id": "9", "cmd": "events", "room_id": "!…" (optional)}
        -> events: every room message received so far, decrypted where it could
           be ({room_id, event_id, sender, type, decrypted, undecryptable, content})
    {"id": "10", "cmd": "download", "event_id": "$…", "path": "/…" (optional)}
        -> size, sha256, and base64 (the decrypted attachment's bytes) unless written to path
    {"id": "11", "cmd": "claim_key", "user_id": "@…", "device_id": "…"}
        -> key_id, fallback (bool), session (bool): claims one key of the device now (its
           fallback key once its one-time keys are gone) and starts the Olm session the next
           room key for it goes in
    {"id": "12", "cmd": "close"}

A failed command answers {"id": …, "error": "…"}; the peer goes on.
Diagnostics go to standard error.
"""
import asyncio
import base64
import hashlib
import json
import os
import sys
import time

from nio import (AsyncClient, AsyncClientConfig, LoginResponse, MegolmEvent, RoomCreateResponse,
                 RoomMessage, RoomPreset, RoomVisibility)
from nio.crypto.attachments import decrypt_attachment
from nio.event_builders import ToDeviceMessage

import nio_cross_signing
import nio_delayed_keys


class Peer:
    def __init__(self, homeserver, user, password, store):
        self.password = password
        self.store = store
        self.credentials = os.path.join(store, "credentials.json")
        config = AsyncClientConfig(encryption_enabled=True, store_sync_tokens=True)
        self.client = AsyncClient(homeserver, user, store_path=store, config=config)
        self.events = []
        self.ignore_unverified = False
        # Share room keys only with devices their owner cross-signed (Element since 2026),
        # and tell the others why with m.room_key.withheld.
        self.cross_signed_only = False
        # Room id -> (the key content kept from a user's devices, that user, the devices blocked meanwhile).
        self.withheld_keys = {}
        self.client.add_event_callback(self.received, (RoomMessage, MegolmEvent))

    async def received(self, room, event):
        undecryptable = isinstance(event, MegolmEvent)
        self.events.append({
            "room_id": room.room_id, "event_id": event.event_id, "sender": event.sender,
            "type": event.source.get("type"), "decrypted": bool(getattr(event, "decrypted", False)),
            "undecryptable": undecryptable,
            "content": event.source.get("content", {})})

    async def sign_in(self):
        os.makedirs(self.store, exist_ok=True)
        if os.path.exists(self.credentials):
            with open(self.credentials) as f:
                saved = json.load(f)
            self.client.restore_login(saved["user_id"], saved["device_id"], saved["access_token"])
            self.client.load_store()
        else:
            response = await self.client.login(self.password, device_name="nio test peer")
            if not isinstance(response, LoginResponse):
                raise RuntimeError("login failed: %s" % response)
            fd = os.open(self.credentials, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump({"user_id": response.user_id, "device_id": response.device_id,
                           "access_token": response.access_token}, f)
        await self.keys()

    async def keys(self):
        """What an E2EE client does around each sync."""
        if self.client.should_upload_keys:
            await self.client.keys_upload()
        if self.client.should_query_keys:
            await self.client.keys_query()
        if self.client.should_claim_keys:
            await self.client.keys_claim(self.client.get_users_for_key_claiming())
        await self.client.send_to_device_messages()

    async def sync_once(self, timeout_ms=0):
        response = await self.client.sync(timeout=timeout_ms, full_state=self.client.next_batch is None)
        if not hasattr(response, "next_batch"):
            raise RuntimeError("sync failed: %s" % response)
        await self.keys()
        return response.next_batch

    def matching(self, request):
        if request.get("invited"):
            for room_id in self.client.invited_rooms:
                if request.get("room_id") in (None, room_id):
                    return {"room_id": room_id}
            return None
        if request.get("joined"):
            room = self.client.rooms.get(request["room_id"])
            if room is not None and request["joined"] in room.users:
                return {"room_id": room.room_id}
            return None
        for event in self.events:
            if request.get("room_id") not in (None, event["room_id"]):
                continue
            if "body" in request and event["content"].get("body") != request["body"]:
                continue
            if "msgtype" in request and event["content"].get("msgtype") != request["msgtype"]:
                continue
            if "sender" in request and event["sender"] != request["sender"]:
                continue
            return {"event": event}
        return None

    async def handle(self, request):
        command = request["cmd"]
        client = self.client
        if command == "whoami":
            keys = client.olm.account.identity_keys if client.olm else {}
            return {"user_id": client.user_id, "device_id": client.device_id,
                    "curve25519": keys.get("curve25519"), "ed25519": keys.get("ed25519")}
        if command == "sync":
            return {"next_batch": await self.sync_once(int(request.get("timeout_ms", 0)))}
        if command == "sync_until":
            deadline = time.monotonic() + float(request.get("seconds", 60))
            while True:
                found = self.matching(request)
                if found is not None:
                    return found
                if time.monotonic() > deadline:
                    raise RuntimeError("nothing matched in %s s" % request.get("seconds", 60))
                await self.sync_once(1000)
        if command == "join":
            response = await client.join(request["room_id"])
            if not hasattr(response, "room_id"):
                raise RuntimeError("join failed: %s" % response)
            await self.sync_once()
            return {"room_id": response.room_id}
        if command == "invite":
            response = await client.room_invite(request["room_id"], request["user_id"])
            if type(response).__name__ != "RoomInviteResponse":
                raise RuntimeError("invite failed: %s" % response)
            return {}
        if command == "leave":
            response = await client.room_leave(request["room_id"])
            if type(response).__name__ != "RoomLeaveResponse":
                raise RuntimeError("leave failed: %s" % response)
            return {}
        if command == "create_room":
            initial = []
            if request.get("encrypted", True):
                initial.append({"type": "m.room.encryption", "state_key": "",
                                "content": {"algorithm": "m.megolm.v1.aes-sha2"}})
            direct = bool(request.get("direct"))
            response = await client.room_create(
                visibility=RoomVisibility.private, is_direct=direct, invite=request.get("invite", []),
                preset=RoomPreset.trusted_private_chat if direct else RoomPreset.private_chat,
                initial_state=initial)
            if not isinstance(response, RoomCreateResponse):
                raise RuntimeError("room creation failed: %s" % response)
            await self.sync_once()
            return {"room_id": response.room_id}
        if command == "send_text":
            return await self.send(request["room_id"], {"msgtype": "m.text", "body": request["body"]},
                                   request.get("withhold_from"))
        if command == "share_withheld_key":
            key, user_id, blocked = self.withheld_keys.pop(request["room_id"])
            nio_delayed_keys.stop_blocking(client, blocked)
            await self.keys()
            await nio_delayed_keys.share_late(client, key, user_id)
            return {}
        if command == "send_audio":
            return await self.send_audio(request)
        if command == "cross_sign":
            await self.keys()
            if request.get("identity_from"):
                key = nio_cross_signing.self_signing_key(request["identity_from"])
                await nio_cross_signing.sign_device(client, key)
            else:
                password = self.password if request.get("replace") else None
                await nio_cross_signing.publish_identity(client, self.store, password)
            return {}
        if command == "trust":
            mode = request["mode"]
            self.ignore_unverified = mode == "ignore_unverified"
            self.cross_signed_only = mode == "cross_signed_only"
            if self.cross_signed_only:
                await self.trust_cross_signed()
            if mode == "verify_all":
                await self.keys()
                for user in client.device_store.users:
                    for device in client.device_store.active_user_devices(user):
                        if device.device_id != client.device_id:
                            client.verify_device(device)
            return {}
        if command == "events":
            return {"events": [e for e in self.events if request.get("room_id") in (None, e["room_id"])]}
        if command == "download":
            return await self.download(request)
        if command == "claim_key":
            return await self.claim_key(request["user_id"], request["device_id"])
        if command == "close":
            await client.close()
            return {}
        raise RuntimeError("no command %r" % command)

    async def claim_key(self, user_id, device_id):
        await self.keys()
        response = await self.client.keys_claim({user_id: [device_id]})
        claimed = getattr(response, "one_time_keys", {}).get(user_id, {}).get(device_id, {})
        if not claimed:
            raise RuntimeError("no key claimed: %s" % response)
        key_id, key = next(iter(claimed.items()))
        device = self.client.device_store[user_id][device_id]
        return {"key_id": key_id, "fallback": bool(key.get("fallback")),
                "session": bool(self.client.olm.session_store.get(device.curve25519))}

    async def send(self, room_id, content, withhold_from=None):
        if self.cross_signed_only:
            await self.trust_cross_signed()
        if withhold_from:
            await self.keys()
            key, blocked = nio_delayed_keys.start_withholding(self.client, room_id, withhold_from)
            self.withheld_keys[room_id] = (key, withhold_from, blocked)
        response = await self.client.room_send(room_id, "m.room.message", content,
                                               ignore_unverified_devices=self.ignore_unverified)
        if not hasattr(response, "event_id"):
            raise RuntimeError("send failed: %s" % response)
        if self.cross_signed_only:
            await self.send_withheld(room_id)
        return {"event_id": response.event_id}

    async def trust_cross_signed(self):
        """Verifies the devices their owners cross-signed and blacklists the
        rest; a device whose standing changed gets a fresh session next time."""
        client = self.client
        await self.keys()
        users = [u for u in client.device_store.users if u != client.user_id]
        signed = await nio_cross_signing.cross_signed_devices(client, users) if users else set()
        changed = False
        for user in users:
            for device in client.device_store.active_user_devices(user):
                if (user, device.device_id) in signed:
                    changed |= not client.olm.is_device_verified(device)
                    client.unblacklist_device(device)
                    client.verify_device(device)
                else:
                    changed |= not client.olm.is_device_blacklisted(device)
                    client.unverify_device(device)
                    client.blacklist_device(device)
        if changed:
            client.olm.outbound_group_sessions.clear()

    async def send_withheld(self, room_id):
        client = self.client
        session = client.olm.outbound_group_sessions.get(room_id)
        room = client.rooms.get(room_id)
        if session is None or room is None:
            return
        for user in room.users:
            for device in client.device_store.active_user_devices(user):
                if client.olm.is_device_blacklisted(device):
                    await client.to_device(ToDeviceMessage("m.room_key.withheld", user, device.device_id, {
                        "room_id": room_id, "session_id": session.id, "algorithm": "m.megolm.v1.aes-sha2",
                        "sender_key": client.olm.account.identity_keys["curve25519"], "code": "m.unverified",
                        "reason": "This device is not verified by its owner."}))

    async def send_audio(self, request):
        path = request["path"]
        size = os.path.getsize(path)
        room = self.client.rooms.get(request["room_id"])
        encrypted = bool(room and room.encrypted)
        with open(path, "rb") as f:
            response, keys = await self.client.upload(f, content_type=request.get("mimetype", "audio/ogg"),
                                                      filename=os.path.basename(path), encrypt=encrypted,
                                                      filesize=size)
        if not hasattr(response, "content_uri"):
            raise RuntimeError("upload failed: %s" % response)
        duration = int(request.get("duration_ms", 1000))
        content = {"msgtype": "m.audio", "body": os.path.basename(path),
                   "info": {"mimetype": request.get("mimetype", "audio/ogg"), "size": size, "duration": duration},
                   "org.matrix.msc1767.audio": {"duration": duration, "waveform": request.get("waveform", [])},
                   "org.matrix.msc3245.voice": {}}
        if request.get("caption"):
            # Spec 1.10's media caption: the words in body, the file's name beside them.
            content["body"] = request["caption"]
            content["filename"] = os.path.basename(path)
            content["org.matrix.msc1767.text"] = request["caption"]
        if encrypted:
            content["file"] = dict(keys, url=response.content_uri)
        else:
            content["url"] = response.content_uri
        return await self.send(request["room_id"], content, request.get("withhold_from"))

    async def download(self, request):
        event = next((e for e in self.events if e["event_id"] == request["event_id"]), None)
        if event is None:
            raise RuntimeError("no such event received: %s" % request["event_id"])
        content = event["content"]
        file = content.get("file")
        response = await self.client.download(mxc=file["url"] if file else content["url"])
        if not hasattr(response, "body"):
            raise RuntimeError("download failed: %s" % response)
        data = response.body
        if file:
            data = decrypt_attachment(data, file["key"]["k"], file["hashes"]["sha256"], file["iv"])
        answer = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        if request.get("path"):
            with open(request["path"], "wb") as f:
                f.write(data)
        else:
            answer["base64"] = base64.b64encode(data).decode()
        return answer


def write(answer):
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


async def main():
    if len(sys.argv) != 5:
        print("usage: nio-peer.py HOMESERVER_URL USER PASSWORD STORE_DIR", file=sys.stderr)
        sys.exit(2)
    peer = Peer(*sys.argv[1:])
    await peer.sign_in()
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        if not line.strip():
            continue
        request = {}
        try:
            request = json.loads(line)
            answer = await peer.handle(request)
        except Exception as error:  # one command's failure is not the peer's
            print("nio-peer: %s: %r" % (request.get("cmd"), error), file=sys.stderr, flush=True)
            answer = {"error": "%s: %s" % (type(error).__name__, error)}
        answer["id"] = request.get("id")
        write(answer)
        if request.get("cmd") == "close":
            break
    await peer.client.close()


if __name__ == "__main__":
    asyncio.run(main())
