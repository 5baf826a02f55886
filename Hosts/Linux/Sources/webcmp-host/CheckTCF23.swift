import Foundation
import WebCMPBridge

/// `check` row "TCF 2.3: disclosed vendors present": the page's saved TC string carries the DisclosedVendors segment
/// that TCF 2.3 requires of every TC string created on or after 2026-02-28 (the core's rule,
/// `TCString.isMissingRequiredDisclosedVendors`; source and reading in `MissingDisclosedVendorsPolicy`).
/// FAIL when a string the rule applies to lacks it (the bridge stored it with a diagnostic); not checked without a
/// save or for a GPP-only save; not required for a string created before the cut-over.
func disclosedVendorsRow(saved: JSONValue?) -> (String, Bool?, String) {
    let name = "TCF 2.3: disclosed vendors present"
    guard let saved else { return (name, nil, "not checked (no save)") }
    guard let raw = saved["tcString"]?.stringValue else { return (name, nil, "not checked (no TC string saved)") }
    guard let decoded = try? TCString(decoding: raw) else { return (name, false, "the saved TC string does not decode") }
    let day = ISO8601DateFormatter()
    day.formatOptions = [.withFullDate]
    let created = day.string(from: decoded.created)
    let cutOver = day.string(from: TCString.disclosedVendorsRequiredSince)
    if let disclosed = decoded.disclosedVendors {
        return (name, true, "DisclosedVendors segment with \(disclosed.count) vendors (created \(created))")
    }
    if decoded.isMissingRequiredDisclosedVendors {
        return (name, false, "no DisclosedVendors segment in a string created \(created); TCF 2.3 requires it from \(cutOver)")
    }
    return (name, nil, "no DisclosedVendors segment; not required (created \(created), before \(cutOver))")
}
