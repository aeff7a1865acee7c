// The tables `TOMLReader` fills while it reads, and the rules of what may add to each.

/// A table while the document is read: members in source order, looked up by key.
final class TableBuilder {
    /// How the table came to be, which decides what may add to it later.
    enum State {
        /// Made by a longer table name (`[a.b]` makes `a`); `[a]` may still define it once.
        case implicit
        /// Defined by its own `[name]` or `[[name]]` header.
        case header
        /// Made by a dotted key (`a.b = 1` makes `a`); only dotted keys add to it.
        case dotted
        /// An inline table: complete as written.
        case inline
    }

    /// What a member holds.
    enum Entry {
        case value(TOMLNode)
        case table(TableBuilder)
        case tableArray(TableArrayBuilder)
    }

    var position: SourcePosition
    /// Where the table's key is (its header's position for an array element).
    let keyPosition: SourcePosition
    var state: State
    private var members: [(key: String, entry: Entry)] = []
    /// Built once a table has many members; small tables are searched. By bytes, as toml++
    /// compared keys (String's == would take canonically equivalent keys for one).
    private var lookup: [[UInt8]: Int] = [:]

    init(position: SourcePosition, keyPosition: SourcePosition, state: State) {
        self.position = position
        self.keyPosition = keyPosition
        self.state = state
        // A rule's table and its `match` table hold a few keys: grown from empty, each was
        // reallocated twice (~600 instructions a table, 2,000 tables for 1,000 rules).
        members.reserveCapacity(4)
    }

    func entry(_ key: String) -> Entry? {
        if members.count > 12 { return lookup[Array(key.utf8)].map { members[$0].entry } }
        // The byte count first (O(1) for native strings): most keys differ in length.
        let count = key.utf8.count
        for member in members where member.key.utf8.count == count && member.key.utf8.elementsEqual(key.utf8) { return member.entry }
        return nil
    }

    func add(_ key: String, _ entry: Entry) {
        members.append((key, entry))
        if members.count > 12 {
            if lookup.isEmpty { for (offset, member) in members.enumerated() { lookup[Array(member.key.utf8)] = offset } }
            lookup[Array(key.utf8)] = members.count - 1
        }
    }

    /// The finished table. Recursive, as deep as tables nest: a name has at most 64 parts, and
    /// inline values at most 256 levels.
    func node() -> TOMLNode {
        let built: [(key: String, node: TOMLNode)] = members.map { member in
            switch member.entry {
            case .value(let node): return (member.key, node)
            case .table(let table): return (member.key, table.node())
            case .tableArray(let array):
                return (member.key, TOMLNode(value: .array(array.elements.map { $0.node() }), position: array.position, keyPosition: array.keyPosition))
            }
        }
        return TOMLNode(value: .table(built), position: position, keyPosition: keyPosition)
    }
}

/// An array of tables (`[[name]]`) while the document is read.
final class TableArrayBuilder {
    let position: SourcePosition
    /// Where the array's key is in its first header.
    let keyPosition: SourcePosition
    var elements: [TableBuilder]

    init(position: SourcePosition, keyPosition: SourcePosition, elements: [TableBuilder]) {
        self.position = position
        self.keyPosition = keyPosition
        self.elements = elements
    }
}
