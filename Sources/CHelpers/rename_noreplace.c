// renameat2(2) is declared only under _GNU_SOURCE, which Swift's Glibc module
// does not define: Swift cannot see it.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>

#include "hark_helpers.h"

int hark_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
