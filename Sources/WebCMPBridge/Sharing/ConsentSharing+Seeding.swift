import Foundation

/// A first-party cookie carrying stored consent, for the platform cookie store (`WKHTTPCookieStore` on Apple
/// platforms, WebKitGTK's cookie manager on Linux), set before a content page loads so that even its first request
/// carries it.
public struct SharedCookie: Sendable, Hashable {
    /// The cookie name.
    public var name: String
    /// The cookie value (only RFC 6265 cookie octets: never quoted, never escaped).
    public var value: String
    /// The host the cookie belongs to (a host-only cookie: no leading dot).
    public var domain: String
    /// The content origin it was made for (`https://www.example.com`).
    public var origin: String
    /// Always `/`.
    public var path: String
    /// Lifetime in seconds.
    public var maxAge: Int
    /// `Secure`: set for https origins.
    public var isSecure: Bool
    /// `HttpOnly`.
    public var isHTTPOnly: Bool
    /// Always `Lax`.
    public var sameSite: String
}

extension ConsentSharing {
    /// The content web view's user scripts with seeding: the ``seedingScript(record:configuration:)`` first, then the
    /// ``userScript(record:keys:)``, both main frame only, then, when the configuration's
    /// ``SharingConfiguration/globalPrivacyControl`` is on for the stored consent, the
    /// ``globalPrivacyControlScript()`` for every frame. All run at document start, before the page's own scripts,
    /// so a page CMP finds the seeded entries when it starts.
    public static func userScripts(record: ConsentRecord?, keys: IABKeySet, configuration: SharingConfiguration)
        -> [UserScript]
    {
        [seedingScript(record: record, configuration: configuration), userScript(record: record, keys: keys)]
            + globalPrivacyControlScripts(record: record, keys: keys, setting: configuration.globalPrivacyControl)
    }

    /// The document-start script that writes the stored consent into the configured first-party entries
    /// (``SharingConfiguration/entries``), only in a main-frame document whose `location.origin` is one of
    /// ``SharingConfiguration/contentOrigins``. Platform adapters must inject it with `forMainFrameOnly: true`
    /// (the script checks both itself as well). Entries whose value is absent are left as the page has them;
    /// `HttpOnly` entries are not written by the script (see ``cookies(record:configuration:)``); a cookie whose name
    /// or value has characters outside RFC 6265's cookie octets is not written (no quoting or escaping that a CMP
    /// would have to undo). The script is the resource `consent-seeding.js` called with one JSON argument.
    public static func seedingScript(record: ConsentRecord?, configuration: SharingConfiguration) -> UserScript {
        UserScript(source: scriptMarker + "\n" + ScriptResource.consentSeeding.source(
                       config: seedingConfig(record: record, configuration: configuration)),
                   injectionTime: .documentStart, forMainFrameOnly: true)
    }

    /// The cookies of the configured cookie entries for every content origin, for the platform cookie store.
    /// Includes `HttpOnly` entries, which only this path can set.
    public static func cookies(record: ConsentRecord?, configuration: SharingConfiguration) -> [SharedCookie] {
        let writes = self.writes(record: record, configuration: configuration)
        return configuration.contentOrigins.sorted().flatMap { origin -> [SharedCookie] in
            guard let url = URL(string: origin), let host = url.host, !host.isEmpty else { return [] }
            return writes.filter(\.cookie).map { write in
                SharedCookie(
                    name: write.name, value: write.value, domain: host, origin: origin, path: "/",
                    maxAge: write.maxAge, isSecure: url.scheme == "https", isHTTPOnly: write.httpOnly, sameSite: "Lax")
            }
        }
    }

    /// One entry with its value.
    struct SeedWrite: Equatable {
        var name: String
        var value: String
        var cookie: Bool
        var localStorage: Bool
        var maxAge: Int
        var httpOnly: Bool
    }

    /// The entries that have a value in `record`, in order; cookie writes only for cookie-safe names and values.
    static func writes(record: ConsentRecord?, configuration: SharingConfiguration) -> [SeedWrite] {
        guard let record else { return [] }
        return configuration.entries.compactMap { entry -> SeedWrite? in
            guard let value = value(entry.value, in: record), !entry.name.isEmpty else { return nil }
            let cookie = entry.storage.contains(.cookie) && isCookieName(entry.name) && isCookieValue(value)
            let local = entry.storage.contains(.localStorage)
            guard cookie || local else { return nil }
            return SeedWrite(name: entry.name, value: value, cookie: cookie, localStorage: local,
                             maxAge: max(0, entry.cookieMaxAge), httpOnly: entry.httpOnly)
        }
    }

    /// `{origins, writes}`: the one JSON argument of `consent-seeding.js`.
    static func seedingConfig(record: ConsentRecord?, configuration: SharingConfiguration) -> JSONValue {
        let writes = self.writes(record: record, configuration: configuration).map { write -> JSONValue in
            .object([
                "name": .string(write.name), "value": .string(write.value),
                // An HttpOnly cookie cannot be written from a script; the cookie store sets it.
                "cookie": .bool(write.cookie && !write.httpOnly), "localStorage": .bool(write.localStorage),
                "maxAge": .number(Double(write.maxAge)),
            ])
        }
        return .object([
            "origins": .array(configuration.contentOrigins.sorted().map(JSONValue.string)),
            "writes": .array(writes),
        ])
    }

    static func value(_ value: SharingEntry.Value, in record: ConsentRecord) -> String? {
        switch value {
        case .tcString: return record.tcString
        case .additionalConsent: return record.additionalConsent
        case .gppString: return record.gppString
        case .usPrivacy: return record.usPrivacy
        case .gppSectionIDs:
            let ids = record.strings.gppApplicableSections
                ?? record.gppString.flatMap { try? GPPString(parsing: $0) }?.sectionIDs
            guard let ids, !ids.isEmpty else { return nil }
            return ids.map(String.init).joined(separator: "_")
        }
    }

    /// RFC 6265 `cookie-octet`: US-ASCII except controls, whitespace, `"`, `,`, `;` and `\`.
    static func isCookieValue(_ value: String) -> Bool {
        !value.isEmpty && value.unicodeScalars.allSatisfy { scalar in
            let v = scalar.value
            return v == 0x21 || (0x23...0x2B).contains(v) || (0x2D...0x3A).contains(v) || (0x3C...0x5B).contains(v)
                || (0x5D...0x7E).contains(v)
        }
    }

    /// RFC 6265 `cookie-name` (an RFC 2616 token): visible US-ASCII except separators.
    static func isCookieName(_ name: String) -> Bool {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".unicodeScalars)
        return !name.isEmpty && name.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) && !separators.contains($0) }
    }
}
