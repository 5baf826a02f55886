import Foundation

/// Whether a page's request to open the app's page in the Settings app (``CMPMessage/openAppSettings``) is carried
/// out: a pure value, one per bridge, fed the requests and the app's lifecycle (``BridgeMachine`` does).
///
/// - **Only while the user can have asked**: the page is ready, its UI is presented and not covered, and the app is in
///   the foreground. A page cannot send the user to Settings while it loads, pre-warmed out of sight, or from the
///   background.
/// - **At most one opening per foreground period.** Opening Settings puts the app in the background; a second request
///   before that (a page that posts in a loop, or an opener that could not open: an app extension) is refused. A
///   foreground period starts when the bridge is created and again each time the app returns from the background
///   (`didEnterBackground`, then `willEnterForeground` or `didBecomeActive`); becoming inactive without the background
///   (an alert, Control Center, the app switcher left without switching) starts none.
///
/// Each refusal is a diagnostic (``Decision``); nothing opens and the run goes on.
struct AppSettingsRequests: Sendable, Hashable {
    /// What happens to a request.
    enum Decision: Sendable, Hashable {
        /// Open the app's page in Settings.
        case open
        /// Refused: the page is not ready and on screen, or the app is in the background.
        case refusedNotOnScreen
        /// Refused: Settings were opened already in this foreground period.
        case refusedAlreadyOpened
    }

    /// Whether Settings were opened in the current foreground period.
    private(set) var openedThisForegroundPeriod = false

    /// A value for a bridge just created (in its first foreground period, nothing opened).
    init() {}

    /// Decides a request; `onScreen`: the page is ready, its UI presented and not covered, the app in the foreground.
    mutating func request(onScreen: Bool) -> Decision {
        guard onScreen else { return .refusedNotOnScreen }
        guard !openedThisForegroundPeriod else { return .refusedAlreadyOpened }
        openedThisForegroundPeriod = true
        return .open
    }

    /// The app entered the background: its return starts a new foreground period (requests are refused meanwhile, as
    /// the app is not in the foreground).
    mutating func appEnteredBackground() {
        openedThisForegroundPeriod = false
    }
}
