// libsecret for Swift: the Secret Service (GNOME Keyring, KWallet…) over D-Bus.
// The schema is a static struct and the service's constructor is variadic:
// both are wrapped here.
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

/* A SecretService on a given bus connection (secret_service_open always takes
   the session bus); finish with secret_service_open_finish. */
static inline void hark_secret_service_open_on(GDBusConnection *connection, GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data) {
    g_async_initable_new_async(SECRET_TYPE_SERVICE, G_PRIORITY_DEFAULT, cancellable, callback, user_data,
                               "g-flags", G_DBUS_PROXY_FLAGS_NONE,
                               "g-connection", connection,
                               "g-name", "org.freedesktop.secrets",
                               "g-object-path", "/org/freedesktop/secrets",
                               "g-interface-name", "org.freedesktop.Secret.Service",
                               "flags", SECRET_SERVICE_NONE,
                               NULL);
}

static inline const gchar *hark_secret_collection_default(void) { return SECRET_COLLECTION_DEFAULT; }

#endif
