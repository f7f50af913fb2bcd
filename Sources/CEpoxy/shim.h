// libepoxy: the OpenGL function loader GTK itself uses; Hark only asks it
// which renderer draws (see CGraphicsProbe).
#ifndef HARK_CEPOXY_SHIM_H
#define HARK_CEPOXY_SHIM_H
#include <epoxy/gl.h>
#endif
