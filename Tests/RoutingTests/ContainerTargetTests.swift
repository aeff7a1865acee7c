import Testing
@testable import URLModel
@testable import RoutingCore
@testable import Catalog
@testable import ConfigLanguage
@testable import Routing

/// Firefox containers as targets (`firefox:Work:container:Shopping`), opened through the
/// companion extension's `ext+openurld:` page.
@Suite struct ContainerTargetTests {
    static let catalog: AppCatalog = {
        let firefox = KnownBrowser.table.first { $0.key == "firefox" }
        let chromium = KnownBrowser.table.first { $0.key == "chromium" }
        return AppCatalog(
            entries: [
                AppEntry(id: "firefox-esr.desktop", name: "Firefox ESR", schemes: ["http", "https"]),
                AppEntry(id: "chromium.desktop", name: "Chromium", schemes: ["http", "https"]),
            ],
            browsers: [
                Browser(desktopID: "firefox-esr.desktop", name: "Firefox ESR", known: firefox, profileDirectory: "/h/f", profiles: [
                    ProfileRecord(name: "default", directory: "/h/f/a.default", isDefault: true, containers: ["Personal", "Work"]),
                    ProfileRecord(name: "Work", directory: "/h/f/b.work", containers: ["Shopping", "Banking", "My: Club"]),
                ]),
                Browser(desktopID: "chromium.desktop", name: "Chromium", known: chromium, profiles: [ProfileRecord(name: "Work", directory: "Work")]),
            ])
    }()

    func decide(_ target: String, _ url: String) throws -> Decision {
        let config = try ConfigLoader.load(text: "[default]\nopen = \"\(target)\"\n", path: "config.toml", catalog: Self.catalog)
        if let missing = config.missingAppsError { throw missing }
        return try RuleEngine(config: config).decide(url, explain: true)
    }

    @Test(arguments: [
        ("firefox-esr:Work:container:Shopping", Launch.desktopEntryAdding(id: "firefox-esr.desktop", arguments: ["--profile", "/h/f/b.work"],
                                                                            url: "ext+openurld:open?container=Shopping&url=https%3A%2F%2Fx.org%2Fa%3Fb%3D1%26c")),
        ("firefox:Work:container:banking", .desktopEntryAdding(id: "firefox-esr.desktop", arguments: ["--profile", "/h/f/b.work"],
                                                                 url: "ext+openurld:open?container=Banking&url=https%3A%2F%2Fx.org%2Fa%3Fb%3D1%26c")),
        ("firefox:Work:container:My: Club", .desktopEntryAdding(id: "firefox-esr.desktop", arguments: ["--profile", "/h/f/b.work"],
                                                                  url: "ext+openurld:open?container=My%3A%20Club&url=https%3A%2F%2Fx.org%2Fa%3Fb%3D1%26c")),
        ("firefox-esr:container:Personal", .desktopEntry(id: "firefox-esr.desktop", action: nil,
                                                          url: "ext+openurld:open?container=Personal&url=https%3A%2F%2Fx.org%2Fa%3Fb%3D1%26c")),
    ])
    func aContainerOpensThroughTheExtensionsPage(target: String, launch: Launch) throws {
        let decision = try decide(target, "https://x.org/a?b=1&c")
        #expect(decision.launch == launch)
        #expect(decision.target?.description.contains(":container:") == true)
    }

    @Test func aMailLinkToAContainerOpensAsTheProfileWould() throws {
        let decision = try decide("firefox-esr:Work:container:Shopping", "http://x.org/")
        #expect(decision.launch == .desktopEntryAdding(id: "firefox-esr.desktop", arguments: ["--profile", "/h/f/b.work"],
                                                        url: "ext+openurld:open?container=Shopping&url=http%3A%2F%2Fx.org%2F"))
    }

    @Test(arguments: [
        ("firefox-esr:Work:container:Shoping", #"profile "Work" has no container "Shoping"; did you mean "Shopping"?"#),
        ("firefox-esr:Wrok:container:Shopping", #"has no profile "Wrok""#),
        ("firefox-esr:container:", #"unknown target "firefox-esr:container:""#),
        ("chromium:Work:container:Shopping", "containers are Firefox's"),
        ("firefox-esr:Work:private:container:Shopping", "a container opens in a normal window of a profile"),
    ])
    func badContainersAreErrorsThatSayWhy(target: String, message: String) {
        do {
            _ = try decide(target, "https://x.org/")
            Issue.record("\(target) loaded")
        } catch {
            #expect("\(error)".contains(message), "\(target): \(error)")
        }
    }

    @Test func containersAreListedUnderTheirProfile() throws {
        let config = try ConfigLoader.load(text: "", path: "config.toml", catalog: Self.catalog)
        let listed = TargetListing.targets(for: "https", config: config).filter { $0.kind == .container }.map(\.target)
        #expect(listed == ["firefox-esr:default:container:Personal", "firefox-esr:default:container:Work", "firefox-esr:Work:container:Shopping",
                           "firefox-esr:Work:container:Banking", "firefox-esr:Work:container:My: Club"])
    }

    @Test(arguments: [
        (#"{"version":5,"identities":[{"userContextId":1,"public":true,"l10nId":"user-context-personal"},{"userContextId":2,"public":true,"l10nId":"user-context-work"},{"userContextId":5,"public":false,"name":"userContextIdInternal.thumbnail"},{"userContextId":6,"public":true,"name":"Club"}]}"#,
         ["Personal", "Work", "Club"]),
        (#"{"identities":[{"public":true,"l10nID":"userContextShopping.label"}]}"#, ["Shopping"]),
        ("not json", []),
        (#"{"identities":{}}"#, []),
    ])
    func containersJSON(text: String, names: [String]) {
        #expect(ProfileFiles.firefoxContainers(containersJSON: Array(text.utf8)) == names)
    }
}
