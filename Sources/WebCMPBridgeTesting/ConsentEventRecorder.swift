import WebCMPBridge

/// Records a ``ConsentBridge``'s events as they happen, synchronously and in order, for a test that checks them right
/// after it drives the bridge (``FakeWebView/post(_:json:isMainFrame:origin:)``, `ManualScheduler.advance(by:)`),
/// without awaiting an ``ConsentBridge/events()`` stream.
///
/// ```swift
/// let recorder = ConsentEventRecorder()
/// recorder.record(bridge)
/// bridge.attach(to: webView)
/// bridge.start()
/// webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: "https://cmp.example.com")
/// #expect(recorder.events.contains { if case .uiReady = $0 { true } else { false } })
/// ```
///
/// It takes the bridge's synchronous event slot: record a bridge you drive yourself, not one a presentation owns
/// (``FakeConsentPresentation`` and the UI report their events to `onEvent`).
@MainActor
public final class ConsentEventRecorder {
    /// Every event so far, in order.
    public private(set) var events: [ConsentBridgeEvent] = []
    private var receiver: Receiver?

    /// Creates a recorder that records nothing yet.
    public init() {}

    /// Records `bridge`'s events from now on (the recorder keeps no reference to the bridge).
    public func record(_ bridge: ConsentBridge) {
        let receiver = Receiver { [weak self] event in self?.events.append(event) }
        self.receiver = receiver
        bridge.delegate = receiver
    }

    @MainActor
    private final class Receiver: ConsentBridgeDelegate {
        let append: @MainActor (ConsentBridgeEvent) -> Void
        init(append: @escaping @MainActor (ConsentBridgeEvent) -> Void) { self.append = append }
        func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) { append(event) }
    }
}
