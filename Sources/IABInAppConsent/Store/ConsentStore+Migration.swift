import Foundation

extension ConsentStore {
    /// The key that says migration was checked in this store (an integer 1). ``clearAll()`` keeps it: a store that
    /// was cleared (withdrawal, a QA reset) must not adopt a previous SDK's leftovers again.
    public static let migrationCheckedKey = "WebCMPBridge.migrationChecked.v1"

    /// Adopts the consent of a previous CMP SDK (``ConsentMigration``) when no record is stored and migration was not
    /// checked before; returns the adopted record, or `nil` when nothing was adopted. `defaultSources` are tried when
    /// the migration names none (the bridge passes its own).
    ///
    /// Cost when there is nothing to do: one key read when a record is stored, two when the check already ran.
    @discardableResult
    package func migrateIfNeeded(
        _ migration: ConsentMigration = .default, defaultSources: [ConsentMigration.Source] = [.iabKeys],
        now: Date = Date()
    ) -> ConsentRecord? {
        guard migration.isEnabled else { return nil }
        let own = storage.load([ConsentStore.recordKey, ConsentStore.migrationCheckedKey])
        guard own[ConsentStore.recordKey] == nil, own[ConsentStore.migrationCheckedKey] == nil else { return nil }
        var adopted: ConsentCommit?
        for source in migration.sources ?? defaultSources {
            if let commit = migrationCommit(from: source, now: now) {
                adopted = commit
                break
            }
        }
        do {
            if let adopted {
                try apply(
                    adopted.keys, record: adopted.record, provenance: ConsentProvenance(.previousSDK, .adopted), now: now)
            }
            try storage.write([ConsentStore.migrationCheckedKey: .int(1)], [])
        } catch {
            return nil
        }
        return adopted?.record
    }

    /// The transaction for what `source` left, or `nil` when it left no valid TC string.
    private func migrationCommit(from source: ConsentMigration.Source, now: Date) -> ConsentCommit? {
        var strings = ConsentStrings()
        var gdprApplies: Bool? = true
        var nonTCFData: JSONValue?
        switch source.keys {
        case .iab:
            let names = [IABKey.tcString, .additionalConsent, .gdprApplies, .gppString, .gppSID, .usPrivacyString]
                .map(\.rawValue)
            let values = storage.load(names)
            func string(_ key: IABKey) -> String? {
                if case .string(let value)? = values[key.rawValue] { return value }
                return nil
            }
            strings.tcString = string(.tcString)
            strings.additionalConsent = string(.additionalConsent)
            strings.gppString = string(.gppString)
            strings.usPrivacy = string(.usPrivacyString)
            if let sid = string(.gppSID) {
                let ids = sid.split(separator: "_").compactMap { Int($0) }
                strings.gppApplicableSections = ids.isEmpty ? nil : ids
            }
            if case .int(let flag)? = values[IABKey.gdprApplies.rawValue] { gdprApplies = flag == 1 }
        case .own(let tcStringKey, let nonTCFDataKey, let additionalConsentKey):
            let values = storage.load([tcStringKey, nonTCFDataKey, additionalConsentKey])
            if case .string(let value)? = values[tcStringKey] { strings.tcString = value }
            if case .string(let value)? = values[additionalConsentKey] { strings.additionalConsent = value }
            if case .string(let json)? = values[nonTCFDataKey] {
                nonTCFData = StoredConsentRecord.parseNonTCFData(json)
            }
        }
        // Only a TC string makes consent worth adopting; the transaction decodes and validates it.
        guard let tcString = strings.tcString else { return nil }
        if let commit = Self.commit(strings, gdprApplies: gdprApplies, nonTCFData: nonTCFData, now: now) {
            return Self.dated(commit)
        }
        // A GPP, US Privacy or Additional Consent string the mapping refuses must not cost the user a valid TC string.
        let tcOnly = ConsentStrings(tcString: tcString)
        return Self.commit(tcOnly, gdprApplies: gdprApplies, nonTCFData: nonTCFData, now: now).map(Self.dated)
    }

    private static func commit(
        _ strings: ConsentStrings, gdprApplies: Bool?, nonTCFData: JSONValue?, now: Date
    ) -> ConsentCommit? {
        try? ConsentCommit(
            payload: ConsentPayload(
                action: .adopted, strings: strings, gdprApplies: gdprApplies,
                extras: nonTCFData.map(MigratedNonTCFData.init)),
            previous: nil, rules: ConsentCommit.Rules(gdprApplies: gdprApplies, source: .previousSDK), now: now)
    }

    /// The commit with the date the user chose: the TC string's `LastUpdated` (so expiry counts from then), from the
    /// decoding the transaction made.
    private static func dated(_ commit: ConsentCommit) -> ConsentCommit {
        guard let decoded = commit.summary.decoded else { return commit }
        var commit = commit
        commit.summary.record.savedAt = decoded.lastUpdated
        return commit
    }
}

/// The non-TCF data a previous CMP SDK left (a source's own non-TCF data key), adopted with its consent.
private struct MigratedNonTCFData: ConsentExtras {
    /// The data, as JSON.
    var nonTCFData: JSONValue

    func complete(_ record: inout ConsentRecord) { record.nonTCFData = nonTCFData }
}
