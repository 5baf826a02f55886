import WebCMPBridge

extension HostSession {
    /// `event` as the JSON object the host prints (a `"type"` and its fields), for commands that drive a bridge
    /// without a session (a pre-warmed bridge).
    public static func jsonObject(for event: ConsentBridgeEvent) -> [String: JSONValue] { json(for: event) }
}
