/// A block index written to and read back from a snapshot (`BlockListSnapshots`). What is read
/// is checked whole before it is used: every range inside its buffer, every index inside its
/// table, and every chain running one way (a node's and a label's `next` to an earlier entry, a
/// prefix chain to a later one, as `init(entries:bytes:targets:)` builds them), so no look-up
/// can read out of bounds or loop, whatever the file holds.
extension BlockIndex {
    /// Writes the tables.
    func write(into writer: inout SnapshotWriter) {
        writer.run(bytes)
        writer.u32(UInt32(entries.count))
        for entry in entries {
            writer.i32(entry.host.lowerBound)
            writer.i32(entry.host.upperBound)
            writer.i32(entry.pattern.lowerBound)
            writer.i32(entry.pattern.upperBound)
            switch entry.kind {
            case .host: writer.u8(0); writer.u8(0); writer.u8(0)
            case .url(let anchored, let scheme):
                writer.u8(1)
                writer.u8(anchored ? 1 : 0)
                writer.u8(scheme == .any ? 0 : scheme == .http ? 1 : 2)
            case .labelPrefix: writer.u8(2); writer.u8(0); writer.u8(0)
            }
            writer.u8(entry.isException ? 1 : 0)
            writer.i32(entry.targets)
            writer.i32(entry.line)
            writer.i32(entry.range.lowerBound)
            writer.i32(entry.range.upperBound)
        }
        writer.u32(UInt32(targets.count))
        for target in targets {
            for domains in [target.included, target.excluded] {
                writer.u32(UInt32(domains.count))
                for domain in domains { writer.run(domain) }
            }
        }
        writer.u32(UInt32(nodes.count))
        for node in nodes {
            for value in [node.hostStart, node.hostCount, node.next, node.entriesStart, node.hostEntryCount, node.urlEntryCount, node.prefixedCount] {
                writer.i32(value)
            }
        }
        writer.i32s(nodeEntries)
        for table in [byHost, byLabel, byPrefix] {
            writer.u8(table.isEmpty ? 1 : 0)
            writer.u32(UInt32(table.slots.count))
            for slot in table.slots {
                writer.u32(slot.key)
                writer.i32(slot.value)
            }
        }
        writer.i32s(labelNext)
        writer.i32s(prefixNext)
        writer.i32s(entryNode)
    }

    /// The index `write` wrote, for a list whose text is `textCount` bytes; nil when anything in
    /// it is out of place.
    static func read(from reader: inout SnapshotReader, textCount: Int) -> BlockIndex? {
        guard let bytes = reader.run(), let entryCount = reader.count(stride: 36) else { return nil }
        func within(_ lower: Int32, _ upper: Int32, _ count: Int) -> Range<Int32>? {
            lower >= 0 && lower <= upper && Int(upper) <= count ? lower..<upper : nil
        }
        var entries: [BlockEntry] = []
        entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            guard let hostLower = reader.i32(), let hostUpper = reader.i32(), let patternLower = reader.i32(), let patternUpper = reader.i32(),
                  let kindByte = reader.u8(), let anchored = reader.u8(), let schemeByte = reader.u8(), let exception = reader.u8(),
                  let targets = reader.i32(), let line = reader.i32(), let rangeLower = reader.i32(), let rangeUpper = reader.i32(),
                  let host = within(hostLower, hostUpper, bytes.count), let pattern = within(patternLower, patternUpper, bytes.count),
                  let range = within(rangeLower, rangeUpper, textCount), anchored <= 1, exception <= 1, targets >= -1 else { return nil }
            let kind: BlockEntry.Kind
            switch (kindByte, schemeByte) {
            case (0, _): kind = .host
            case (1, 0): kind = .url(anchoredAtEnd: anchored == 1, scheme: .any)
            case (1, 1): kind = .url(anchoredAtEnd: anchored == 1, scheme: .http)
            case (1, 2): kind = .url(anchoredAtEnd: anchored == 1, scheme: .https)
            case (2, _): kind = .labelPrefix
            default: return nil
            }
            entries.append(BlockEntry(host: host, pattern: pattern, kind: kind, isException: exception == 1, targets: targets, line: line, range: range))
        }
        guard let targetCount = reader.count(stride: 8) else { return nil }
        var targets: [BlockTargets] = []
        for _ in 0..<targetCount {
            var lists: [[[UInt8]]] = []
            for _ in 0..<2 {
                guard let count = reader.count(stride: 4) else { return nil }
                var domains: [[UInt8]] = []
                for _ in 0..<count {
                    guard let domain = reader.run() else { return nil }
                    domains.append(domain)
                }
                lists.append(domains)
            }
            targets.append(BlockTargets(included: lists[0], excluded: lists[1]))
        }
        guard entries.allSatisfy({ $0.targets < Int32(targets.count) }), let nodeCount = reader.count(stride: 28) else { return nil }
        var nodes: [Node] = []
        nodes.reserveCapacity(nodeCount)
        for index in 0..<nodeCount {
            guard let hostStart = reader.i32(), let hostCount = reader.i32(), let next = reader.i32(), let entriesStart = reader.i32(),
                  let hostEntryCount = reader.i32(), let urlEntryCount = reader.i32(), let prefixedCount = reader.i32(),
                  hostCount >= 0, within(hostStart, hostStart &+ hostCount, bytes.count) != nil, next >= -1, next < Int32(index),
                  hostEntryCount >= 0, urlEntryCount >= 0, prefixedCount >= 0 else { return nil }
            nodes.append(Node(hostStart: hostStart, hostCount: hostCount, next: next, entriesStart: entriesStart, hostEntryCount: hostEntryCount,
                              urlEntryCount: urlEntryCount, prefixedCount: prefixedCount))
        }
        guard let nodeEntries = reader.i32s(), nodeEntries.allSatisfy({ $0 >= 0 && $0 < Int32(entryCount) }),
              nodes.allSatisfy({ within($0.entriesStart, $0.entriesStart &+ $0.hostEntryCount &+ $0.urlEntryCount, nodeEntries.count) != nil })
        else { return nil }
        var tables: [HashSlots] = []
        for limit in [nodeCount, entryCount, entryCount] {
            guard let isEmpty = reader.u8(), let count = reader.count(stride: 8) else { return nil }
            var slots: [HashSlots.Slot] = []
            slots.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = reader.u32(), let value = reader.i32(), value >= -1, value < Int32(limit) else { return nil }
                slots.append(HashSlots.Slot(key: key, value: value))
            }
            guard isEmpty <= 1, let table = HashSlots(slots: slots, isEmpty: isEmpty == 1) else { return nil }
            tables.append(table)
        }
        guard let labelNext = reader.i32s(), let prefixNext = reader.i32s(), let entryNode = reader.i32s(),
              labelNext.count == entryCount, prefixNext.count == entryCount, entryNode.count == entryCount,
              labelNext.indices.allSatisfy({ labelNext[$0] >= -1 && labelNext[$0] < Int32($0) }),
              prefixNext.indices.allSatisfy({ prefixNext[$0] == -1 || (prefixNext[$0] > Int32($0) && prefixNext[$0] < Int32(entryCount)) }),
              entryNode.allSatisfy({ $0 >= -1 && $0 < Int32(nodeCount) }) else { return nil }
        return BlockIndex(entries: entries, bytes: bytes, targets: targets, nodes: nodes, nodeEntries: nodeEntries, byHost: tables[0],
                          byLabel: tables[1], labelNext: labelNext, byPrefix: tables[2], prefixNext: prefixNext, entryNode: entryNode)
    }
}
