// OpenSSL's libcrypto for Swift (Debian libssl-dev, 3.0): EVP ciphers and digests,
// Ed25519, HMAC, HKDF, PBKDF2 and the random generator. No TLS: libssl is not linked.
#ifndef HARK_COPENSSL_SHIM_H
#define HARK_COPENSSL_SHIM_H

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

#endif
