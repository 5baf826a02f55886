extension IABValue {
    /// The value as JSON: a `Number` key as a JSON number, a string key as a JSON string.
    package var json: JSONValue {
        switch self {
        case .int(let number): return .number(Double(number))
        case .string(let string): return .string(string)
        }
    }
}

extension IABKeySet {
    /// The keys as one JSON object, each key's value as ``IABValue/json``: the one JSON form of stored keys, which
    /// `webcmp inspect --json` and the WebKitGTK host's `--json` print.
    package var json: JSONValue {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(count)
        for (key, value) in self { members[key.rawValue] = value.json }
        return .object(members)
    }
}
