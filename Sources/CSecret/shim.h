// libsecret for Swift: the Secret Service (GNOME Keyring, KWallet…) over D-Bus.
// The schema is a static struct: it is built here.
#ifndef HARK_CSECRET_SHIM_H
#define HARK_CSECRET_SHIM_H

#include <libsecret/secret.h>

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

static inline const gchar *hark_secret_collection_default(void) { return SECRET_COLLECTION_DEFAULT; }

#endif
