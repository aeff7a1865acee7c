import Notifying

/// Notices as a session has them: the daemon's stay for answers on its loop, embedded mode's do not.
extension Notices {
    /// Notices for `session`.
    public convenience init(session: Session) {
        self.init(bus: session.bus, answersArrive: session.loop != nil, staysForAnswers: session.staysForAnswers,
                  verbose: session.verbose)
    }
}
