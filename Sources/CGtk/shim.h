// GTK 4 for openurl-chooser only; neither openurld nor openurl links it.
#include <gtk/gtk.h>
