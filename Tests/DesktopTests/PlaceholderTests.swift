import Testing
import Desktop

@Test func desktopModuleBuilds() { #expect(Bool(true)) }
