// The C library as the openurl client uses it. The client is Embedded Swift (no Swift runtime to
// start, so a click costs about what dbus-send costs), which has no Glibc module: these headers
// stand in for it.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

// errno is a macro over a thread-local; Swift cannot import it.
static inline int copenurl_errno(void) { return errno; }

// A non-blocking stream socket connected to the Unix socket `name` (`length` bytes; in the
// abstract namespace when `abstract`), or -1. sockaddr_un's fixed array is awkward from Swift.
static inline int copenurl_connect_unix(const char *name, size_t length, int abstract) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t offset = abstract ? 1 : 0;
    if (length + offset >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path + offset, name, length);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + length + (abstract ? 0 : 1));
    while (connect(fd, (struct sockaddr *)&address, size) != 0) {
        if (errno == EINTR) continue;
        close(fd);
        return -1;
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) { close(fd); return -1; }
    return fd;
}
