#if canImport(UIKit)
import UIKit

/// Calls `action` once when `scene` disconnects (`UIScene.didDisconnectNotification`: "the system removed the scene
/// from your app", after the person closed its window in the app switcher or the system reclaimed it; Apple's
/// documentation of `UIScene.didDisconnectNotification` and of `sceneDidDisconnect(_:)`). Observing ends with this
/// value (its `deinit` removes the observer; it is not actor-isolated so that its `deinit` may).
final class SceneDisconnection {
    /// The scene observed.
    private(set) weak var scene: UIScene?
    private let token: any NSObjectProtocol

    init(scene: UIScene, action: @escaping @MainActor () -> Void) {
        self.scene = scene
        token = NotificationCenter.default.addObserver(
            forName: UIScene.didDisconnectNotification, object: scene, queue: .main
        ) { _ in
            MainActor.assumeIsolated { action() }
        }
    }

    deinit {
        NotificationCenter.default.removeObserver(token)
    }
}
#endif
