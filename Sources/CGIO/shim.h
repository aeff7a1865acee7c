#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
