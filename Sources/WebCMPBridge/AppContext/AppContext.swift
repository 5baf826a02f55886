import Foundation

/// The app's context for the CMP page: what the page cannot learn from WebKit and needs to explain tracking to a user
/// who denied it in iOS, size its text and skip animations.
///
/// Set ``BridgeConfiguration/appContext`` to send it (nothing is sent by default); every field is optional and a
/// field left `nil` is sent nowhere, so the app chooses what the page learns. The page gets it before any of its
/// scripts runs:
/// - as **`window.webcmpAppContext`**, a frozen object defined by a document-start user script in the main frame
///   (not writable, not configurable; nested objects frozen too), with every field that is set. It stays in the
///   device: this is the default and the only place the fields go unless the app says otherwise;
/// - as **query items** of the CMP URL (and of the fallback page's) only for the fields the app opts in per field
///   (``fieldsInURL``, empty by default): the URL reaches the CMP host's server and its logs, where device details
///   (OS version, text size, tracking status…) would make a user easier to single out. See
///   <doc:TheAppContextInTheCMPPage> and <doc:SessionPromises> (promise 10).
///
/// Every value is written by the JSON encoder (`JavaScriptLiteral`) or as a query item value (percent-encoded by
/// `URLComponents`); nothing the page sends back about it is read. The context is the one of the bridge's creation
/// (like ``BridgeConfiguration/language``): a change during a run (dark mode switched, text size changed, ATT allowed
/// in Settings) reaches the page at its next load by a new bridge; the kit does not reload a page for it, and its own
/// reloads (a terminated web content process, the fallback page) carry the same context. See
/// <doc:TheAppContextInTheCMPPage>.
public struct AppContext: Sendable, Hashable {
    /// The operating system the app runs on, as the page sees it.
    public enum Platform: String, Sendable, Hashable, CaseIterable {
        /// iOS on an iPhone or iPod touch.
        case iOS = "ios"
        /// iPadOS.
        case iPadOS = "ipados"
        /// visionOS.
        case visionOS = "visionos"
        /// An iPad app on a Mac (Mac Catalyst, or an iPhone/iPad app on Apple silicon).
        case macCatalyst = "maccatalyst"
        /// macOS.
        case macOS = "macos"
        /// Another platform (the Linux host).
        case other = "other"
    }

    /// The UI's color scheme.
    public enum ColorScheme: String, Sendable, Hashable, CaseIterable {
        /// Light appearance.
        case light
        /// Dark appearance.
        case dark
    }

    /// The user's preferred text size, named as SwiftUI's `DynamicTypeSize` cases (UIKit's
    /// `UIContentSizeCategory` in order: `extraSmall` … `accessibilityExtraExtraExtraLarge`).
    public enum DynamicTypeSize: String, Sendable, Hashable, CaseIterable, Comparable {
        /// `extraSmall`.
        case xSmall
        /// `small`.
        case small
        /// `medium`.
        case medium
        /// `large`, the default.
        case large
        /// `extraLarge`.
        case xLarge
        /// `extraExtraLarge`.
        case xxLarge
        /// `extraExtraExtraLarge`.
        case xxxLarge
        /// `accessibilityMedium`.
        case accessibility1
        /// `accessibilityLarge`.
        case accessibility2
        /// `accessibilityExtraLarge`.
        case accessibility3
        /// `accessibilityExtraExtraLarge`.
        case accessibility4
        /// `accessibilityExtraExtraExtraLarge`.
        case accessibility5

        /// Whether this is one of the accessibility sizes.
        public var isAccessibilitySize: Bool { self >= .accessibility1 }

        /// Orders the sizes from the smallest.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// A field of the context, named by its query item (all under the prefix `app-`): what the app lists in
    /// ``AppContext/fieldsInURL`` to send it in the CMP URL too.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// ``AppContext/platform``.
        case platform = "app-platform"
        /// ``AppContext/osVersion``.
        case osVersion = "app-os-version"
        /// ``AppContext/language``.
        case language = "app-language"
        /// ``AppContext/trackingStatus``.
        case trackingStatus = "app-att"
        /// ``AppContext/trackingStatusBeforeLastRequest``.
        case trackingStatusBeforeLastRequest = "app-att-before-request"
        /// ``AppContext/colorScheme``.
        case colorScheme = "app-color-scheme"
        /// ``AppContext/dynamicTypeSize``.
        case dynamicTypeSize = "app-type-size"
        /// ``AppContext/reduceMotion`` (`true` or `false`).
        case reduceMotion = "app-reduce-motion"
    }

    /// The version of the object's shape (`window.webcmpAppContext.version`), raised when a key changes meaning.
    public static let version = 1

    /// The platform.
    public var platform: Platform?
    /// The OS version (e.g. `"18.6"`).
    public var osVersion: String?
    /// The app's language (a BCP 47 tag, e.g. `"de-CH"`), which may differ from the CMP's UI language
    /// (``BridgeConfiguration/language``).
    public var language: String?
    /// App Tracking Transparency's status.
    public var trackingStatus: TrackingAuthorizationStatus?
    /// The status before the app last asked for App Tracking Transparency (`notDetermined` when the prompt was shown;
    /// `denied` with ``trackingStatus`` `authorized`: allowed later in Settings). `nil`: the app does not say.
    public var trackingStatusBeforeLastRequest: TrackingAuthorizationStatus?
    /// The color scheme.
    public var colorScheme: ColorScheme?
    /// The preferred text size.
    public var dynamicTypeSize: DynamicTypeSize?
    /// Whether the user asked to reduce motion.
    public var reduceMotion: Bool?
    /// The fields that also go into the CMP URL as query items (when set): the app opts in per field. Empty (the
    /// default): the URL carries none, and the page reads them from `window.webcmpAppContext` alone, so the CMP host's
    /// server logs never see them. Add a field only for a page that needs it on the server (a server-rendered
    /// banner); the object carries it either way.
    public var fieldsInURL: Set<Field>

    /// Creates a context; every field left `nil` is not sent, and only those in `fieldsInURL` go into the URL.
    public init(
        platform: Platform? = nil, osVersion: String? = nil, language: String? = nil,
        trackingStatus: TrackingAuthorizationStatus? = nil,
        trackingStatusBeforeLastRequest: TrackingAuthorizationStatus? = nil, colorScheme: ColorScheme? = nil,
        dynamicTypeSize: DynamicTypeSize? = nil, reduceMotion: Bool? = nil, fieldsInURL: Set<Field> = []
    ) {
        self.platform = platform
        self.osVersion = osVersion
        self.language = language
        self.trackingStatus = trackingStatus
        self.trackingStatusBeforeLastRequest = trackingStatusBeforeLastRequest
        self.colorScheme = colorScheme
        self.dynamicTypeSize = dynamicTypeSize
        self.reduceMotion = reduceMotion
        self.fieldsInURL = fieldsInURL
    }

    /// The fields that are set, in ``Field`` order.
    private var fields: [(Field, String)] {
        let values: [(Field, String?)] = [
            (.platform, platform?.rawValue), (.osVersion, osVersion), (.language, language),
            (.trackingStatus, trackingStatus?.rawValue),
            (.trackingStatusBeforeLastRequest, trackingStatusBeforeLastRequest?.rawValue),
            (.colorScheme, colorScheme?.rawValue), (.dynamicTypeSize, dynamicTypeSize?.rawValue),
            (.reduceMotion, reduceMotion.map { $0 ? "true" : "false" }),
        ]
        return values.compactMap { item, value in value.map { (item, $0) } }
    }

    /// The query items of the fields that are set and listed in ``fieldsInURL`` (``Field`` names, in that order).
    package var queryItems: [URLQueryItem] {
        fields.filter { fieldsInURL.contains($0.0) }.map { URLQueryItem(name: $0.0.rawValue, value: $0.1) }
    }

    /// `window.webcmpAppContext`: `{version, platform, osVersion, language, trackingStatus,
    /// trackingStatusBeforeLastRequest, colorScheme, dynamicTypeSize, reduceMotion}`, the fields that are set
    /// (strings, `reduceMotion` a boolean) and `version` (``AppContext/version``).
    package var javaScriptValue: JSONValue {
        var object: [String: JSONValue] = ["version": .number(Double(Self.version))]
        if let platform { object["platform"] = .string(platform.rawValue) }
        if let osVersion { object["osVersion"] = .string(osVersion) }
        if let language { object["language"] = .string(language) }
        if let trackingStatus { object["trackingStatus"] = .string(trackingStatus.rawValue) }
        if let trackingStatusBeforeLastRequest {
            object["trackingStatusBeforeLastRequest"] = .string(trackingStatusBeforeLastRequest.rawValue)
        }
        if let colorScheme { object["colorScheme"] = .string(colorScheme.rawValue) }
        if let dynamicTypeSize { object["dynamicTypeSize"] = .string(dynamicTypeSize.rawValue) }
        if let reduceMotion { object["reduceMotion"] = .bool(reduceMotion) }
        return .object(object)
    }

    /// The document-start user script (main frame only) that defines `window.webcmpAppContext` (resource
    /// `app-context.js`, the value through `JavaScriptLiteral`).
    package var userScript: UserScript {
        UserScript(
            source: ScriptResource.appContext.source(config: javaScriptValue), injectionTime: .documentStart,
            forMainFrameOnly: true)
    }
}
