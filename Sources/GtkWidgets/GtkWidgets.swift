import CGtk
import RoutingCore

// What every openurld window needs of GTK's C API beside the functions themselves: the casts the
// C macros would do, constructors that cannot return NULL, signals, and a label as our windows
// show them. The chooser and the settings window share it.

/// A GTK widget as the C API hands it out.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

/// A GObject cast (the C cast macros do not import).
public func cast<T>(_ widget: Widget) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// The same cast for types GTK keeps opaque (`GtkLabel`, `GtkImage`, ...).
public func cast(_ widget: Widget) -> OpaquePointer { OpaquePointer(widget) }

/// A widget GTK just made. GTK's constructors abort on allocation failure rather than return
/// NULL, so a nil here is a broken GTK: stop with a message rather than show half a window.
public func made(_ widget: Widget?, _ what: String) -> Widget {
    guard let widget else { fatalError("GTK returned no \(what)") }
    return widget
}

/// Connects a `@convention(c)` callback to a signal; `data` reaches the callback as its last argument.
public func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, data: UnsafeMutableRawPointer? = nil) {
    g_signal_connect_data(instance, signal, callback, data, nil, GConnectFlags(rawValue: 0))
}

/// An integer carried as a signal's user data (a row's index): never NULL, so 0 survives.
public func signalData(_ index: Int) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: index + 1) }

/// The integer `signalData` carried.
public func signalIndex(_ data: UnsafeMutableRawPointer?) -> Int { Int(bitPattern: data) - 1 }

/// Sets the four margins of `widget`.
public func setMargins(_ widget: Widget, _ pixels: Int32) {
    for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
        side(widget, pixels)
    }
}

/// A left-aligned label of plain text (escaped) or Pango markup, wrapping unless told not to.
public func makeLabel(_ text: String, markup: Bool = false, classes: [String] = [], small: Bool = false, wrap: Bool = true) -> Widget {
    let widget = made(gtk_label_new(nil), "label")
    let body = markup ? text : MarkupText.escaped(text)
    gtk_label_set_markup(cast(widget), small ? "<small>\(body)</small>" : body)
    gtk_label_set_xalign(cast(widget), 0)
    if wrap {
        gtk_label_set_wrap(cast(widget), 1)
        gtk_label_set_wrap_mode(cast(widget), PANGO_WRAP_WORD_CHAR)
    }
    for name in classes { gtk_widget_add_css_class(widget, name) }
    return widget
}

/// The text a label shows (its markup stripped), as the user reads it.
public func labelText(_ label: Widget) -> String {
    gtk_label_get_text(cast(label)).map { String(cString: $0) } ?? ""
}

/// The text in an entry.
public func entryText(_ entry: Widget) -> String {
    gtk_editable_get_text(OpaquePointer(entry)).map { String(cString: $0) } ?? ""
}

/// `child` in a scrolled window that takes the height it is given (vertical scrolling only,
/// unless `horizontal`).
public func scrolled(_ child: Widget, horizontal: Bool = false) -> Widget {
    let window = made(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_policy(cast(window), horizontal ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_scrolled_window_set_child(cast(window), child)
    gtk_widget_set_vexpand(window, 1)
    return window
}

/// A list whose selection follows the keyboard (arrows select, one row always selected).
public func browseList() -> Widget {
    let list = made(gtk_list_box_new(), "list box")
    gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_BROWSE)
    return list
}

/// A field's label with an Alt mnemonic (`_Link:`), left-aligned in a column `width` pixels wide.
public func fieldLabel(_ title: String, width: Int32 = 90) -> Widget {
    let label = made(gtk_label_new_with_mnemonic(title), "label")
    gtk_widget_set_size_request(label, width, -1)
    gtk_label_set_xalign(cast(label), 0)
    return label
}

/// Removes every row of `list`.
public func removeAllRows(_ list: Widget) {
    while let row = gtk_list_box_get_row_at_index(OpaquePointer(list), 0) {
        gtk_list_box_remove(OpaquePointer(list), UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
    }
}
