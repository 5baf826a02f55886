import Foundation
import Testing
import WebCMPBridgeTesting
@testable import WebCMPBridge

/// The app's context reaches the CMP page as a frozen `window.webcmpAppContext` defined before any page script, and
/// as query items only for the fields the app opts in to the URL (none by default); fields the app leaves out are sent
/// nowhere; values go through the JSON encoder.
@Suite struct AppContextTests {
    static let full = AppContext(
        platform: .iPadOS, osVersion: "18.6", language: "de-CH", trackingStatus: .denied,
        trackingStatusBeforeLastRequest: .notDetermined, colorScheme: .dark, dynamicTypeSize: .accessibility2,
        reduceMotion: true)

    static var fullInURL: AppContext {
        var context = full
        context.fieldsInURL = Set(AppContext.Field.allCases)
        return context
    }

    @Test func byDefaultNoDeviceDetailGoesIntoTheURL() throws {
        #expect(Self.full.fieldsInURL.isEmpty)
        #expect(Self.full.queryItems.isEmpty)
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html?x=1")!)
        configuration.appContext = Self.full
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/app.html?x=1")
        // The page still gets every field, in the frozen object.
        guard case .object(let object) = Self.full.javaScriptValue else {
            Issue.record("not an object")
            return
        }
        #expect(object.count == 1 + AppContext.Field.allCases.count)
    }

    @Test func onlyTheFieldsTheAppOptsInGoIntoTheURL() {
        var context = Self.full
        context.fieldsInURL = [.language, .colorScheme]
        #expect(context.queryItems == [
            URLQueryItem(name: "app-language", value: "de-CH"), URLQueryItem(name: "app-color-scheme", value: "dark"),
        ])
        // A field opted in but left nil is sent nowhere.
        context.language = nil
        #expect(context.queryItems == [URLQueryItem(name: "app-color-scheme", value: "dark")])
    }

    @Test func everyFieldIsAQueryItemWithItsDocumentedName() {
        #expect(Self.fullInURL.queryItems == [
            URLQueryItem(name: "app-platform", value: "ipados"), URLQueryItem(name: "app-os-version", value: "18.6"),
            URLQueryItem(name: "app-language", value: "de-CH"), URLQueryItem(name: "app-att", value: "denied"),
            URLQueryItem(name: "app-att-before-request", value: "notDetermined"),
            URLQueryItem(name: "app-color-scheme", value: "dark"),
            URLQueryItem(name: "app-type-size", value: "accessibility2"),
            URLQueryItem(name: "app-reduce-motion", value: "true"),
        ])
    }

    @Test func aFieldLeftOutIsSentNowhere() {
        let context = AppContext(
            trackingStatus: .authorized, reduceMotion: false, fieldsInURL: Set(AppContext.Field.allCases))
        #expect(context.queryItems == [
            URLQueryItem(name: "app-att", value: "authorized"), URLQueryItem(name: "app-reduce-motion", value: "false"),
        ])
        #expect(context.javaScriptValue == .object([
            "version": .number(1), "trackingStatus": .string("authorized"), "reduceMotion": .bool(false),
        ]))
        #expect(AppContext().queryItems.isEmpty)
    }

    @Test func theCMPURLAndTheFallbackPageCarryTheItemsAfterTheLanguage() throws {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app.html?x=1")!, language: "de",
            additionalQueryItems: [URLQueryItem(name: "user", value: "42")])
        configuration.appContext = AppContext(
            platform: .iOS, language: "de & fr", colorScheme: .light, fieldsInURL: Set(AppContext.Field.allCases))
        let items = try #require(URLComponents(url: configuration.resolvedURL, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.name) == ["x", "lang", "app-platform", "app-language", "app-color-scheme", "user"])
        #expect(items.first { $0.name == "app-language" }?.value == "de & fr")
        let fallback = configuration.addingQueryItems(to: MachinePage.fallback.entryURL)
        #expect(fallback.query?.contains("app-platform=ios") == true)
    }

    @Test func withoutAContextTheURLIsUnchanged() {
        let configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!)
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/app.html")
    }

    @Test func theScriptIsDocumentStartMainFrameAndCarriesTheEncodedValue() {
        let script = Self.full.userScript
        #expect(script.injectionTime == .documentStart)
        #expect(script.forMainFrameOnly)
        #expect(script.source.hasSuffix("(" + JavaScriptLiteral.expression(Self.full.javaScriptValue) + ");"))
        #expect(!script.source.contains("</script>"))
    }

    /// In a real engine (Node, a fresh context standing in for a page): the object is defined, frozen, cannot be
    /// replaced or deleted, hostile strings arrive unchanged, and a page that defined the name first keeps its own.
    @Test func theObjectIsFrozenAndReadOnlyInARealEngine() throws {
        let tricky = ScriptEscapingTests.tricky.joined()
        let context = AppContext(platform: .iOS, language: tricky, reduceMotion: true)
        let points = "[" + tricky.unicodeScalars.map { String($0.value) }.joined(separator: ",") + "]"
        let script = """
            'use strict';
            const vm = require('vm');
            const page = vm.createContext({}); vm.runInContext('var window = this;', page);
            vm.runInContext(\(JavaScriptLiteral.string(context.userScript.source)), page);
            const out = vm.runInContext(`(() => {
              const c = window.webcmpAppContext; const r = {};
              r.frozen = Object.isFrozen(c);
              r.platform = c.platform; r.reduceMotion = c.reduceMotion; r.version = c.version;
              try { c.platform = 'android'; } catch (e) {}
              r.afterWrite = window.webcmpAppContext.platform;
              try { window.webcmpAppContext = { platform: 'x' }; } catch (e) {}
              try { delete window.webcmpAppContext; } catch (e) {}
              r.afterReplace = window.webcmpAppContext === c;
              r.language = Array.from(c.language).map((s) => s.codePointAt(0));
              return r; })()`, page);
            const own = vm.createContext({}); vm.runInContext('var window = this; window.webcmpAppContext = "mine";', own);
            vm.runInContext(\(JavaScriptLiteral.string(context.userScript.source)), own);
            out.pageKeepsItsOwn = vm.runInContext('window.webcmpAppContext', own) === 'mine';
            out.languageMatches = JSON.stringify(out.language) === JSON.stringify(\(points));
            delete out.language;
            process.stdout.write(JSON.stringify(out));
            """
        let output = try NodeRunner.run(script)
        let result = try JSONValue(parsing: output)
        #expect(result == .object([
            "frozen": .bool(true), "platform": .string("ios"), "reduceMotion": .bool(true), "version": .number(1),
            "afterWrite": .string("ios"), "afterReplace": .bool(true), "pageKeepsItsOwn": .bool(true),
            "languageMatches": .bool(true),
        ]))
    }

    /// With the bridge and the fake web view: the context's script is the first user script, and the page loads
    /// without items (none opted in to the URL), or with those opted in; no context, no script.
    @MainActor
    @Test func theBridgeInstallsTheContextFirst() throws {
        let harness = BridgeHarness { $0.appContext = Self.full }
        let first = try #require(harness.webView.userScripts.first)
        #expect(first == Self.full.userScript)
        let url = try #require(harness.webView.loadedURLs.first)
        #expect(url.query?.contains("app-") != true)
        let optedIn = BridgeHarness { $0.appContext = Self.fullInURL }
        let withItems = try #require(optedIn.webView.loadedURLs.first)
        #expect(withItems.query?.contains("app-att=denied&app-att-before-request=notDetermined") == true)
        let plain = BridgeHarness(dialect: .tcf)
        #expect(!plain.webView.userScripts.contains { $0.source.contains("webcmpAppContext") })
    }

    @Test func dynamicTypeSizesAreOrdered() {
        #expect(AppContext.DynamicTypeSize.allCases.sorted() == AppContext.DynamicTypeSize.allCases)
        #expect(!AppContext.DynamicTypeSize.xxxLarge.isAccessibilitySize)
        #expect(AppContext.DynamicTypeSize.accessibility1.isAccessibilitySize)
    }
}
