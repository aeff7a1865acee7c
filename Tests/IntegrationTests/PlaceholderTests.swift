import Testing
import Routing

@Test func integrationPlaceholder() { #expect(Bool(true)) }
