// libsecret for Swift: the Secret Service (GNOME Keyring, KWallet…) over D-Bus.
// The schema is a static struct: it is built here.
#ifndef HARK_CSECRET_SHIM_H
#define HARK_CSECRET_SHIM_H

#include <libsecret/secret.h>
#include <sys/prctl.h>
#include <sys/resource.h>

/* The items Hark keeps: one access token per Matrix account (user id + homeserver). */
static inline const SecretSchema *hark_token_schema(void) {
    static const SecretSchema schema = {
        "io.github.hark.Hark.MatrixToken", SECRET_SCHEMA_NONE,
        {
            { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "homeserver", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

/* The 32-byte key the encryption engine's state is saved under (base64). */
static inline const SecretSchema *hark_pickle_key_schema(void) {
    static const SecretSchema schema = {
        "io.github.hark.Hark.EncryptionKey", SECRET_SCHEMA_NONE,
        {
            { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "homeserver", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

static inline const gchar *hark_secret_collection_default(void) { return SECRET_COLLECTION_DEFAULT; }

/* A process holding a token (or, later, private keys) writes no core file and
   cannot be attached to by another process of the same user: not dumpable, and
   no core size to raise again. prctl is variadic: Swift cannot call it. */
static inline int hark_forbid_core_dumps(void) {
    struct rlimit none = { 0, 0 };
    int limit = setrlimit(RLIMIT_CORE, &none);
    int dumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limit != 0 ? limit : dumpable;
}

#endif
