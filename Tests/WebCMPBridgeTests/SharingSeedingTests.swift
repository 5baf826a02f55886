import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Seeding the stored consent into a content page's first-party storage: origin gating, main frame only, presets,
/// cookie safety, the cookie-store cookies, and the CMP identity taken from the stored keys only.
@Suite struct SharingSeedingTests {
    /// A Node stand-in for a document: `location`, a `document.cookie` that records every write, `localStorage`.
    static func page(origin: String, protocol scheme: String = "https:", topFrame: Bool = true) -> String {
        """
        const cookies = []; const items = {};
        globalThis.window = globalThis;
        globalThis.location = { origin: \(JavaScriptLiteral.string(origin)), protocol: \(JavaScriptLiteral.string(scheme)) };
        globalThis.document = {}; Object.defineProperty(document, 'cookie', { set: (v) => cookies.push(v), get: () => '' });
        globalThis.localStorage = { setItem: (k, v) => { items[k] = String(v); } };
        globalThis.top = \(topFrame ? "globalThis" : "{}");
        """
    }

    static let record = ConsentRecord(
        strings: ConsentStrings(tcString: TestStrings.acceptAll, gppString: "DBABMA~" + TestStrings.acceptAll, usPrivacy: "1YNN"),
        savedAt: Date(timeIntervalSince1970: 1))

    static func run(_ configuration: SharingConfiguration, origin: String, scheme: String = "https:",
                    topFrame: Bool = true, record: ConsentRecord? = record) throws -> JSONValue {
        let script = ConsentSharing.seedingScript(record: record, configuration: configuration)
        #expect(script.forMainFrameOnly)
        #expect(script.injectionTime == .documentStart)
        #expect(ConsentSharing.isSharingScript(script.source))
        return try JSONValue(parsing: try NodeRunner.run(Self.page(origin: origin, protocol: scheme, topFrame: topFrame)
            + script.source + "\nprocess.stdout.write(JSON.stringify({ cookies, items }));"))
    }

    @Test func defaultPresetWritesTheTCStringAsEuconsentV2InBoth() throws {
        let configuration = SharingConfiguration(contentOrigins: ["https://News.Example:443/"])
        #expect(configuration.contentOrigins == ["https://news.example"])
        let output = try Self.run(configuration, origin: "https://news.example")
        #expect(output["items"] == .object(["euconsent-v2": .string(TestStrings.acceptAll)]))
        #expect(output["cookies"] == .array([.string("euconsent-v2=" + TestStrings.acceptAll
            + "; path=/; max-age=\(SharingEntry.defaultCookieMaxAge); SameSite=Lax; Secure")]))
    }

    @Test func otherOriginsAndFramesGetNothing() throws {
        let configuration = SharingConfiguration(contentOrigins: ["https://news.example"])
        for origin in ["https://evil.example", "http://news.example", "https://news.example:8443",
                       "https://sub.news.example", "null", ""] {
            let output = try Self.run(configuration, origin: origin)
            #expect(output == .object(["cookies": .array([]), "items": .object([:])]), "\(origin)")
        }
        let framed = try Self.run(configuration, origin: "https://news.example", topFrame: false)
        #expect(framed == .object(["cookies": .array([]), "items": .object([:])]))
        #expect(configuration.allows(origin: "https://NEWS.example"))
        #expect(!configuration.allows(origin: "https://news.example.evil"))
        #expect(!SharingConfiguration(contentOrigins: ["file:///x"]).allows(origin: "file://"))
        // Not origins: ignored.
        #expect(SharingConfiguration(contentOrigins: ["news.example", "https://news.example/path", "https://news.example?q"])
            .contentOrigins.isEmpty)
    }

    @Test func httpOriginsGetNoSecureAttributeAndAbsentValuesAreLeftAlone() throws {
        let configuration = SharingConfiguration(contentOrigins: ["http://127.0.0.1:8080"], entries: [
            SharingEntry(name: "tc", value: .tcString, storage: [.cookie], cookieMaxAge: 60),
            SharingEntry(name: "ac", value: .additionalConsent, storage: [.cookie, .localStorage]),
            SharingEntry(name: "gpp", value: .gppString, storage: [.localStorage]),
            SharingEntry(name: "sid", value: .gppSectionIDs, storage: [.localStorage]),
            SharingEntry(name: "usp", value: .usPrivacy, storage: [.localStorage]),
        ])
        let output = try Self.run(configuration, origin: "http://127.0.0.1:8080", scheme: "http:")
        #expect(output["cookies"] == .array([.string("tc=" + TestStrings.acceptAll + "; path=/; max-age=60; SameSite=Lax")]))
        #expect(output["items"] == .object([
            "gpp": .string("DBABMA~" + TestStrings.acceptAll), "sid": .string("2"), "usp": .string("1YNN"),
        ]))
        let nothing = try Self.run(configuration, origin: "http://127.0.0.1:8080", scheme: "http:", record: nil)
        #expect(nothing == .object(["cookies": .array([]), "items": .object([:])]))
    }

    /// A value or name that is not made of cookie octets is never written as a cookie (no quoting a CMP would have to
    /// undo, no attribute injection), but still goes to local storage verbatim.
    @Test func unsafeCookieValuesAreNotWrittenAsCookies() throws {
        let hostile = "CQ; path=/evil; domain=.example\u{2028}\""
        let record = ConsentRecord(strings: ConsentStrings(tcString: hostile), savedAt: Date())
        let configuration = SharingConfiguration(contentOrigins: ["https://news.example"], entries: [
            SharingEntry(name: "euconsent-v2", value: .tcString, storage: [.cookie, .localStorage]),
            SharingEntry(name: "bad name", value: .tcString, storage: [.cookie]),
        ])
        let output = try Self.run(configuration, origin: "https://news.example", record: record)
        #expect(output["cookies"] == .array([]))
        #expect(output["items"] == .object(["euconsent-v2": .string(hostile)]))
        #expect(ConsentSharing.cookies(record: record, configuration: configuration).isEmpty)
        #expect(ConsentSharing.isCookieValue("CQabc-_.~1") && !ConsentSharing.isCookieValue("a b")
            && !ConsentSharing.isCookieValue("a,b") && !ConsentSharing.isCookieValue(""))
    }

    @Test func cookieStoreCookiesForEveryOriginIncludingHTTPOnly() {
        let configuration = SharingConfiguration(contentOrigins: ["https://www.news.example", "http://127.0.0.1:8080"], entries: [
            SharingEntry(name: "euconsent-v2", value: .tcString, storage: [.cookie, .localStorage]),
            SharingEntry(name: "server-consent", value: .tcString, storage: [.cookie], httpOnly: true),
            SharingEntry(name: "local-only", value: .tcString, storage: [.localStorage]),
        ])
        let cookies = ConsentSharing.cookies(record: Self.record, configuration: configuration)
        #expect(cookies.map(\.name) == ["euconsent-v2", "server-consent", "euconsent-v2", "server-consent"])
        #expect(cookies.map(\.domain) == ["127.0.0.1", "127.0.0.1", "www.news.example", "www.news.example"])
        #expect(cookies.map(\.isSecure) == [false, false, true, true])
        #expect(cookies.map(\.isHTTPOnly) == [false, true, false, true])
        #expect(cookies.allSatisfy { $0.value == TestStrings.acceptAll && $0.path == "/" && $0.sameSite == "Lax" })
        // The script leaves HttpOnly cookies to the cookie store.
        let config = ConsentSharing.seedingConfig(record: Self.record, configuration: configuration)
        #expect(config["writes"]?.arrayValue?.map { $0["cookie"] } == [.bool(true), .bool(false), .bool(false)])
    }

    @Test func presets() throws {
        #expect(SharingPreset.named("EUCONSENT-V2") == .euconsentV2)
        #expect(SharingPreset.named("didomi") == .didomi)
        #expect(SharingPreset.named("onetrust") == .oneTrust)
        #expect(SharingPreset.named("sourcepoint") == nil)
        #expect(Set(SharingPreset.all.map(\.name)).count == SharingPreset.all.count)
        #expect(SharingPreset.all.allSatisfy { !$0.source.isEmpty && !$0.entries.isEmpty })
        #expect(SharingConfiguration(contentOrigins: []).entries == SharingPreset.euconsentV2.entries)
        let oneTrust = SharingConfiguration(contentOrigins: ["https://news.example"], presets: [.oneTrust])
        let output = try Self.run(oneTrust, origin: "https://news.example")
        #expect(output["items"] == .object([:]))
        #expect(output["cookies"]?.arrayValue?.first?.stringValue?.hasPrefix("eupubconsent-v2=" + TestStrings.acceptAll + ";") == true)
        let both = SharingConfiguration(contentOrigins: [], presets: [.euconsentV2, .oneTrust])
        #expect(both.entries.map(\.name) == ["euconsent-v2", "eupubconsent-v2"])
    }

    @Test func userScriptsSeedFirstThenShare() throws {
        let configuration = SharingConfiguration(contentOrigins: ["https://news.example"])
        let scripts = ConsentSharing.userScripts(record: Self.record, keys: IABKeySet(), configuration: configuration)
        #expect(scripts.count == 2)
        #expect(scripts[0] == ConsentSharing.seedingScript(record: Self.record, configuration: configuration))
        #expect(scripts[1] == ConsentSharing.userScript(record: Self.record, keys: IABKeySet()))
        #expect(scripts.allSatisfy { ConsentSharing.isSharingScript($0.source) })
    }

    /// The CMP id and version the page sees come from the stored keys (where the consent transaction put them), never
    /// from the TC string's own CmpId/CmpVersion.
    @Test func cmpIdentityComesOnlyFromTheStoredKeys() throws {
        let withoutKeys = ConsentSharing.state(record: Self.record, keys: IABKeySet())
        #expect(withoutKeys["cmpId"] == .null)
        #expect(withoutKeys["cmpVersion"] == .null)
        #expect(withoutKeys["tcData"]?["cmpId"] == .null)
        let keys = try IABKeySet(
            mapping: ConsentStrings(tcString: TestStrings.acceptAll), gdprApplies: true,
            identity: CMPIdentity(id: 31, version: 4))
        let state = ConsentSharing.state(record: Self.record, keys: keys)
        #expect(state["cmpId"] == .number(31))
        #expect(state["cmpVersion"] == .number(4))
        #expect(state["tcData"]?["cmpVersion"] == .number(4))
    }
}
