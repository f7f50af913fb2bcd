"""Cross-signing for the nio peer, which matrix-nio does not have: a
cross-signing identity made with pycryptodome's Ed25519 (a dependency of
matrix-nio) and published over plain HTTP, and the check that a device is
cross-signed by its owner, as Element checks it before sharing a room key."""
import json

import aiohttp
from Crypto.PublicKey import ECC
from Crypto.Signature import eddsa


def unpadded(data):
    import base64
    return base64.b64encode(data).decode().rstrip("=")


def padded(text):
    import base64
    return base64.b64decode(text + "=" * (-len(text) % 4))


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def signed_part(obj):
    return {k: v for k, v in obj.items() if k not in ("signatures", "unsigned")}


class Key:
    def __init__(self, seed=None):
        self.key = eddsa.import_private_key(seed) if seed else ECC.generate(curve="ed25519")
        self.public = unpadded(self.key.public_key().export_key(format="raw"))

    def sign(self, user, obj):
        signature = unpadded(eddsa.new(self.key, "rfc8032").sign(canonical(signed_part(obj))))
        signatures = dict(obj.get("signatures", {}))
        signatures[user] = dict(signatures.get(user, {}), **{"ed25519:" + self.public: signature})
        return dict(obj, signatures=signatures)


def verify(obj, user, public):
    signature = obj.get("signatures", {}).get(user, {}).get("ed25519:" + public)
    if not signature:
        return False
    try:
        key = eddsa.import_public_key(padded(public))
        eddsa.new(key, "rfc8032").verify(canonical(signed_part(obj)), padded(signature))
        return True
    except (ValueError, TypeError):
        return False


async def call(client, method, path, body):
    url = client.homeserver.rstrip("/") + "/_matrix/client/v3" + path
    headers = {"Authorization": "Bearer " + client.access_token}
    async with aiohttp.ClientSession() as http:
        async with http.request(method, url, json=body, headers=headers) as response:
            answer = await response.json()
            if response.status >= 400:
                raise RuntimeError("%s %s: %s" % (method, path, answer))
            return answer


async def publish_identity(client, store, password=None):
    """Master, self-signing and user-signing keys published; this device
    signed. The self-signing key's seed is kept in STORE/cross-signing.json
    for the user's other peers (`sign_device`). With `password`, an identity
    the account already has is replaced (the server asks for the password
    through user-interactive auth), as a user resetting it does."""
    user = client.user_id
    master, self_signing, user_signing = Key(), Key(), Key()
    with open(store + "/cross-signing.json", "w") as f:
        json.dump({"self_signing": unpadded(self_signing.key.seed)}, f)

    def key_object(key, usage):
        return {"user_id": user, "usage": [usage], "keys": {"ed25519:" + key.public: key.public}}

    keys = {
        "master_key": key_object(master, "master"),
        "self_signing_key": master.sign(user, key_object(self_signing, "self_signing")),
        "user_signing_key": master.sign(user, key_object(user_signing, "user_signing")),
    }
    if password is None:
        await call(client, "POST", "/keys/device_signing/upload", keys)
    else:
        await call_with_password(client, "/keys/device_signing/upload", keys, password)
    await sign_device(client, self_signing)


async def call_with_password(client, path, body, password):
    """POST `body` to `path`, answering the server's user-interactive auth with the password."""
    url = client.homeserver.rstrip("/") + "/_matrix/client/v3" + path
    headers = {"Authorization": "Bearer " + client.access_token}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json=body, headers=headers) as response:
            answer = await response.json()
            if response.status < 400:
                return answer
            if response.status != 401 or "session" not in answer:
                raise RuntimeError("POST %s: %s" % (path, answer))
        auth = {"type": "m.login.password", "session": answer["session"], "password": password,
                "identifier": {"type": "m.id.user", "user": client.user_id}}
        async with http.post(url, json=dict(body, auth=auth), headers=headers) as response:
            answer = await response.json()
            if response.status >= 400:
                raise RuntimeError("POST %s: %s" % (path, answer))
            return answer


async def sign_device(client, self_signing):
    """This device's keys signed with the user's self-signing key."""
    user = client.user_id
    own = await call(client, "POST", "/keys/query", {"device_keys": {user: []}})
    device = signed_part(own["device_keys"][user][client.device_id])
    device["signatures"] = own["device_keys"][user][client.device_id]["signatures"]
    await call(client, "POST", "/keys/signatures/upload", {user: {client.device_id: self_signing.sign(user, device)}})


def self_signing_key(store):
    """The self-signing key another peer of the same user kept in STORE."""
    with open(store + "/cross-signing.json") as f:
        return Key(padded(json.load(f)["self_signing"]))


async def cross_signed_devices(client, users):
    """(user, device id) of every device its owner's self-signing key signed,
    that key itself signed by the owner's master key."""
    answer = await call(client, "POST", "/keys/query", {"device_keys": {u: [] for u in users}})
    found = set()
    for user in users:
        master = answer.get("master_keys", {}).get(user)
        self_signing = answer.get("self_signing_keys", {}).get(user)
        if not master or not self_signing:
            continue
        master_public = next(iter(master["keys"].values()))
        if not verify(self_signing, user, master_public):
            continue
        self_public = next(iter(self_signing["keys"].values()))
        for device_id, device in answer.get("device_keys", {}).get(user, {}).items():
            if verify(device, user, self_public):
                found.add((user, device_id))
    return found
