"""What the encryption helper's parts share (crypto-engine.py, crypto_megolm.py):
the refusal a caller acts on, the Matrix names and defaults, small codings."""
import base64
import json
import sys
import time

import vodozemac as v

OLM_ALGORITHM = "m.olm.v1.curve25519-aes-sha2"
MEGOLM_ALGORITHM = "m.megolm.v1.aes-sha2"
# The spec's defaults for m.room.encryption: a week, or 100 messages.
ROTATION_PERIOD_MS = 7 * 24 * 3600 * 1000
ROTATION_MESSAGES = 100


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
