import Foundation

/// Where and how the stored consent is seeded into the first-party storage of content pages, so that a page's own
/// CMP finds it when it starts (see ``ConsentSharing/userScripts(record:keys:configuration:)``).
///
/// Seeding happens only in main-frame documents whose origin is one of ``contentOrigins``: never in other sites and
/// never in frames (ad tags, embeds). Origins are compared normalised (lower-case scheme and host, default port
/// dropped); entries of ``contentOrigins`` that are not origins (`https://news.example/path`, `news.example`) are
/// ignored.
///
/// Bound by the kit's promises over a session: <doc:SessionPromises> (promise 7).
public struct SharingConfiguration: Sendable, Hashable {
    /// The origins of the app's own content pages (`https://www.example.com`), normalised.
    public private(set) var contentOrigins: Set<String>
    /// What to write, in order; a name written twice keeps the last value.
    public var entries: [SharingEntry]
    /// Whether content web views send Global Privacy Control (`navigator.globalPrivacyControl` in every frame,
    /// `Sec-GPC: 1` on the document requests): ``GlobalPrivacyControl/automatic`` (the default) when the stored
    /// consent says the user opted out of sale or sharing; ``GlobalPrivacyControl/always`` or
    /// ``GlobalPrivacyControl/never`` to override.
    public var globalPrivacyControl: GlobalPrivacyControl = .automatic

    /// A configuration for `contentOrigins` (origin strings such as `https://www.example.com`) writing `entries`;
    /// the default is the `euconsent-v2` preset (`[SharingEntry].euconsentV2`).
    public init(contentOrigins: [String], entries: [SharingEntry] = .euconsentV2) {
        self.contentOrigins = Set(contentOrigins.compactMap(SecurityOrigin.normalize))
        self.entries = entries
    }

    /// A configuration for `contentOrigins` writing the entries of `presets` (`[SharingEntry].euconsentV2`,
    /// `.didomi`, `.oneTrust` or entry lists of your own), in order.
    public init(contentOrigins: [String], presets: [[SharingEntry]]) {
        self.init(contentOrigins: contentOrigins, entries: presets.flatMap { $0 })
    }

    /// Whether a document of `origin` gets the consent written (`origin` as a page reports `location.origin`).
    public func allows(origin: String) -> Bool {
        guard let normalized = SecurityOrigin.normalize(origin), normalized != "file://" else { return false }
        return contentOrigins.contains(normalized)
    }

    /// Adds `origin` (normalised) to ``contentOrigins``; returns `false` when it is not an origin.
    @discardableResult
    public mutating func addContentOrigin(_ origin: String) -> Bool {
        guard let normalized = SecurityOrigin.normalize(origin) else { return false }
        contentOrigins.insert(normalized)
        return true
    }
}

/// One first-party entry a page's CMP reads its stored consent from.
public struct SharingEntry: Sendable, Hashable {
    /// Which stored value the entry holds. Values are written verbatim, exactly as the CMP page produced them.
    public enum Value: String, Sendable, Hashable, CaseIterable {
        /// The TC string.
        case tcString
        /// The Google Additional Consent string.
        case additionalConsent
        /// The GPP string.
        case gppString
        /// The GPP section ids in force, joined by `_` (the form of `IABGPP_GppSID`).
        case gppSectionIDs
        /// The US Privacy string.
        case usPrivacy
    }

    /// Where the entry is written.
    public enum Storage: String, Sendable, Hashable, CaseIterable {
        /// A first-party cookie for the page's host (`path=/`, `SameSite=Lax`, `Secure` on https), written by the
        /// seeding script and, on Apple platforms, also set through the cookie store before the page loads.
        case cookie
        /// `window.localStorage` of the page's origin, written by the seeding script.
        case localStorage
    }

    /// The cookie or local storage key, e.g. `euconsent-v2`.
    public var name: String
    /// The stored value written under ``name``.
    public var value: Value
    /// Where it is written.
    public var storage: Set<Storage>
    /// The cookie's lifetime in seconds (cookies only).
    public var cookieMaxAge: Int
    /// Whether the cookie is `HttpOnly` (read by the site's server, not by page scripts). Such a cookie cannot be
    /// written from a script: it is only set through the platform cookie store before loading
    /// (``ConsentSharing/cookies(record:configuration:)``).
    public var httpOnly: Bool

    /// The default cookie lifetime: 390 days (13 months, the longest a consent record is usually kept).
    public static let defaultCookieMaxAge = 390 * 24 * 60 * 60

    /// An entry.
    public init(
        name: String, value: Value, storage: Set<Storage>, cookieMaxAge: Int = SharingEntry.defaultCookieMaxAge,
        httpOnly: Bool = false
    ) {
        self.name = name
        self.value = value
        self.storage = storage
        self.cookieMaxAge = cookieMaxAge
        self.httpOnly = httpOnly
    }
}
