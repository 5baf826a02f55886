import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// ``PrewarmPlacement``: where a pre-warmed web view waits, from the scenes the app has.
@Suite struct PrewarmPlacementTests {
    typealias Scene = PrewarmPlacement.Scene
    typealias Choice = PrewarmPlacement.Choice

    @Test(arguments: [
        ("no scene yet (didFinishLaunching)", [], nil),
        ("an App's init: the scene is in the foreground but not active yet",
         [Scene(.foregroundInactive, windowIsKey: [false])], Choice(scene: 0, window: 0)),
        ("an active scene wins over an inactive one",
         [Scene(.foregroundInactive, windowIsKey: [true]), Scene(.foregroundActive, windowIsKey: [false, true])],
         Choice(scene: 1, window: 1)),
        ("the key window of the scene, else its first",
         [Scene(.foregroundActive, windowIsKey: [false, false])], Choice(scene: 0, window: 0)),
        ("a scene without windows is skipped",
         [Scene(.foregroundActive, windowIsKey: []), Scene(.foregroundInactive, windowIsKey: [false, true])],
         Choice(scene: 1, window: 1)),
        ("never a background or unattached scene",
         [Scene(.background, windowIsKey: [true]), Scene(.unattached, windowIsKey: [true])], nil),
    ] as [(String, [Scene], Choice?)])
    func aPrewarmedViewWaitsInAForegroundScenesWindow(_ name: String, _ scenes: [Scene], _ expected: Choice?) {
        #expect(PrewarmPlacement.window(in: scenes) == expected, "\(name)")
    }
}
