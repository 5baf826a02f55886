// WebCMPBridgeUI: UIKit and SwiftUI presentation of the CMP web view. Apple platforms with UIKit only; elsewhere
// this target builds empty. Importing it imports the core and the WebKit adapter too.
#if canImport(UIKit) && canImport(WebKit)
@_exported import WebCMPBridge
@_exported import WebCMPBridgeWebKit
#endif
