// The C library as the openurl client uses it. The client is Embedded Swift (no Swift runtime to
// start, so a click costs about what dbus-send costs), which has no Glibc module: these headers
// stand in for it.
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// errno is a macro over a thread-local; Swift cannot import it.
static inline int copenurl_errno(void) { return errno; }
