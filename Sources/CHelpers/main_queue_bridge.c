#include "hark_helpers.h"

#include <glib-unix.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

/* libdispatch SPI, exported by the toolchain's libdispatch.so and used by
 * Foundation's RunLoop for the same purpose. On Linux the handle is an eventfd
 * that becomes readable when work is queued on the main queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static guint bridge_source_id = 0;
static gint drain_depth = 0;

static gboolean on_main_queue_ready(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    /* The eventfd stays readable until read: consume it, or the loop spins. */
    eventfd_t ignored;
    (void)eventfd_read(fd, &ignored);
    drain_depth++;
    _dispatch_main_queue_callback_4CF(NULL);
    drain_depth--;
    return G_SOURCE_CONTINUE;
}

guint hark_main_queue_bridge_install(void) {
    if (bridge_source_id == 0) {
        int fd = _dispatch_get_main_queue_handle_4CF();
        bridge_source_id = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, on_main_queue_ready, NULL, NULL);
        /* Work queued before the source existed has already poked the eventfd;
         * the source sees it on the first iteration. */
    }
    return bridge_source_id;
}

void hark_main_queue_drain(void) {
    _dispatch_main_queue_callback_4CF(NULL);
}

gboolean hark_is_process_main_thread(void) {
    return syscall(SYS_gettid) == getpid();
}

gboolean hark_main_queue_is_draining(void) {
    return drain_depth > 0;
}
