// Cairo for Swift: drawing code renders into any cairo_t, image surfaces in tests.
#ifndef HARK_CCAIRO_SHIM_H
#define HARK_CCAIRO_SHIM_H
#include <cairo.h>
#endif
