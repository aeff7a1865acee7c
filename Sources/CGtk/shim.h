// GTK 4's declarations for openurl-chooser; the functions come from CGtkLoader, which loads
// libgtk-4 at run time, so neither openurld nor openurl links it.
#include <gtk/gtk.h>
