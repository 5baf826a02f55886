#if canImport(WebKit)
import Foundation
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#endif

/// Observes the app's lifecycle notifications (`UIApplication`'s `willResignActive`, `didEnterBackground`,
/// `willEnterForeground`, `didBecomeActive`; available in app extensions too) and reports them, until it is
/// deallocated. Shared by the web view adapters, which report each as ``WebViewEvent/appLifecycle(_:)``. Without UIKit
/// (macOS) it observes nothing.
final class AppLifecycleObservers: @unchecked Sendable {
    // @unchecked: the tokens are written once in init and only read in deinit (NotificationCenter's
    // removeObserver(_:) may be called from any thread).
    private var tokens: [NSObjectProtocol] = []

    @MainActor init(report: @escaping @MainActor (AppLifecycleEvent) -> Void) {
        #if canImport(UIKit)
        let names: [(Notification.Name, AppLifecycleEvent)] = [
            (UIApplication.willResignActiveNotification, .willResignActive),
            (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
            (UIApplication.willEnterForegroundNotification, .willEnterForeground),
            (UIApplication.didBecomeActiveNotification, .didBecomeActive),
        ]
        // UIKit posts these on the main thread; the main queue makes that explicit.
        tokens = names.map { name, event in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { report(event) }
            }
        }
        #endif
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
#endif
