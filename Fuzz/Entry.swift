// libFuzzer entry point for every WebCMPBridge fuzz target.
//
// `scripts/fuzz` compiles this folder together with the sources of the WebCMPBridge core into one binary
// (`-sanitize=fuzzer,address`) and selects the target with the environment variable WEBCMP_FUZZ_TARGET.
// Each target checks its invariants with `fuzzCheck`, which traps, so that libFuzzer records a crash.
import Foundation

/// The fuzz targets by name.
nonisolated(unsafe) let fuzzTargets: [String: (UnsafeRawBufferPointer) -> Void] = [
    "tcstring": fuzzTCString,
    "ac": fuzzAdditionalConsent,
    "gpp": fuzzGPP,
    "message": fuzzMessage,
    "bridge": fuzzBridge,
    "bridge-async": fuzzBridgeAsync,
    "journey": fuzzJourney,
]

nonisolated(unsafe) let selectedTarget: (UnsafeRawBufferPointer) -> Void = {
    let name = ProcessInfo.processInfo.environment["WEBCMP_FUZZ_TARGET"] ?? ""
    guard let target = fuzzTargets[name] else {
        let names = fuzzTargets.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("set WEBCMP_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    // The core reads its .js resources through the Bundle.module stand-in that scripts/fuzz generates.
    let failures = CMPScripts.resourceFailures
    fuzzCheck(failures.isEmpty, "script resources: \(failures)")
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    selectedTarget(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}

/// Traps with `message` when `condition` is false: an invariant violation is a crash for libFuzzer.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("invariant violated: \(message())\n".utf8))
        abort()
    }
}

/// The input as a string when it is valid UTF-8.
func fuzzString(_ bytes: UnsafeRawBufferPointer) -> String? {
    String(validating: bytes, as: UTF8.self)
}
