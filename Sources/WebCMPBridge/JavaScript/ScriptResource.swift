import Foundation

/// A JavaScript file shipped as a resource of this target (`JavaScript/Resources/*.js`, declared one by one in
/// Package.swift and read through `Bundle.module`).
///
/// Each file is one self-contained function expression of one argument, `(function (config) { … })`. The final
/// source is always `<file text>(<JSON literal>);`, the literal written by ``JavaScriptLiteral``; nothing is ever
/// interpolated into the file text.
///
/// ## A missing resource
/// A file that is missing from the bundle, unreadable, not UTF-8, or not shaped like a function expression does
/// **not** crash the app and does not make the script builders throw. The builders keep their non-throwing
/// signatures (``CMPScripts/tcfForwarder``, ``ConsentSharing/userScript(record:keys:)``, … are called from places
/// that have no error path, and a consent bridge that cannot forward events is better than an app that cannot
/// start): they return ``inertSource``, a constant comment that does nothing, and the failure is reported in
/// ``CMPScripts/resourceFailures`` (empty in a correctly packaged app; check it once at startup or in a test).
/// Without the forwarder the TCF dialect sees no events, so the bridge's own timeouts apply; without the sharing
/// script content pages show their own banner. Both degrade the same way as a page whose script failed to run.
///
/// The one case this cannot cover is a missing *resource bundle*: SwiftPM's (and Xcode's) generated `Bundle.module`
/// accessor stops the process with `fatalError` when the whole `WebCMPBridge_WebCMPBridge` bundle is absent: an app
/// without it is misbuilt (the scripts are the bundle's only contents; the privacy manifest is in
/// `IABInAppConsent`'s bundle, beside the store that uses `UserDefaults`).
enum ScriptResource: String, CaseIterable, Sendable {
    case tcfForwarder = "tcf-forwarder"
    case consentSharing = "consent-sharing"
    case consentSeeding = "consent-seeding"
    case openSettings = "open-settings"
    case appContext = "app-context"
    case globalPrivacyControl = "global-privacy-control"

    /// The file name in the resource bundle.
    var fileName: String { rawValue + ".js" }

    /// What stands in for a script whose file could not be loaded: a comment, so it does nothing wherever it runs.
    static let inertSource = "/* webcmpbridge: script resource unavailable, see CMPScripts.resourceFailures */"

    /// Every file, read once per process.
    private static let loaded: [ScriptResource: Result<String, ScriptResourceError>] = {
        var loaded: [ScriptResource: Result<String, ScriptResourceError>] = [:]
        for resource in allCases {
            do throws(ScriptResourceError) {
                loaded[resource] = .success(try resource.read(from: .module))
            } catch {
                loaded[resource] = .failure(error)
            }
        }
        return loaded
    }()

    /// The file text (without surrounding whitespace), or why it is unavailable.
    func text() throws(ScriptResourceError) -> String {
        guard let result = Self.loaded[self] else { throw ScriptResourceError(fileName: fileName, reason: .missing) }
        return try result.get()
    }

    /// `<file text>(<config as a JSON literal>);`, or ``inertSource`` when the file is unavailable.
    func source(config: JSONValue) -> String {
        guard let text = try? text() else { return Self.inertSource }
        return text + "(" + JavaScriptLiteral.expression(config) + ");"
    }

    /// Reads and checks the file in `bundle`.
    func read(from bundle: Bundle) throws(ScriptResourceError) -> String {
        guard let url = bundle.url(forResource: rawValue, withExtension: "js") else {
            throw ScriptResourceError(fileName: fileName, reason: .missing)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ScriptResourceError(fileName: fileName, reason: .unreadable) }
        return try Self.validated(data, fileName: fileName)
    }

    /// The text of `data` when it is UTF-8 whose last expression can be called: after any leading `//` comment lines
    /// it starts with `(function` and it ends with `)`, so that `text(<literal>);` calls the function.
    static func validated(_ data: Data, fileName: String) throws(ScriptResourceError) -> String {
        guard var text = String(data: data, encoding: .utf8) else {
            throw ScriptResourceError(fileName: fileName, reason: .notUTF8)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop(while: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") || $0.allSatisfy(\.isWhitespace) })
        guard let first = code.first, first.hasPrefix("(function"), text.hasSuffix(")") else {
            throw ScriptResourceError(fileName: fileName, reason: .notAFunctionExpression)
        }
        return text
    }
}

/// Why a script resource of this package could not be used (see ``CMPScripts/resourceFailures``).
package struct ScriptResourceError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// The file is not in the `WebCMPBridge` resource bundle.
        case missing
        /// The file exists but could not be read.
        case unreadable
        /// The file is not UTF-8.
        case notUTF8
        /// The file is not one function expression (`(function (config) { … })`).
        case notAFunctionExpression
    }

    /// The file, e.g. `tcf-forwarder.js`.
    package var fileName: String
    package var reason: Reason

    package var description: String { "WebCMPBridge script resource " + fileName + ": " + String(describing: reason) }
}

extension CMPScripts {
    /// The script resources that could not be loaded, with the reason; empty in a correctly packaged app. The scripts
    /// built from such a resource do nothing (see ``ScriptResourceError``); nothing crashes.
    package static var resourceFailures: [ScriptResourceError] {
        ScriptResource.allCases.compactMap { resource -> ScriptResourceError? in
            do throws(ScriptResourceError) { _ = try resource.text(); return nil } catch { return error }
        }
    }
}
