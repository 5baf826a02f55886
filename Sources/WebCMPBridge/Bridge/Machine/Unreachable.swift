/// Marks a branch the machine's callers rule out ("cannot happen"): a debug build stops there with `message`, so that
/// a broken invariant is found by the table tests instead of passing silently; a release build (the apps', the fuzz
/// targets') goes on, and the caller ignores the input. swift-nio's state machines mark such branches the same way.
/// Where a guard is a real decision to ignore an input (a late, stray or repeated one), it says so in a comment
/// instead.
func unreachable(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    assertionFailure(message(), file: file, line: line)
}
