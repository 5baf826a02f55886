/// A change of the app's lifecycle, as UIKit posts it (`UIApplication` notifications, in their documented order:
/// `willResignActive` → `didEnterBackground` when the app leaves, `willEnterForeground` → `didBecomeActive` when it
/// comes back; an alert, the app switcher or Control Center make it inactive without the background).
///
/// Web view adapters report these as `WebViewEvent.appLifecycle(_:)`: the facts only. The bridge decides: while the
/// app is in the background WebKit suspends the page, so the run's timeouts pause and go on with the time they had
/// left when the app returns; a web content process terminated in the background is reloaded when the app returns;
/// App Tracking Transparency's early answer is read again at the next activation.
package enum AppLifecycleEvent: Sendable, Hashable, CaseIterable {
    /// The app is about to become inactive (`UIApplication.willResignActiveNotification`).
    case willResignActive
    /// The app is in the background (`UIApplication.didEnterBackgroundNotification`); it may be suspended next.
    case didEnterBackground
    /// The app is about to return to the foreground (`UIApplication.willEnterForegroundNotification`).
    case willEnterForeground
    /// The app is active (`UIApplication.didBecomeActiveNotification`).
    case didBecomeActive
}
