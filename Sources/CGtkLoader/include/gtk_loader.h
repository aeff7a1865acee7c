// GTK 4 loaded at run time, so that only chooser mode of the multi-call binary maps it.
#ifndef OPENURL_GTK_LOADER_H
#define OPENURL_GTK_LOADER_H
#include <stddef.h>

/// Loads libgtk-4.so.1 and every GTK function the chooser calls; 0 on success, else -1 with a
/// message for the user in `error` (at most `size` bytes, NUL-terminated).
int openurl_gtk_load(char *error, size_t size);

/// Asks GTK for the theme's dark variant (1) or its light one (0), as the desktop's colour
/// scheme says; GTK 4.8 without libadwaita does not follow the scheme by itself.
void openurl_gtk_prefer_dark_theme(int dark);

/// 1 when GTK is asked for the theme's dark variant, read back from its settings.
int openurl_gtk_prefers_dark_theme(void);

#endif
