// The Router1 contract: every name and number the daemon, the Embedded `openurl` handler and the
// tool agree on. It is C so that the handler (Embedded Swift, which cannot import Swift modules)
// and the Swift side (the RouterContract module) read one definition; nothing else defines them.
#ifndef OPENURL_ROUTER1_H
#define OPENURL_ROUTER1_H
#include <string.h>

// Names.
#define OPENURL_BUS_NAME "io.github.openurld"
#define OPENURL_OBJECT_PATH "/io/github/openurld"
#define OPENURL_INTERFACE "io.github.openurld.Router1"
#define OPENURL_APPLICATION_INTERFACE "org.freedesktop.Application"
#define OPENURL_DESKTOP_ID "io.github.openurld.desktop"
#define OPENURL_CHOOSER_APPLICATION_ID "io.github.openurld.Chooser"

// Methods of Router1.
#define OPENURL_METHOD_OPEN "Open"
#define OPENURL_METHOD_OPEN_TEXT "OpenText"
#define OPENURL_METHOD_COPY "Copy"
#define OPENURL_METHOD_EXPLAIN "Explain"
#define OPENURL_METHOD_RELOAD "Reload"
#define OPENURL_METHOD_LIST_RULES "ListRules"
#define OPENURL_METHOD_SET_RULE_ENABLED "SetRuleEnabled"
#define OPENURL_METHOD_LIST_APPS "ListApps"
#define OPENURL_METHOD_LIST_TARGETS "ListTargets"
#define OPENURL_METHOD_RECENT "Recent"
#define OPENURL_METHOD_REOPEN "Reopen"
// ReopenWithOptions(u id, s target, a{sv} options): Reopen with the caller's `environment` and
// `activation-token` (the Open option keys), as `openurl reopen` sends them; Reopen(u, s) stays.
#define OPENURL_METHOD_REOPEN_WITH_OPTIONS "ReopenWithOptions"
#define OPENURL_METHOD_CLEAR_RECENT "ClearRecent"
#define OPENURL_METHOD_DESCRIBE_RULES "DescribeRules"
#define OPENURL_METHOD_CONFIG_SOURCES "ConfigSources"
// ForgetRemembered(s name): removes the remembered answer of that name from remembered.toml and
// answers once the reloaded rules are in force.
#define OPENURL_METHOD_FORGET_REMEMBERED "ForgetRemembered"

// Keys of the a{sv} options of Open, OpenText, Copy and Explain.
#define OPENURL_OPTION_ACTIVATION_TOKEN "activation-token"
#define OPENURL_OPTION_DESKTOP_STARTUP_ID "desktop-startup-id"
#define OPENURL_OPTION_ASK "ask"
#define OPENURL_OPTION_DRY_RUN "dry-run"
#define OPENURL_OPTION_ENVIRONMENT "environment"
#define OPENURL_OPTION_DEADLINE "deadline"
#define OPENURL_OPTION_OPENER "opener"
#define OPENURL_OPTION_OPENER_DESKTOP_ID "opener-desktop-id"
#define OPENURL_OPTION_OPENER_FLATPAK_ID "opener-flatpak-id"
#define OPENURL_OPTION_OPENER_SNAP_ID "opener-snap-id"
// u: the calling process, so the daemon need not ask the bus for it (the opener is found from it).
#define OPENURL_OPTION_PROCESS_ID "process-id"
// a{sv}: what the page or app that showed the link says about it, for the safety verdict.
#define OPENURL_OPTION_CONTEXT "context"
// Keys of the context a{sv}: s, the text the link was shown as; s, the page it was on.
#define OPENURL_CONTEXT_LINK_TEXT "link-text"
#define OPENURL_CONTEXT_ORIGIN_URL "origin-url"
// a{sv}, Explain and a dry-run Open only: facts of the click's moment to use instead of those
// the daemon sees, as `openurl test`'s options give them (each key left out is seen as usual).
#define OPENURL_OPTION_MOMENT "moment"
// Keys of the moment a{sv}: s, a network (connection name or Wi-Fi SSID, `--network`); b, a VPN is
// up (`--vpn`); s, the VPN's name (`--vpn-name`); s, the local time "YYYY-MM-DD HH:MM" (`--at`);
// s, the keys held, "shift,ctrl" or "none" (`--modifiers`); s, the focused window's title (`--window`).
#define OPENURL_MOMENT_NETWORK "network"
#define OPENURL_MOMENT_VPN "vpn"
#define OPENURL_MOMENT_VPN_NAME "vpn-name"
#define OPENURL_MOMENT_AT "at"
#define OPENURL_MOMENT_MODIFIERS "modifiers"
#define OPENURL_MOMENT_WINDOW "window"

// Properties of Router1 beside Version, ConfigPath, ConfigError and Environment.
// a{ss}: what the daemon sees of the moment (network, vpn, x11), as `openurl status` prints it.
#define OPENURL_PROPERTY_MOMENT "Moment"

// Keys of the a{sv} result of Open and Explain (and of `openurl test --json`).
#define OPENURL_RESULT_URL "url"
#define OPENURL_RESULT_FINAL_URL "final_url"
#define OPENURL_RESULT_DECISION "decision"
#define OPENURL_RESULT_TARGET "target"
#define OPENURL_RESULT_RULE "rule"
#define OPENURL_RESULT_COPY_TEXT "copy_text"
#define OPENURL_RESULT_CHOICES "choices"
// a{sv}: the safety verdict (verdict, shown_host, summary, reasons, block, policy, action).
#define OPENURL_RESULT_SAFETY "safety"
#define OPENURL_RESULT_ERROR "error"
#define OPENURL_RESULT_TRACE "trace"
#define OPENURL_RESULT_OUTCOME "outcome"
#define OPENURL_RESULT_ID "id"
// a{sv}: what an open would launch: the desktop entry (s, "system" for the previous handler)
// and the arguments put before the URL (as: a browser profile, a private window); left out
// when nothing is launched. The browser companion keeps a link whose launch is its own browser.
#define OPENURL_RESULT_LAUNCH "launch"
#define OPENURL_LAUNCH_ENTRY "entry"
#define OPENURL_LAUNCH_ARGUMENTS "arguments"
// s: the URL the launch hands over, when it is not the final URL itself (a container's ext+openurld: link).
#define OPENURL_LAUNCH_URL "url"

// Outcomes the handler acts on.
#define OPENURL_OUTCOME_ABANDONED "abandoned"
#define OPENURL_OUTCOME_FAILED "failed"

// Error names the daemon replies with.
#define OPENURL_ERROR_CONFIG_INVALID "io.github.openurld.Error.ConfigInvalid"
#define OPENURL_ERROR_FAILED "io.github.openurld.Error.Failed"
#define OPENURL_ERROR_INVALID_ARGS "org.freedesktop.DBus.Error.InvalidArgs"
#define OPENURL_ERROR_RULE_LOCKED "io.github.openurld.Error.RuleLocked"

// A click's time budget: the handler waits this long for Open, and sends a deadline this much
// earlier, after which the daemon drops the call (the handler has routed the link itself).
#define OPENURL_CLIENT_TIMEOUT_MS 2000
#define OPENURL_DEADLINE_MARGIN_MS 500

// The display variables a click sends in `environment`, and the only ones the daemon takes.
#define OPENURL_DISPLAY_VARIABLE_COUNT 4
static inline const char *openurl_display_variable(int index) {
    static const char *const names[OPENURL_DISPLAY_VARIABLE_COUNT] = {"DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XAUTHORITY"};
    return index >= 0 && index < OPENURL_DISPLAY_VARIABLE_COUNT ? names[index] : 0;
}

// True when an error reply means no service could answer (nothing owns the name and it could not
// be activated, or it went away): the caller routes the link itself instead of reporting it.
static inline int openurl_means_service_unavailable(const char *name) {
    static const char *const names[] = {
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.systemd1.NoSuchUnit",
    };
    if (!name) return 0;
    if (strncmp(name, "org.freedesktop.DBus.Error.Spawn.", 33) == 0) return 1;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) == 0) return 1;
    }
    return 0;
}

// True when an error reply means the daemon did not answer in time (stopped or hung).
static inline int openurl_is_timeout(const char *name) {
    return name && (strcmp(name, "org.freedesktop.DBus.Error.NoReply") == 0 || strcmp(name, "org.freedesktop.DBus.Error.TimedOut") == 0);
}

#endif
