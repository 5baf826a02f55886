#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge

extension ScriptMessage {
    /// The message as WebKit delivered it: the handler's name, the body as a Foundation object graph, and the
    /// sending frame's `isMainFrame` and security origin (`WKScriptMessage.frameInfo`), for the core's origin checks.
    @MainActor init(_ message: WKScriptMessage) {
        let frame = message.frameInfo
        let origin = frame.securityOrigin
        self.init(
            handlerName: message.name, body: .foundation(message.body), isMainFrame: frame.isMainFrame,
            origin: SecurityOrigin.origin(protocol: origin.protocol, host: origin.host, port: origin.port))
    }
}
#endif
