import RoutingCore
import Catalog
import ConfigLanguage

/// What is offered instead of a target that is not installed.
extension RuleEngine {
    /// The most buttons offered instead of a missing target (notification servers show few).
    public static let maximumInstalledChoices = 4

    /// The previous default handler (`system`, named as the app it opens) and the installed
    /// apps for `scheme` (browsers, for web links), each once: what a notification offers when
    /// a link's target is not installed.
    public func installedChoices(forScheme scheme: String) -> [Choice] {
        let actions = [Choice.Action.open(.system)] + config.catalog.entries(forScheme: scheme).map { .open(.desktopEntry(id: $0.id, action: nil)) }
        return Array(choiceLabels.choices(merged(actions, scheme: scheme), scheme: scheme).prefix(Self.maximumInstalledChoices))
    }
}
