// WebCMPBridgeUI: UIKit and SwiftUI presentation of the CMP web view. Apple platforms with UIKit only; elsewhere
// this target builds empty.
#if canImport(UIKit) && canImport(WebKit)
@_exported import WebCMPBridge
#endif
