import Testing

/// The suites that start Debian's real Firefox ESR and Chromium, one after another: each starts
/// browsers that take seconds of both cores, and side by side with the rest of the suite they
/// made its timing-sensitive GUI tests (a chooser window within 20 s) miss under CI's load.
@Suite(.serialized) enum RealBrowsers {}
