import Foundation

/// Why ``ConsentStore/rejectAll(now:)`` changed nothing.
package enum ProgrammaticConsentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No TC string is stored: there is nothing to reject from (show the CMP instead).
    case noStoredTCString
    /// The stored TC string could not be re-encoded.
    case encoding(TCStringError)
    /// The transaction refused the result.
    case commit(ConsentCommitError)
    /// Storage failed; nothing was written.
    case storage(ConsentStoreError)

    public var description: String {
        switch self {
        case .noStoredTCString: return "no TC string is stored"
        case .encoding(let error): return "the rejected TC string cannot be encoded: \(error)"
        case .commit(let error): return String(describing: error)
        case .storage(let error): return String(describing: error)
        }
    }
}

extension ConsentStore {
    /// Rejects everything without showing the CMP: from the stored TC string, stores a new one with every purpose,
    /// special feature, vendor and publisher consent and legitimate interest cleared,
    /// through the same transaction as a save (keys and record, ``ConsentProvenance/Source/app``, ``ConsentProvenance/Action/rejectAll``). The next time the CMP
    /// page opens it is given that string.
    ///
    /// Besides the TC string:
    /// - the Additional Consent string (v2) keeps its providers as disclosed, none consented (`2~~dv.…`); a v1 string
    ///   is dropped (it cannot say "disclosed, not consented");
    /// - a US Privacy string gets "opted out of sale" (`1YYN` from `1YNN`; `-` fields stay);
    /// - a GPP string is **dropped** (with its `IABGPP_*` keys): the kit has no GPP encoder, so it cannot write opt-outs
    ///   into US sections; US SDKs then see no GPP signal rather than a stale opt-in;
    /// - the CMP's non-TCF data is dropped: its format is the CMP's own.
    ///
    /// It cannot change what the CMP keeps elsewhere: a CMP's server-side consent log or its cookie on the website
    /// still hold the previous choice until the page is opened again (and is given the rejected string).
    ///
    /// - Returns: the summary of the stored consent.
    /// - Throws: ``IABConsentError`` (``IABConsentError/Code/noStoredTCString`` when there is nothing to reject);
    ///   nothing was written.
    @discardableResult
    public func rejectAll(now: Date = Date()) throws(IABConsentError) -> ConsentSummary {
        do { return try reject(now: now, cause: .rejectAll) } catch { throw IABConsentError(error) }
    }

    /// Withdraws every consent and objects to every legitimate interest: in the TCF exactly ``rejectAll(now:)``
    /// (a withdrawal must be as easy as giving consent; this is the "withdraw" button of an app's privacy menu); the
    /// consent history and the record say ``ConsentProvenance/Action/withdrawal``.
    @discardableResult
    public func withdrawConsent(now: Date = Date()) throws(IABConsentError) -> ConsentSummary {
        do { return try reject(now: now, cause: .withdrawal) } catch { throw IABConsentError(error) }
    }

    /// ``rejectAll(now:)``, recorded in the history as `cause`, with the precise error.
    package func reject(now: Date, cause: ConsentProvenance.Action) throws(ProgrammaticConsentError) -> ConsentSummary {
        guard let previous = record(), let raw = previous.tcString, let decoded = try? TCString(decoding: raw) else {
            throw .noStoredTCString
        }
        let rejected: String
        do {
            rejected = try decoded.rejectingAll(at: now).encoded()
        } catch {
            throw .encoding(error)
        }
        var strings = ConsentStrings(tcString: rejected)
        if let ac = previous.additionalConsent, let parsed = try? AdditionalConsent(parsing: ac), parsed.version == 2 {
            let providers = Set(parsed.consentedProviders + parsed.disclosedProviders).sorted()
            strings.additionalConsent = "2~~dv." + providers.map(String.init).joined(separator: ".")
        }
        strings.usPrivacy = previous.usPrivacy.map(Self.optedOutOfSale)
        // The CMP SDK that wrote the consent stays the one named (as the configured id and version).
        let identity = iabKeys().cmpIdentity
        let commit: ConsentCommit
        do {
            commit = try ConsentCommit(
                strings: strings, gdprApplies: previous.gdprApplies, action: cause, previous: previous,
                rules: ConsentCommit.Rules(
                    cmpSDKID: identity.id, cmpSDKVersion: identity.version, gdprApplies: previous.gdprApplies,
                    configVersion: previous.configVersion, keepsPreviousNonTCFData: false, source: .app),
                now: now)
        } catch {
            throw .commit(error)
        }
        do {
            try apply(commit.keys, record: commit.record, provenance: ConsentProvenance(.app, cause), now: now)
        } catch {
            throw .storage(error)
        }
        return commit.summary
    }

    /// A US Privacy v1 string with the opt-out-of-sale field set to `Y` (unless it is `-`, not applicable).
    static func optedOutOfSale(_ usp: String) -> String {
        var characters = Array(usp)
        guard characters.count == 4, characters[0] == "1", characters[2] == "N" else { return usp }
        characters[2] = "Y"
        return String(characters)
    }
}
