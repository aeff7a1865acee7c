// Test harnesses (private dbus-daemon, Xvfb + dunst) land here.
enum TestSupportPlaceholder {}
