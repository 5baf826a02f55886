import Foundation

/// Guards against presenting the CMP twice at once (a common crash in incumbent SDKs: presenting on a controller that
/// is already presenting). `WebCMPBridgeUI` holds one per process; only the presentation that began it ends it.
///
/// The gate is never stuck: a presentation that UIKit refused (the presenter not in a window, a transition under
/// way) or a SwiftUI sheet that never appeared must not block every later one until the app is relaunched. So
/// - each presentation has an **owner** (the view controller or SwiftUI model), held weakly: when it is gone the gate
///   is free, whatever happened to the presentation;
/// - a presentation is **confirmed** once it is on screen (UIKit's completion, the sheet's content appearing); one
///   not confirmed within ``confirmationTimeout`` seconds no longer holds the gate.
@MainActor
package final class PresentationGate {
    /// A successful ``begin(owner:now:)``: pass it back to ``confirm(_:)`` and ``end(_:)``.
    package struct Token: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Holder {
        let token: Token
        weak var owner: AnyObject?
        let began: Date
        var confirmed = false
    }

    /// Seconds an unconfirmed presentation holds the gate. Default 3 (a presentation animation takes well under 1).
    package var confirmationTimeout: TimeInterval

    private var holder: Holder?
    private var nextID = 0
    private let now: () -> Date

    package init(confirmationTimeout: TimeInterval = 3, now: @escaping () -> Date = Date.init) {
        self.confirmationTimeout = confirmationTimeout
        self.now = now
    }

    /// Whether a presentation is in progress: begun, its owner alive, and confirmed or still within the timeout.
    package var isPresenting: Bool { currentHolder != nil }

    /// Starts a presentation owned by `owner`; `nil` when one is already in progress.
    package func begin(owner: AnyObject) -> Token? {
        guard currentHolder == nil else { return nil }
        nextID += 1
        let token = Token(id: nextID)
        holder = Holder(token: token, owner: owner, began: now())
        return token
    }

    /// Confirms that the presentation `token` began is on screen: it then holds the gate until ``end(_:)`` or until
    /// its owner is gone.
    package func confirm(_ token: Token?) {
        guard let token, holder?.token == token else { return }
        holder?.confirmed = true
    }

    /// Ends the presentation `token` began; a stale or foreign token changes nothing.
    package func end(_ token: Token?) {
        guard let token, holder?.token == token else { return }
        holder = nil
    }

    private var currentHolder: Holder? {
        guard let holder, holder.owner != nil else { return nil }
        if !holder.confirmed, now().timeIntervalSince(holder.began) >= confirmationTimeout { return nil }
        return holder
    }

    /// The gate `WebCMPBridgeUI` uses.
    package static let shared = PresentationGate()
}
