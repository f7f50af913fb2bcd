// libsoup 3 for Swift (HTTP on GLib's main loop). Nothing here needs a
// wrapper yet: the calls Hark makes are plain functions.
#ifndef HARK_CSOUP_SHIM_H
#define HARK_CSOUP_SHIM_H

#include <libsoup/soup.h>

#endif
