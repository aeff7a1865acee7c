import Glibc

/// The process's heap.
public enum Memory {
    /// Gives the pages freed since the last call back to the system. glibc keeps freed memory
    /// for reuse; after a reload lets go of a large rule index that memory would stay in the
    /// daemon's resident size until the next reload reused it.
    public static func returnFreedPages() {
        _ = mallocTrim?(0)
    }

    /// Has every thread allocate from the one heap (glibc's `M_ARENA_MAX` 1). glibc gives each
    /// new thread a heap of its own; a daemon that reads each reload on a fresh thread then keeps
    /// the pieces of many heaps, and its size creeps up reload after reload. Its threads are few
    /// and short, so they lose nothing by sharing.
    public static func shareOneHeap() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-8, 1)  // M_ARENA_MAX
    }

    /// glibc's `malloc_trim`, which `<malloc.h>` declares and the Glibc module does not export.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
