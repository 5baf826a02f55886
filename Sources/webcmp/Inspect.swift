import Foundation
import WebCMPBridge
import WebCMPToolSupport

/// `webcmp inspect`: the decoded fields and the exact in-app keys for the given consent strings, computed by the same
/// ``ConsentCommit`` as the bridge, so that it prints exactly what the bridge would store and refuses what the bridge
/// refuses (bad input: exit 2; a refusal names the ``ConsentBridgeError/Code`` the bridge would report, e.g.
/// `webcmp: refused (invalidTCString), as the bridge would refuse it: The TC string is invalid: …`). The commit's diagnostics (e.g. a TC string without the DisclosedVendors segment that
/// TCF 2.3 requires) are warnings on stderr, one line each (`webcmp: warning: …`), and do not change the exit status;
/// `--missing-disclosed-vendors refuse` refuses such a string as a bridge configured that way would (exit 2).
enum Inspect {
    /// What the command line says.
    struct Input {
        var strings: ConsentStrings
        var gdprApplies: Bool?
        var rules: ConsentCommit.Rules
    }

    static func run(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            let parsed = try CommandLineArguments(
                arguments,
                valueOptions: [
                    "--gdpr-applies", "--cmp-sdk-id", "--cmp-sdk-version", "--ac", "--gpp", "--gpp-sid", "--usp",
                    "--missing-disclosed-vendors",
                ],
                flagOptions: ["--json", "--help"], help: WebCMPCommand.help)
            if parsed.has("--help") {
                print(WebCMPCommand.usage, terminator: "")
                return 0
            }
            let input = try input(from: parsed)
            let commit: ConsentCommit
            do {
                commit = try ConsentCommit(
                    strings: input.strings, gdprApplies: input.gdprApplies, previous: nil, rules: input.rules,
                    now: Date())
            } catch {
                let code = IABConsentError(error).code.rawValue
                throw UsageError("refused (\(code)), as the bridge would refuse it: \(error)")
            }
            if parsed.has("--json") {
                print(try json(commit.keys.keySet))
            } else {
                print(readable(commit), terminator: "")
            }
            for diagnostic in commit.diagnostics { WebCMPCommand.printError("warning: " + diagnostic) }
            return 0
        } catch {
            WebCMPCommand.printError(error.message)
            return 2
        }
    }

    static func input(from parsed: CommandLineArguments) throws(UsageError) -> Input {
        guard parsed.positional.count <= 1 else {
            throw UsageError("expected one TC string, got \(parsed.positional.count) arguments")
        }
        var input = Input(
            strings: ConsentStrings(
                tcString: parsed.positional.first, additionalConsent: parsed["--ac"],
                gppString: parsed["--gpp"], usPrivacy: parsed["--usp"]),
            gdprApplies: nil,
            // Without --gdpr-applies, IABTCF_gdprApplies stays unset ("undetermined").
            rules: ConsentCommit.Rules(
                cmpSDKID: try parsed.integer("--cmp-sdk-id"), cmpSDKVersion: try parsed.integer("--cmp-sdk-version"),
                gdprApplies: nil))
        if let policy = parsed["--missing-disclosed-vendors"] {
            guard let parsedPolicy = MissingDisclosedVendorsPolicy(rawValue: policy) else {
                throw UsageError(
                    "option --missing-disclosed-vendors needs warn or refuse, not \(WebCMPCommand.describe(policy))")
            }
            input.rules.missingDisclosedVendors = parsedPolicy
        }
        switch parsed["--gdpr-applies"] {
        case nil: break
        case "1": input.gdprApplies = true
        case "0": input.gdprApplies = false
        case let other?:
            throw UsageError("option --gdpr-applies needs 0 or 1, not \(WebCMPCommand.describe(other))")
        }
        if let sid = parsed["--gpp-sid"] {
            var ids: [Int] = []
            for part in sid.split(separator: "_", omittingEmptySubsequences: false) {
                guard let id = Int(part) else {
                    throw UsageError("option --gpp-sid needs ids joined by _, not \(WebCMPCommand.describe(sid))")
                }
                ids.append(id)
            }
            input.strings.gppApplicableSections = ids
        }
        guard !input.strings.isEmpty else {
            throw UsageError("no TC string given (and no --gpp or --usp); see webcmp inspect --help")
        }
        return input
    }

    /// The key set as one JSON object, members in byte order of the key names: the `--json` contract.
    ///
    /// The members are the core's one JSON form of the keys (`IABKeySet.json`). The object is assembled here (rather
    /// than with `.sortedKeys`) so that the order is the same on every platform; every key and value is still produced
    /// by `JSONEncoder`.
    static func json(_ keys: IABKeySet) throws(UsageError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let object = keys.json.objectValue ?? [:]
        var members: [String] = []
        members.reserveCapacity(object.count)
        do {
            for (name, value) in object.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
                members.append(String(decoding: try encoder.encode(name), as: UTF8.self) + ":" + encoded)
            }
        } catch {
            throw UsageError("cannot encode the keys as JSON: \(error)")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Human-readable output: decoded fields, then the keys.
    static func readable(_ commit: ConsentCommit) -> String {
        let keys = commit.keys
        var out = ""
        if let model = commit.summary.decoded { out += describeTCString(model) }
        out += describeOtherInputs(commit.record)
        out += "\nUserDefaults keys (\(keys.count)):\n"
        for (key, value) in keys.sorted(by: { $0.key < $1.key }) {
            let text: String
            switch value {
            case .int(let number): text = String(number) + " (Number)"
            case .string(let string) where string.count > 80:
                text = WebCMPCommand.describe(string, limit: 72) + " (String, \(string.count) characters)"
            case .string(let string): text = WebCMPCommand.describe(string, limit: 80) + " (String)"
            }
            out += "  \(key.rawValue) = \(text)\n"
        }
        return out
    }

    static func describeTCString(_ tc: TCString) -> String {
        let date = ISO8601DateFormatter()
        var out = "TC string (TCF v\(tc.version), policy version \(tc.policyVersion))\n"
        out += "  CMP \(tc.cmpID) version \(tc.cmpVersion), consent screen \(tc.consentScreen), "
        out += "language \(tc.consentLanguage), vendor list version \(tc.vendorListVersion)\n"
        out += "  created \(date.string(from: tc.created)), last updated \(date.string(from: tc.lastUpdated))\n"
        out += "  service specific \(yesNo(tc.isServiceSpecific)), non-standard texts \(yesNo(tc.useNonStandardTexts)), "
        out += "purpose one treatment \(yesNo(tc.purposeOneTreatment)), publisher country \(tc.publisherCountryCode)\n"
        out += "  special feature opt-ins: \(ranges(tc.specialFeatureOptIns))\n"
        out += "  purpose consents: \(ranges(tc.purposeConsents))\n"
        out += "  purpose legitimate interests: \(ranges(tc.purposeLegitimateInterests))\n"
        out += "  vendor consents (\(tc.vendorConsents.count)): \(ranges(tc.vendorConsents))\n"
        out += "  vendor legitimate interests (\(tc.vendorLegitimateInterests.count)): "
        out += "\(ranges(tc.vendorLegitimateInterests))\n"
        if tc.publisherRestrictions.isEmpty {
            out += "  publisher restrictions: none\n"
        }
        for restriction in tc.publisherRestrictions {
            out += "  publisher restriction: purpose \(restriction.purposeID), "
            out += "type \(restriction.restrictionType.rawValue) (\(restriction.restrictionType)), "
            out += "vendors \(ranges(restriction.vendors))\n"
        }
        out += "  disclosed vendors: \(tc.disclosedVendors.map { "(\($0.count)) " + ranges($0) } ?? "segment absent")\n"
        if let allowed = tc.allowedVendors {
            out += "  allowed vendors (\(allowed.count)): \(ranges(allowed))\n"
        }
        if let publisher = tc.publisherTC {
            out += "  publisher purpose consents: \(ranges(publisher.purposeConsents)), "
            out += "legitimate interests: \(ranges(publisher.purposeLegitimateInterests))\n"
            out += "  publisher custom purposes: \(publisher.numberOfCustomPurposes), "
            out += "consents: \(ranges(publisher.customPurposeConsents)), "
            out += "legitimate interests: \(ranges(publisher.customPurposeLegitimateInterests))\n"
        } else {
            out += "  publisher TC: segment absent\n"
        }
        return out
    }

    static func describeOtherInputs(_ consent: ConsentRecord) -> String {
        var out = ""
        if let gdprApplies = consent.gdprApplies { out += "gdprApplies: \(gdprApplies ? 1 : 0)\n" }
        if let raw = consent.additionalConsent, let ac = try? AdditionalConsent(parsing: raw) {
            out += "Additional Consent v\(ac.version): consented providers (\(ac.consentedProviders.count)) "
            out += "\(ranges(IDSet(ac.consentedProviders)))"
            if ac.version >= 2 {
                out += ", disclosed only (\(ac.disclosedProviders.count)) \(ranges(IDSet(ac.disclosedProviders)))"
            }
            out += "\n"
        }
        if let raw = consent.gppString, let gpp = try? GPPString(parsing: raw) {
            out += "GPP v\(gpp.version): sections \(gpp.sectionIDs.map(String.init).joined(separator: ", "))\n"
            for section in gpp.sections {
                out += "  section \(section.id): \(WebCMPCommand.describe(section.string, limit: 72))\n"
            }
        }
        if let usp = consent.usPrivacy { out += "US Privacy: \(usp)\n" }
        return out
    }

    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// Ids as compact ranges: `1-4, 100, 404`; `none` when empty.
    static func ranges(_ ids: IDSet) -> String {
        let parts = ids.runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
