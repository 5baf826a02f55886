#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge

extension ConsentViewController {
    /// Creates the controller with a new bridge for `configuration` in `mode`: ``ConsentUIMode/settings`` reopens the
    /// CMP with the stored consent for the app's "Privacy settings" entry (see ``PrivacySettingsOpener``).
    public convenience init(
        configuration: BridgeConfiguration, store: ConsentStore, mode: ConsentUIMode,
        trackingAuthorizer: TrackingAuthorizer = .unavailable, presentation: ConsentPresentation = .sheet(.twoThirds)
    ) {
        var configuration = configuration
        configuration.mode = mode
        self.init(
            bridge: ConsentBridge(configuration: configuration, store: store, trackingAuthorizer: trackingAuthorizer),
            presentation: presentation)
    }
}

extension View {
    /// ``SwiftUI/View/consentPrompt(isPresented:bridge:onEvent:onFinish:)`` with a new bridge for `configuration` in
    /// `mode` per presentation: `.settings` for the app's "Privacy settings" entry.
    public func consentPrompt(
        isPresented: Binding<Bool>,
        configuration: BridgeConfiguration,
        store: ConsentStore,
        mode: ConsentUIMode,
        trackingAuthorizer: TrackingAuthorizer = .unavailable,
        onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) -> some View {
        consentPrompt(
            isPresented: isPresented,
            bridge: {
                var configuration = configuration
                configuration.mode = mode
                return ConsentBridge(configuration: configuration, store: store, trackingAuthorizer: trackingAuthorizer)
            },
            onEvent: onEvent, onFinish: onFinish)
    }
}
#endif
