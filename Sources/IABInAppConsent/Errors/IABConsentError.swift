/// The one error this module's public API throws: a stable ``code`` to switch on, the precise error underneath and a
/// one-line ``description``.
///
/// A TC string that cannot be decoded, a bad GPP, Additional Consent or US Privacy string, consent the transaction
/// refuses and a write the store refuses all arrive as an `IABConsentError`; nothing was written when one is thrown.
/// Handle it by ``code``; ``underlying`` keeps the module's precise error (the decoder's offset, the offending key …)
/// for logs and debugging, and ``description`` names it in one line:
///
/// ```swift
/// func decodeStoredString(_ raw: String) -> TCString? {
///     do {
///         return try TCString(decoding: raw)
///     } catch {
///         switch error.code {
///         case .invalidTCString: print("Not a TC string: \(error)")
///         default: print("Unexpected \(error.code): \(error)")
///         }
///         return nil
///     }
/// }
/// ```
///
/// (The same sample, compiled, is in the WebCMPBridge documentation's "Handling errors" article.)
public struct IABConsentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, stable across releases (its ``rawValue`` may appear in logs; it is encoded as that one
    /// string). An open set, like the bridge's `ConsentBridgeError` codes: a minor release may add a code, so a `switch` over
    /// codes needs a `default` (the WebCMPBridge documentation's "Handling errors" article says why).
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The code's stable name.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's stable name.
        public var description: String { rawValue }

        /// The TC string cannot be decoded (or, when rejecting, the stored one cannot be re-encoded).
        public static let invalidTCString = Code(rawValue: "invalidTCString")
        /// The GPP string, one of its sections (the TCF EU section, a US section) or an applicable section id is
        /// invalid.
        public static let invalidGPPString = Code(rawValue: "invalidGPPString")
        /// The Google Additional Consent string is invalid.
        public static let invalidAdditionalConsent = Code(rawValue: "invalidAdditionalConsent")
        /// The US Privacy string is invalid.
        public static let invalidUSPrivacy = Code(rawValue: "invalidUSPrivacy")
        /// The CMP SDK id or version is outside the range the in-app keys can hold.
        public static let invalidCMPIdentity = Code(rawValue: "invalidCMPIdentity")
        /// There is no TC, GPP or US Privacy string at all.
        public static let noConsent = Code(rawValue: "noConsent")
        /// The TC string has `IsServiceSpecific = 0`, which the TCF declares invalid.
        public static let notServiceSpecific = Code(rawValue: "notServiceSpecific")
        /// The TC string has no DisclosedVendors segment, which TCF 2.3 requires, and the rules refuse it
        /// (``MissingDisclosedVendorsPolicy/refuse``).
        public static let missingDisclosedVendors = Code(rawValue: "missingDisclosedVendors")
        /// Nothing to reject from: no TC string is stored.
        public static let noStoredTCString = Code(rawValue: "noStoredTCString")
        /// The store refused the values (a foreign key, a wrong type or value, more than its size limit, a record that
        /// cannot be encoded).
        public static let storeRefused = Code(rawValue: "storeRefused")
        /// The `UserDefaults` suite cannot be opened.
        public static let storageUnavailable = Code(rawValue: "storageUnavailable")
    }

    /// What went wrong.
    public let code: Code
    /// The module's precise error (for example the TC string decoder's error with its offset), for logs, tests and
    /// debugging. Its type is not public API; use ``code`` to decide.
    public let underlying: any Error & Sendable
    /// One line naming the problem; text that came from a page is quoted safely (control, format and line separator
    /// characters as `\u{XXXX}`, cut after 1,000 characters).
    public let description: String

    /// An error with `code`, the precise `underlying` error and its `description` (sanitized here).
    package init(_ code: Code, underlying: any Error & Sendable, description: String) {
        self.code = code
        self.underlying = underlying
        self.description = LogText.sanitized(description)
    }

    /// Equal when code and description are.
    public static func == (lhs: IABConsentError, rhs: IABConsentError) -> Bool {
        lhs.code == rhs.code && lhs.description == rhs.description
    }

    /// Hashes code and description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(description)
    }
}
