import Foundation

/// Which window a pre-warmed web view waits in (`ConsentPrewarmer`'s `place`; `ConsentPrewarming` reports the
/// app's scenes and windows, this decides).
///
/// WebKit on iOS counts a web view as visible — its page's timers and animation frames at full rate — only in a
/// window of an app that is not in the background (`PageClientImpl::isViewVisible()` in WebKit's
/// `PageClientImplIOS.mm`). At launch (`application(_:didFinishLaunchingWithOptions:)`, `scene(_:willConnectTo:)`,
/// an `App`'s `init`) no scene is active yet, but a scene may already be in the foreground, inactive, with a window.
/// So: a window of a foreground-active scene, else of a foreground-inactive one; the key window of that scene first,
/// else its first window. Never a background or unattached scene's window. `nil`: no window yet; try again when a
/// scene activates (`ConsentPrewarmer.sceneActivated()`).
package enum PrewarmPlacement {
    /// A scene's activation state (`UIScene.ActivationState`).
    package enum SceneState: Sendable, Hashable, CaseIterable {
        case foregroundActive, foregroundInactive, background, unattached
    }

    /// A scene as the glue sees it: its state and whether each of its windows is the key window.
    package struct Scene: Sendable, Hashable {
        /// The scene's activation state.
        package var state: SceneState
        /// Its windows, in the scene's order: `true` for the key window.
        package var windowIsKey: [Bool]

        /// A scene in `state` with windows (`true`: the key window).
        package init(_ state: SceneState, windowIsKey: [Bool]) {
            self.state = state
            self.windowIsKey = windowIsKey
        }
    }

    /// The chosen window: the index of its scene in the list given and of the window in that scene.
    package struct Choice: Sendable, Hashable {
        /// Index of the scene.
        package var scene: Int
        /// Index of the window in the scene.
        package var window: Int
    }

    /// The window a pre-warmed web view waits in, or `nil` when there is none yet.
    package static func window(in scenes: [Scene]) -> Choice? {
        for state in [SceneState.foregroundActive, .foregroundInactive] {
            for (index, scene) in scenes.enumerated() where scene.state == state && !scene.windowIsKey.isEmpty {
                return Choice(scene: index, window: scene.windowIsKey.firstIndex(of: true) ?? 0)
            }
        }
        return nil
    }
}
