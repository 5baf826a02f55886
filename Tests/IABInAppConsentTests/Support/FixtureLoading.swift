import Foundation
@testable import IABInAppConsent

/// The JSON fixtures of the test target's own `Fixtures` folder (`Bundle.module`), decoded. One file for both test
/// targets: `Tests/WebCMPBridgeTests/Fakes/FixtureLoading.swift` is a symbolic link to it.
enum TestFixtures {
    /// `Fixtures/NAME.json` decoded as `type`; `nil` when it is missing or does not decode (the suites' own
    /// "fixture loads" tests then fail).
    static func decode<T: Decodable>(_ name: String, as type: T.Type) -> T? {
        guard let url = Bundle.module.url(forResource: "Fixtures/" + name, withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// An expected IAB key value in a fixture: a JSON number is an `Int` key, a JSON string a `String` key.
    struct KeyValue: Decodable {
        var value: IABValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                value = .int(number)
            } else {
                value = .string(try container.decode(String.self))
            }
        }
    }
}
