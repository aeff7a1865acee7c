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
