import CRouterContract

/// The names every part of openurld agrees on: the bus name, object path and interfaces the
/// daemon serves, its methods, option and result keys and error names, and the desktop entry
/// that makes it the default handler. Their one definition is `CRouterContract/router1.h`,
/// which the Embedded `openurl` handler reads too (it cannot import Swift modules).
public enum Router1 {
    /// The well-known bus name the daemon owns.
    public static let busName: String = OPENURL_BUS_NAME
    /// The object that serves both interfaces.
    public static let objectPath: String = OPENURL_OBJECT_PATH
    /// openurld's own, versioned interface.
    public static let interface: String = OPENURL_INTERFACE
    /// The interface GIO apps call on `DBusActivatable` entries.
    public static let applicationInterface: String = OPENURL_APPLICATION_INTERFACE
    /// The desktop entry that declares the handler (`x-scheme-handler/http;…`).
    public static let desktopID: String = OPENURL_DESKTOP_ID
    /// The chooser window's application id (GTK, and the Wayland app id compositors match).
    public static let chooserApplicationID: String = OPENURL_CHOOSER_APPLICATION_ID

    /// The methods of `Router1`.
    public enum Method {
        /// `Open(s url, a{sv} options) → a{sv}`.
        public static let open: String = OPENURL_METHOD_OPEN
        /// `OpenText(s text, a{sv} options) → as`.
        public static let openText: String = OPENURL_METHOD_OPEN_TEXT
        /// `Copy(s url, a{sv} options)`.
        public static let copy: String = OPENURL_METHOD_COPY
        /// `Explain(s url, a{sv} options) → a{sv}`.
        public static let explain: String = OPENURL_METHOD_EXPLAIN
        /// `Reload()`.
        public static let reload: String = OPENURL_METHOD_RELOAD
        /// `ListRules() → a(sisb)`.
        public static let listRules: String = OPENURL_METHOD_LIST_RULES
        /// `SetRuleEnabled(s name, b enabled)`.
        public static let setRuleEnabled: String = OPENURL_METHOD_SET_RULE_ENABLED
        /// `ListApps(s scheme) → a(ss)`.
        public static let listApps: String = OPENURL_METHOD_LIST_APPS
        /// `ListTargets(s scheme) → aa{sv}`.
        public static let listTargets: String = OPENURL_METHOD_LIST_TARGETS
        /// `Recent(u limit) → aa{sv}`.
        public static let recent: String = OPENURL_METHOD_RECENT
        /// `Reopen(u id, s target)`.
        public static let reopen: String = OPENURL_METHOD_REOPEN
        /// `ReopenWithOptions(u id, s target, a{sv} options)`: `Reopen` with the caller's display
        /// variables (`environment`) and activation token, as `openurl reopen` sends them.
        public static let reopenWithOptions: String = OPENURL_METHOD_REOPEN_WITH_OPTIONS
        /// `ClearRecent()`.
        public static let clearRecent: String = OPENURL_METHOD_CLEAR_RECENT
        /// `DescribeRules() → aa{sv}`: each rule with its layer, file and line, locked, recommended.
        public static let describeRules: String = OPENURL_METHOD_DESCRIBE_RULES
        /// `ConfigSources() → aa{sv}`: each file of every layer (site lists too) and how it loaded.
        public static let configSources: String = OPENURL_METHOD_CONFIG_SOURCES
        /// `ForgetRemembered(s name)`: removes that remembered answer from `remembered.toml`,
        /// answering once the reloaded rules are in force.
        public static let forgetRemembered: String = OPENURL_METHOD_FORGET_REMEMBERED
    }

    /// The keys of the `a{sv}` options of `Open`, `OpenText`, `Copy` and `Explain`.
    public enum Option {
        /// `s`: the click's activation token.
        public static let activationToken: String = OPENURL_OPTION_ACTIVATION_TOKEN
        /// `s`: the X11 startup id, read as the activation token.
        public static let desktopStartupID: String = OPENURL_OPTION_DESKTOP_STARTUP_ID
        /// `b`: ask, whatever the rules say.
        public static let ask: String = OPENURL_OPTION_ASK
        /// `b`: decide only.
        public static let dryRun: String = OPENURL_OPTION_DRY_RUN
        /// `a{ss}`: the click's display variables (`ClickEnvironment.names`).
        public static let environment: String = OPENURL_OPTION_ENVIRONMENT
        /// `t`: `CLOCK_MONOTONIC` microseconds after which the client has routed the link itself.
        public static let deadline: String = OPENURL_OPTION_DEADLINE
        /// `s`: the opener's process name (also tried as its ids).
        public static let opener: String = OPENURL_OPTION_OPENER
        /// `s`: the opener's desktop id.
        public static let openerDesktopID: String = OPENURL_OPTION_OPENER_DESKTOP_ID
        /// `s`: the opener's Flatpak app id.
        public static let openerFlatpakID: String = OPENURL_OPTION_OPENER_FLATPAK_ID
        /// `s`: the opener's Snap name.
        public static let openerSnapID: String = OPENURL_OPTION_OPENER_SNAP_ID
        /// `u`: the calling process (the opener is found from it without asking the bus).
        public static let processID: String = OPENURL_OPTION_PROCESS_ID
        /// `a{sv}`: what the page or app that showed the link says about it (`Context` keys).
        public static let context: String = OPENURL_OPTION_CONTEXT
        /// `a{sv}`: facts of the moment to decide by instead of those seen (`MomentOption` keys);
        /// `Explain` and a dry-run `Open` only.
        public static let moment: String = OPENURL_OPTION_MOMENT
    }

    /// The keys of the `moment` option, each standing for one of `openurl test`'s options.
    public enum MomentOption {
        /// `s`: the network, a connection's name or Wi-Fi SSID (`--network`).
        public static let network: String = OPENURL_MOMENT_NETWORK
        /// `b`: a VPN is up, or with false none is (`--vpn`).
        public static let vpn: String = OPENURL_MOMENT_VPN
        /// `s`: the VPN connection's name; implies a VPN is up (`--vpn-name`).
        public static let vpnName: String = OPENURL_MOMENT_VPN_NAME
        /// `s`: the local time, `YYYY-MM-DD HH:MM` (`--at`).
        public static let at: String = OPENURL_MOMENT_AT
        /// `s`: the keys held, a comma-separated list or `none` (`--modifiers`).
        public static let modifiers: String = OPENURL_MOMENT_MODIFIERS
        /// `s`: the title of the focused window (`--window`).
        public static let window: String = OPENURL_MOMENT_WINDOW
    }

    /// The keys of the `context` option.
    public enum Context {
        /// `s`: the text the link was shown as (`[paypal.com](https://evil.example/)`'s `paypal.com`).
        public static let linkText: String = OPENURL_CONTEXT_LINK_TEXT
        /// `s`: the page or message the link was on.
        public static let originURL: String = OPENURL_CONTEXT_ORIGIN_URL
    }

    /// The properties of `Router1` that the header names.
    public enum Property {
        /// `a{ss}`: what the daemon sees of the moment (`network`, `vpn`, `x11`).
        public static let moment: String = OPENURL_PROPERTY_MOMENT
    }

    /// The keys of the `a{sv}` result of `Open` and `Explain`, as `openurl test --json` names them.
    public enum Result {
        /// The URL as given.
        public static let url: String = OPENURL_RESULT_URL
        /// The URL after hygiene and rewrites.
        public static let finalURL: String = OPENURL_RESULT_FINAL_URL
        /// `open`, `copy`, `ask`, `discard` or `system`.
        public static let decision: String = OPENURL_RESULT_DECISION
        /// The target of an `open`.
        public static let target: String = OPENURL_RESULT_TARGET
        /// The rule's name (`s`) or index (`u`).
        public static let rule: String = OPENURL_RESULT_RULE
        /// The text a `copy` puts on the clipboard.
        public static let copyText: String = OPENURL_RESULT_COPY_TEXT
        /// The keys of an `ask`'s choices.
        public static let choices: String = OPENURL_RESULT_CHOICES
        /// The safety verdict and what the policy did (`a{sv}`; an object in JSON).
        public static let safety: String = OPENURL_RESULT_SAFETY
        /// Why the link was refused.
        public static let error: String = OPENURL_RESULT_ERROR
        /// The trace, as lines of text.
        public static let trace: String = OPENURL_RESULT_TRACE
        /// What became of it (`done`, `asking`, `failed: …`, …).
        public static let outcome: String = OPENURL_RESULT_OUTCOME
        /// Its id in `recent`.
        public static let id: String = OPENURL_RESULT_ID
        /// What an open launches (`a{sv}`, `Launch` keys); left out when nothing is launched.
        public static let launch: String = OPENURL_RESULT_LAUNCH
    }

    /// The keys of the result's `launch`.
    public enum Launch {
        /// `s`: the desktop entry launched, `system` for the handler before openurld.
        public static let entry: String = OPENURL_LAUNCH_ENTRY
        /// `as`: the arguments before the URL (a profile, a private or app window).
        public static let arguments: String = OPENURL_LAUNCH_ARGUMENTS
        /// `s`: the URL handed over, when the launch carries one (`ext+openurld:` for a container).
        public static let url: String = OPENURL_LAUNCH_URL
    }

    /// The error names the daemon replies with, besides the bus's own.
    public enum Error {
        /// `Reload` and `ActivateAction("reload")`: the config does not load (the rules in use stay).
        public static let configInvalid: String = OPENURL_ERROR_CONFIG_INVALID
        /// `Copy` and `Reopen`: the decision could not be carried out.
        public static let failed: String = OPENURL_ERROR_FAILED
        /// Bad arguments: a URL that is not one, a wrong option type.
        public static let invalidArgs: String = OPENURL_ERROR_INVALID_ARGS
        /// `SetRuleEnabled` and `Reopen`: the system configuration locked the rule.
        public static let ruleLocked: String = OPENURL_ERROR_RULE_LOCKED
    }
}
