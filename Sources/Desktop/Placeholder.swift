import Routing
// Side effects (launching, clipboard, notifications, XDG paths) land here.
enum DesktopPlaceholder {}
