/// Steps over a list one item at a time, each step calling back when it is done (at once, or
/// later from the loop). A step that calls back at once continues the loop instead of nesting a
/// call, so the stack does not grow with the list: 3,000 links in one `Application.Open` once
/// overflowed it.
enum InTurn {
    /// Runs `step` on each of `items` in order, the next once the previous called back, then `finished`.
    static func run<Item>(_ items: [Item], step: @escaping (Item, @escaping () -> Void) -> Void, finished: @escaping () -> Void) {
        var next = 0
        func resume() {
            while next < items.count {
                let item = items[next]
                next += 1
                var returned = false, calledBack = false
                step(item) {
                    if returned { resume() } else { calledBack = true }
                }
                returned = true
                guard calledBack else { return }  // it calls back later, from the loop
            }
            finished()
        }
        resume()
    }
}
