"""A room key that reaches some devices late: the peer sends a message in a
new room session whose key it keeps from one user's devices (and tells them
nothing: to them the key is merely late), then shares it on request, from
the session's first message on, as a late m.room_key over Olm does."""
from nio import ToDeviceError
from nio.event_builders import ToDeviceMessage

MEGOLM = "m.megolm.v1.aes-sha2"


def start_withholding(client, room_id, user_id):
    """A new outbound session for room_id, its key (from index 0) kept, and
    user_id's devices blocked until stop_blocking (nio shares a session again
    when it sends, with whoever is not blocked then); returns (key content, blocked devices)."""
    blocked = []
    for device in client.device_store.active_user_devices(user_id):
        if not client.olm.is_device_blacklisted(device):
            client.blacklist_device(device)
            blocked.append(device)
    client.olm.outbound_group_sessions.pop(room_id, None)
    client.olm.create_outbound_group_session(room_id)
    session = client.olm.outbound_group_sessions[room_id]
    key = {"algorithm": MEGOLM, "room_id": room_id, "session_id": session.id, "session_key": session.session_key}
    return key, blocked


def stop_blocking(client, blocked):
    """The devices get room keys again."""
    for device in blocked:
        client.unblacklist_device(device)


async def share_late(client, key, user_id):
    """Sends the kept key to every device of user_id over Olm (claiming a one-time key where needed)."""
    missing = client.olm.get_missing_sessions([user_id])
    if missing:
        await client.keys_claim(missing)
    for device in client.device_store.active_user_devices(user_id):
        session = client.olm.session_store.get(device.curve25519)
        if session is None:
            raise RuntimeError("no Olm session with %s %s" % (user_id, device.id))
        olm_dict = client.olm._olm_encrypt(session, device, "m.room_key", key)
        response = await client.to_device(ToDeviceMessage("m.room.encrypted", user_id, device.id, olm_dict))
        if isinstance(response, ToDeviceError):
            raise RuntimeError("to-device failed: %s" % response)
