// The libdbus wrapper lands here.
enum DBusPlaceholder {}
