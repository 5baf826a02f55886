import Foundation

/// The App Tracking Transparency requests in flight over one tracking client (a ``TrackingAuthorizer`` and its
/// copies): requests made whose answer has not settled, so that their alert may be on screen or still to come.
///
/// The alert is the system's, one per app, and once requested it cannot be withdrawn; Apple's `ATTrackingManager.h`
/// (iOS 26.2 SDK), `requestTrackingAuthorization(completionHandler:)`: "The authorization prompt doesn't display if
/// another permission request is pending user confirmation." So, over one client:
/// - a bridge makes its request only while no other is in flight (it waits, as it waits for an active app): a second
///   request would be answered at once without an alert, and settle as "not determined" while the first alert may
///   still be on screen (promise 3 of <doc:SessionPromises>);
/// - `ConsentSession` delivers its outcome only while none is in flight: an app starts its ad SDKs in `onFinish`,
///   which must not happen while the alert may be on screen, whichever bridge requested it (promise 1).
///
/// Each ``ConsentBridge`` reports whether its request is in flight after every input (`ConsentBridge.handle`); a
/// bridge that goes away without being invalidated stops counting.
@MainActor
package final class TrackingRequestsInFlight: Sendable {
    private var holders: [ObjectIdentifier: WeakHolder] = [:]
    private var waiting: [@MainActor () -> Void] = []

    private struct WeakHolder {
        weak var object: AnyObject?
    }

    /// An empty record (made with its tracking client, wherever that is made).
    nonisolated init() {}

    /// Whether no request is in flight.
    package var isEmpty: Bool {
        holders = holders.filter { $0.value.object != nil }
        return holders.isEmpty
    }

    /// Records whether `holder`'s request is in flight; when none is left, runs what waited for that, in order.
    package func set(_ holder: AnyObject, inFlight: Bool) {
        let id = ObjectIdentifier(holder)
        if inFlight {
            holders[id] = WeakHolder(object: holder)
        } else if holders.removeValue(forKey: id) != nil || !waiting.isEmpty {
            runWaitingIfNone()
        }
    }

    /// Runs `action` at once when no request is in flight, else once none is (from the ``set(_:inFlight:)`` that
    /// ends the last one: `action` should only schedule its work, as it runs inside that bridge's input).
    package func whenNone(_ action: @escaping @MainActor () -> Void) {
        if isEmpty { return action() }
        waiting.append(action)
    }

    private func runWaitingIfNone() {
        guard isEmpty, !waiting.isEmpty else { return }
        let actions = waiting
        waiting.removeAll()
        for action in actions { action() }
    }
}
