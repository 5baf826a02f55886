import Foundation
import WebCMPBridge

/// The result of checking a CMP page against the bridge (`webcmp-host check`): named rows, each passed, failed or
/// not checked, computed from the bridge's typed events and the store (``ConformanceReport/Row`` has one constructor
/// per rule). A tool drives the page; the report decides. Package-only: the tools share it, apps never see it.
package struct ConformanceReport: Sendable, Hashable {
    /// A row's outcome.
    package enum Verdict: Sendable, Hashable {
        case pass, fail, notChecked

        /// `true` passes, `false` fails, `nil` is not checked (informational rows).
        package init(_ passed: Bool?) {
            switch passed {
            case true?: self = .pass
            case false?: self = .fail
            case nil: self = .notChecked
            }
        }

        /// The four-character mark of the text report.
        package var mark: String {
            switch self {
            case .pass: return "PASS"
            case .fail: return "FAIL"
            case .notChecked: return "----"
            }
        }
    }

    /// One checked property of the page.
    package struct Row: Sendable, Hashable {
        /// What is checked.
        package var name: String
        /// The outcome.
        package var verdict: Verdict
        /// What was seen.
        package var detail: String

        /// A row; `passed` as in ``Verdict/init(_:)``.
        package init(_ name: String, _ passed: Bool?, _ detail: String) {
            self.name = name
            verdict = Verdict(passed)
            self.detail = detail
        }
    }

    /// The rows, in the order a reader sees them.
    package var rows: [Row]

    /// A report of `rows`.
    package init(rows: [Row] = []) {
        self.rows = rows
    }

    /// Whether the page conforms: no row failed (rows not checked do not count against it).
    package var conforms: Bool { !rows.contains { $0.verdict == .fail } }

    /// The rows as text lines: the mark, the name padded to the longest name, the detail.
    package var lines: [String] {
        let width = rows.map(\.name.count).max() ?? 0
        return rows.map { row in
            "  \(row.verdict.mark)  \(row.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.detail)"
        }
    }
}
