/// The names every part of openurld agrees on: the bus name, object path and interfaces the
/// daemon serves, and the desktop entry that makes it the default handler. The Embedded `openurl`
/// client cannot import Swift modules; it reads the same values from `COpenurl/router1.h`, and
/// `RouterContractTests` keeps the two equal.
public enum Router1 {
    /// The well-known bus name the daemon owns.
    public static let busName = "io.github.openurld"
    /// The object that serves both interfaces.
    public static let objectPath = "/io/github/openurld"
    /// openurld's own, versioned interface.
    public static let interface = "io.github.openurld.Router1"
    /// The interface GIO apps call on `DBusActivatable` entries.
    public static let applicationInterface = "org.freedesktop.Application"
    /// The desktop entry that declares the handler (`x-scheme-handler/http;…`).
    public static let desktopID = "io.github.openurld.desktop"
    /// The chooser window's application id (GTK, and the Wayland app id compositors match).
    public static let chooserApplicationID = "io.github.openurld.Chooser"

    /// The error names the daemon replies with, besides the bus's own.
    public enum Error {
        /// `Reload` and `ActivateAction("reload")`: the config does not load (the rules in use stay).
        public static let configInvalid = "io.github.openurld.Error.ConfigInvalid"
        /// `Copy` and `Reopen`: the decision could not be carried out.
        public static let failed = "io.github.openurld.Error.Failed"
    }
}
