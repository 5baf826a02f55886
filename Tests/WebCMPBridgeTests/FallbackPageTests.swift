import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@Suite struct FallbackPageTests {
    /// Computed, not a stored global: LeakSanitizer reports a global `Data` as leaked (its storage pointer is kept in
    /// a tagged enum payload that the leak scan does not recognise).
    static var html: Data { Data("<html>fallback</html>".utf8) }

    static func page() throws -> FallbackPage {
        try FallbackPage(files: [
            "index.html": FallbackPage.File(contents: html),
            "css/cmp.css": FallbackPage.File(contents: Data("body{}".utf8), mimeType: "text/css"),
        ])
    }

    @Test func servesRegisteredFilesUnderItsOwnOrigin() throws {
        let page = try Self.page()
        #expect(page.origin == "webcmp-fallback://app")
        #expect(page.entryURL.absoluteString == "webcmp-fallback://app/index.html")
        // The origin the web view reports for the page is a real origin, the one the bridge allows for the fallback.
        #expect(SecurityOrigin.origin(of: page.entryURL) == page.origin)
        #expect(SecurityOrigin.normalize("WEBCMP-FALLBACK://App") == page.origin)
        let response = try page.response(for: URL(string: "webcmp-fallback://app/index.html?lang=de#x")).get()
        #expect(response.data == Self.html)
        #expect(response.mimeType == "text/html")
        #expect(response.textEncodingName == "utf-8")
        let css = try page.response(for: URL(string: "WEBCMP-FALLBACK://APP/css/cmp.css")).get()
        #expect(css.mimeType == "text/css")
    }

    @Test(arguments: [
        ("webcmp-fallback://app/secret.html", FallbackRefusal.notRegistered("/secret.html")),
        ("webcmp-fallback://app/", .notRegistered("/")),
        ("webcmp-fallback://app/css/", .notRegistered("/css/")),
        ("webcmp-fallback://app/css/../index.html", .pathTraversal("/css/../index.html")),
        ("webcmp-fallback://app/css/%2e%2e/index.html", .pathTraversal("/css/%2e%2e/index.html")),
        ("webcmp-fallback://app/css%2Fcmp.css", .pathTraversal("/css%2Fcmp.css")),
        ("webcmp-fallback://app/./index.html", .pathTraversal("/./index.html")),
        ("webcmp-fallback://app//index.html", .pathTraversal("//index.html")),
        ("webcmp-fallback://other/index.html", .wrongHost("other")),
        ("webcmp-fallback://app:8080/index.html", .wrongHost("app")),
        ("webcmp-fallback://user@app/index.html", .wrongHost("app")),
        ("https://app/index.html", .wrongScheme("https")),
    ])
    func refusesWhatTheAppDidNotRegister(url: String, refusal: FallbackRefusal) throws {
        let page = try Self.page()
        #expect(page.response(for: URL(string: url)) == .failure(refusal))
    }

    @Test func refusesAMissingURL() throws {
        #expect(try Self.page().response(for: nil) == .failure(.malformedURL))
    }

    @Test func refusesUnusableConfigurations() {
        let file = FallbackPage.File(contents: Data())
        #expect(throws: FallbackPage.ConfigurationError.invalidScheme("https")) {
            try FallbackPage(validating: "https", host: "app", entry: "index.html", files: ["index.html": file])
        }
        #expect(throws: FallbackPage.ConfigurationError.invalidScheme("1cmp")) {
            try FallbackPage(validating: "1cmp", host: "app", entry: "index.html", files: ["index.html": file])
        }
        #expect(throws: FallbackPage.ConfigurationError.invalidHost("a/b")) {
            try FallbackPage(validating: "webcmp-fallback", host: "a/b", entry: "index.html", files: ["index.html": file])
        }
        #expect(throws: FallbackPage.ConfigurationError.invalidPath("../x.html")) {
            try FallbackPage(validating: "webcmp-fallback", host: "app", entry: "index.html", files: ["index.html": file, "../x.html": file])
        }
        #expect(throws: FallbackPage.ConfigurationError.entryNotRegistered("main.html")) {
            try FallbackPage(validating: "webcmp-fallback", host: "app", entry: "main.html", files: ["index.html": file])
        }
        let error = #expect(throws: ConsentBridgeError.self) { try FallbackPage(scheme: "https", files: ["index.html": file]) }
        #expect(error?.code == .webViewSetupFailed)
        #expect(error?.underlying as? FallbackPage.ConfigurationError == .invalidScheme("https"))
        #expect((try? FallbackPage(scheme: "My-App.cmp+x", host: "Consent", files: ["/index.html": file]))?.origin
            == "my-app.cmp+x://consent")
    }

    @Test func guessesMIMETypesFromExtensions() {
        #expect(FallbackPage.mimeType(forPath: "a/b.JS") == "text/javascript")
        #expect(FallbackPage.mimeType(forPath: "vendor-list.json") == "application/json")
        #expect(FallbackPage.mimeType(forPath: "logo.png") == "image/png")
        #expect(FallbackPage.mimeType(forPath: "README") == "application/octet-stream")
    }

    @Test func refusalDescriptionsAreSanitized() {
        #expect(!FallbackRefusal.notRegistered("/a\nb").description.contains("\n"))
    }
}
