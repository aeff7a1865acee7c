// GTK 4 for the chooser and the settings window, loaded with dlopen instead of linked, so that the multi-call binary
// (openurld, openurl-tool, openurl-chooser) maps GTK, pango, cairo and the rest only in chooser
// mode, never in the daemon or the tool. Each GTK function the chooser calls is defined here
// under GTK's own name and prototype (gtk.h is included, so a prototype that does not match
// GTK's fails to compile) and forwards through a pointer looked up with dlsym. GLib, GObject and
// GIO stay linked normally: the daemon links GIO anyway.
//
// A GTK function the chooser starts calling must be added to OPENURL_GTK_FUNCTIONS: forgetting
// one fails the link with an undefined symbol, as the Swift code sees gtk.h's declaration.
#include "gtk_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <gtk/gtk.h>

#define OPENURL_GTK_LIBRARY "libgtk-4.so.1"

// CALL(return type, name, (parameters), (arguments)) for a function that returns a value,
// VOID(name, (parameters), (arguments)) for one that does not.
#define OPENURL_GTK_FUNCTIONS(CALL, VOID) \
    CALL(GdkDisplay *, gdk_display_get_default, (void), ()) \
    VOID(gtk_box_append, (GtkBox *box, GtkWidget *child), (box, child)) \
    CALL(GtkWidget *, gtk_box_new, (GtkOrientation orientation, int spacing), (orientation, spacing)) \
    CALL(gboolean, gtk_check_button_get_active, (GtkCheckButton *self), (self)) \
    CALL(GtkWidget *, gtk_check_button_new_with_label, (const char *label), (label)) \
    CALL(GtkWidget *, gtk_check_button_new_with_mnemonic, (const char *label), (label)) \
    CALL(guint, gtk_drop_down_get_selected, (GtkDropDown *self), (self)) \
    CALL(GtkWidget *, gtk_drop_down_new_from_strings, (const char *const *strings), (strings)) \
    CALL(const char *, gtk_editable_get_text, (GtkEditable *editable), (editable)) \
    VOID(gtk_editable_set_text, (GtkEditable *editable, const char *text), (editable, text)) \
    CALL(GtkWidget *, gtk_entry_new, (void), ()) \
    CALL(GtkEventController *, gtk_event_controller_key_new, (void), ()) \
    VOID(gtk_event_controller_set_propagation_phase, (GtkEventController *controller, GtkPropagationPhase phase), (controller, phase)) \
    CALL(GtkWidget *, gtk_frame_new, (const char *label), (label)) \
    VOID(gtk_frame_set_child, (GtkFrame *frame, GtkWidget *child), (frame, child)) \
    CALL(GtkIconTheme *, gtk_icon_theme_get_for_display, (GdkDisplay *display), (display)) \
    CALL(gboolean, gtk_icon_theme_has_icon, (GtkIconTheme *self, const char *icon_name), (self, icon_name)) \
    CALL(GtkWidget *, gtk_image_new_from_file, (const char *filename), (filename)) \
    CALL(GtkWidget *, gtk_image_new_from_icon_name, (const char *icon_name), (icon_name)) \
    VOID(gtk_image_set_pixel_size, (GtkImage *image, int pixel_size), (image, pixel_size)) \
    VOID(gtk_init, (void), ()) \
    CALL(GtkWidget *, gtk_label_new, (const char *str), (str)) \
    CALL(GtkWidget *, gtk_label_new_with_mnemonic, (const char *str), (str)) \
    VOID(gtk_label_set_ellipsize, (GtkLabel *self, PangoEllipsizeMode mode), (self, mode)) \
    VOID(gtk_label_set_lines, (GtkLabel *self, int lines), (self, lines)) \
    VOID(gtk_label_set_markup, (GtkLabel *self, const char *str), (self, str)) \
    VOID(gtk_label_set_mnemonic_widget, (GtkLabel *self, GtkWidget *widget), (self, widget)) \
    VOID(gtk_label_set_wrap, (GtkLabel *self, gboolean wrap), (self, wrap)) \
    VOID(gtk_label_set_wrap_mode, (GtkLabel *self, PangoWrapMode wrap_mode), (self, wrap_mode)) \
    VOID(gtk_label_set_xalign, (GtkLabel *self, float xalign), (self, xalign)) \
    VOID(gtk_list_box_append, (GtkListBox *box, GtkWidget *child), (box, child)) \
    CALL(GtkListBoxRow *, gtk_list_box_get_row_at_index, (GtkListBox *box, int index_), (box, index_)) \
    CALL(GtkListBoxRow *, gtk_list_box_get_selected_row, (GtkListBox *box), (box)) \
    CALL(GtkWidget *, gtk_list_box_new, (void), ()) \
    CALL(int, gtk_list_box_row_get_index, (GtkListBoxRow *row), (row)) \
    VOID(gtk_list_box_select_row, (GtkListBox *box, GtkListBoxRow *row), (box, row)) \
    VOID(gtk_list_box_set_selection_mode, (GtkListBox *box, GtkSelectionMode mode), (box, mode)) \
    CALL(GType, gtk_popover_get_type, (void), ()) \
    CALL(GtkWidget *, gtk_scrolled_window_new, (void), ()) \
    VOID(gtk_scrolled_window_set_child, (GtkScrolledWindow *self, GtkWidget *child), (self, child)) \
    VOID(gtk_scrolled_window_set_max_content_height, (GtkScrolledWindow *self, int height), (self, height)) \
    VOID(gtk_scrolled_window_set_policy, (GtkScrolledWindow *self, GtkPolicyType horizontal, GtkPolicyType vertical), (self, horizontal, vertical)) \
    VOID(gtk_scrolled_window_set_propagate_natural_height, (GtkScrolledWindow *self, gboolean propagate), (self, propagate)) \
    VOID(gtk_widget_add_controller, (GtkWidget *widget, GtkEventController *controller), (widget, controller)) \
    VOID(gtk_widget_add_css_class, (GtkWidget *widget, const char *css_class), (widget, css_class)) \
    CALL(GtkWidget *, gtk_widget_get_ancestor, (GtkWidget *widget, GType widget_type), (widget, widget_type)) \
    CALL(gboolean, gtk_widget_grab_focus, (GtkWidget *widget), (widget)) \
    CALL(gboolean, gtk_widget_is_ancestor, (GtkWidget *widget, GtkWidget *ancestor), (widget, ancestor)) \
    VOID(gtk_widget_set_margin_bottom, (GtkWidget *widget, int margin), (widget, margin)) \
    VOID(gtk_widget_set_margin_end, (GtkWidget *widget, int margin), (widget, margin)) \
    VOID(gtk_widget_set_margin_start, (GtkWidget *widget, int margin), (widget, margin)) \
    VOID(gtk_widget_set_margin_top, (GtkWidget *widget, int margin), (widget, margin)) \
    VOID(gtk_widget_set_tooltip_text, (GtkWidget *widget, const char *text), (widget, text)) \
    VOID(gtk_box_remove, (GtkBox *box, GtkWidget *child), (box, child)) \
    CALL(GtkWidget *, gtk_button_new_with_mnemonic, (const char *label), (label)) \
    VOID(gtk_check_button_set_active, (GtkCheckButton *self, gboolean setting), (self, setting)) \
    VOID(gtk_drop_down_set_selected, (GtkDropDown *self, guint position), (self, position)) \
    CALL(const char *, gtk_label_get_text, (GtkLabel *self), (self)) \
    VOID(gtk_label_set_selectable, (GtkLabel *self, gboolean setting), (self, setting)) \
    VOID(gtk_label_set_text, (GtkLabel *self, const char *str), (self, str)) \
    VOID(gtk_list_box_remove, (GtkListBox *box, GtkWidget *child), (box, child)) \
    CALL(int, gtk_notebook_append_page, (GtkNotebook *notebook, GtkWidget *child, GtkWidget *tab_label), (notebook, child, tab_label)) \
    CALL(int, gtk_notebook_get_current_page, (GtkNotebook *notebook), (notebook)) \
    CALL(GtkWidget *, gtk_notebook_new, (void), ()) \
    VOID(gtk_notebook_set_current_page, (GtkNotebook *notebook, int page_num), (notebook, page_num)) \
    CALL(GtkSettings *, gtk_settings_get_default, (void), ()) \
    CALL(gboolean, gtk_switch_get_active, (GtkSwitch *self), (self)) \
    CALL(GtkWidget *, gtk_switch_new, (void), ()) \
    VOID(gtk_switch_set_active, (GtkSwitch *self, gboolean is_active), (self, is_active)) \
    CALL(GtkWidget *, gtk_widget_get_first_child, (GtkWidget *widget), (widget)) \
    CALL(gboolean, gtk_widget_get_sensitive, (GtkWidget *widget), (widget)) \
    CALL(gboolean, gtk_widget_get_visible, (GtkWidget *widget), (widget)) \
    VOID(gtk_widget_set_hexpand, (GtkWidget *widget, gboolean expand), (widget, expand)) \
    VOID(gtk_widget_set_sensitive, (GtkWidget *widget, gboolean sensitive), (widget, sensitive)) \
    VOID(gtk_widget_set_size_request, (GtkWidget *widget, int width, int height), (widget, width, height)) \
    VOID(gtk_widget_set_vexpand, (GtkWidget *widget, gboolean expand), (widget, expand)) \
    VOID(gtk_widget_set_visible, (GtkWidget *widget, gboolean visible), (widget, visible)) \
    CALL(GtkWidget *, gtk_list_box_row_get_child, (GtkListBoxRow *row), (row)) \
    VOID(gtk_widget_set_halign, (GtkWidget *widget, GtkAlign align), (widget, align)) \
    VOID(gtk_widget_set_valign, (GtkWidget *widget, GtkAlign align), (widget, align)) \
    VOID(gtk_window_destroy, (GtkWindow *window), (window)) \
    CALL(GtkWidget *, gtk_window_get_focus, (GtkWindow *window), (window)) \
    CALL(GtkWidget *, gtk_window_new, (void), ()) \
    VOID(gtk_window_present, (GtkWindow *window), (window)) \
    VOID(gtk_window_set_child, (GtkWindow *window, GtkWidget *child), (window, child)) \
    VOID(gtk_window_set_default_size, (GtkWindow *window, int width, int height), (window, width, height)) \
    VOID(gtk_window_set_focus, (GtkWindow *window, GtkWidget *focus), (window, focus)) \
    VOID(gtk_window_set_startup_id, (GtkWindow *window, const char *startup_id), (window, startup_id)) \
    VOID(gtk_window_set_title, (GtkWindow *window, const char *title), (window, title)) \
    VOID(g_set_prgname, (const gchar *prgname), (prgname)) \
    VOID(g_set_application_name, (const gchar *application_name), (application_name)) \
    CALL(GMainLoop *, g_main_loop_new, (GMainContext *context, gboolean is_running), (context, is_running)) \
    VOID(g_main_loop_run, (GMainLoop *loop), (loop)) \
    CALL(GIOChannel *, g_io_channel_unix_new, (int fd), (fd)) \
    CALL(guint, g_io_add_watch, (GIOChannel *channel, GIOCondition condition, GIOFunc func, gpointer user_data), (channel, condition, func, user_data)) \
    CALL(guint, g_idle_add, (GSourceFunc function, gpointer data), (function, data)) \
    CALL(guint, g_timeout_add, (guint interval, GSourceFunc function, gpointer data), (interval, function, data)) \
    CALL(gboolean, g_source_remove, (guint tag), (tag)) \
    CALL(gulong, g_signal_connect_data, (gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data, \
                                         GClosureNotify destroy_data, GConnectFlags connect_flags), \
         (instance, detailed_signal, c_handler, data, destroy_data, connect_flags))

// One pointer per function, filled by openurl_gtk_load.
#define OPENURL_POINTER(ret, name, params, args) static __typeof__(&name) real_##name;
#define OPENURL_VOID_POINTER(name, params, args) static __typeof__(&name) real_##name;
OPENURL_GTK_FUNCTIONS(OPENURL_POINTER, OPENURL_VOID_POINTER)
// Variadic, so called here only, through pointers of their own type.
static __typeof__(&g_object_set) real_g_object_set;
static __typeof__(&g_object_get) real_g_object_get;

static int loaded;

int openurl_gtk_load(char *error, size_t size) {
    if (loaded) return 0;
    // Lazy and global, as if linked: libgtk-4 itself is built with BIND_NOW; pango, cairo and
    // the rest then bind on first call, as they would at start-up. The functions we need are
    // checked one by one below.
    void *gtk = dlopen(OPENURL_GTK_LIBRARY, RTLD_LAZY | RTLD_GLOBAL);
    if (!gtk) {
        snprintf(error, size, "cannot load GTK 4 (%s); install it (Debian: libgtk-4-1)", dlerror());
        return -1;
    }
#define OPENURL_LOOKUP(name) \
    if (!(real_##name = (__typeof__(&name))dlsym(gtk, #name))) { \
        snprintf(error, size, "%s has no %s; openurld's windows need GTK 4.8 or later", OPENURL_GTK_LIBRARY, #name); \
        return -1; \
    }
#define OPENURL_LOOKUP_CALL(ret, name, params, args) OPENURL_LOOKUP(name)
#define OPENURL_LOOKUP_VOID(name, params, args) OPENURL_LOOKUP(name)
    OPENURL_GTK_FUNCTIONS(OPENURL_LOOKUP_CALL, OPENURL_LOOKUP_VOID)
    OPENURL_LOOKUP(g_object_set)
    OPENURL_LOOKUP(g_object_get)
    loaded = 1;
    return 0;
}

// Reached only if a GTK function is called before openurl_gtk_load succeeded: a bug, not a
// missing GTK (the chooser loads GTK before anything else and exits with the message if it cannot).
static void ensure_loaded(const char *name) {
    if (loaded) return;
    char error[512];
    if (openurl_gtk_load(error, sizeof error) != 0) {
        fprintf(stderr, "openurl-chooser: %s (calling %s)\n", error, name);
        exit(3);
    }
}

#define OPENURL_FORWARD(ret, name, params, args) \
    ret name params { ensure_loaded(#name); return real_##name args; }
#define OPENURL_FORWARD_VOID(name, params, args) \
    void name params { ensure_loaded(#name); real_##name args; }
OPENURL_GTK_FUNCTIONS(OPENURL_FORWARD, OPENURL_FORWARD_VOID)

// GtkSettings' properties are set with the variadic g_object_set, which Swift cannot call.
void openurl_gtk_prefer_dark_theme(int dark) {
    ensure_loaded("gtk_settings_get_default");
    GtkSettings *settings = real_gtk_settings_get_default();
    if (settings) real_g_object_set(settings, "gtk-application-prefer-dark-theme", dark ? TRUE : FALSE, NULL);
}

int openurl_gtk_prefers_dark_theme(void) {
    ensure_loaded("gtk_settings_get_default");
    GtkSettings *settings = real_gtk_settings_get_default();
    gboolean dark = FALSE;
    if (settings) real_g_object_get(settings, "gtk-application-prefer-dark-theme", &dark, NULL);
    return dark ? 1 : 0;
}
