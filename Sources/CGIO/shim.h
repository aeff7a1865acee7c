#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <sys/prctl.h>

/* prctl is variadic and cannot be called from Swift: a fixed-argument wrapper. */
static inline int openurld_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

