import SwiftUI
import WebKit
import WebCMPBridgeUI

struct ContentView: View {
    @EnvironmentObject private var consent: ConsentModel

    var body: some View {
        NavigationStack {
            List {
                Section("Consent") {
                    Button("Privacy settings") { consent.openPrivacySettings() }
                    Text(consent.lastEvent.isEmpty ? "No event yet" : consent.lastEvent)
                        .font(.footnote).foregroundStyle(.secondary)
                }
                Section("Content") {
                    NavigationLink("Article (content web view)") {
                        ArticleView(store: consent.store)
                    }
                }
                Section("Debug") {
                    NavigationLink("Stored IAB keys (\(consent.keys.count))") { KeysView() }
                    Button("Reset consent (QA)") { consent.resetForQA() }
                    #if canImport(_WebKit_SwiftUI) && compiler(>=6.2)
                    if #available(iOS 26.0, *) {
                        NavigationLink("CMP page in a WebPage (iOS 26)") {
                            WebPageConsentScreen(makeBridge: consent.makeBridge)
                        }
                    }
                    #endif
                    TextField("CMP URL", text: consent.$cmpURL)
                        .textInputAutocapitalization(.never).autocorrectionDisabled()
                        .font(.footnote.monospaced())
                }
            }
            .navigationTitle("WebCMPBridge")
        }
        // One bridge per presentation: the modifier calls makeBridge when the sheet is about to show.
        .consentPrompt(isPresented: $consent.isPresented, bridge: consent.makeBridge, onEvent: consent.handle,
                       onFinish: consent.finished)
    }
}

struct KeysView: View {
    @EnvironmentObject private var consent: ConsentModel

    var body: some View {
        List(consent.keys, id: \.0) { key, value in
            VStack(alignment: .leading) {
                Text(key).font(.footnote.bold())
                Text(value).font(.footnote.monospaced()).lineLimit(3)
            }
        }
        .navigationTitle("IABTCF_* / IABGPP_*")
        .onAppear { consent.refreshKeys() }
    }
}

/// A content web view that receives the stored consent through a native-backed `__tcfapi` (the page has no CMP of its
/// own). No `_sp_pass_consent=true`: the library no longer adds it (a Sourcepoint page would wait for Sourcepoint's
/// own message, which the kit does not send).
struct ArticleView: UIViewRepresentable {
    let store: ConsentStore

    func makeUIView(context: Context) -> WKWebView {
        let webView = WKWebView()
        let html = """
            <meta name=viewport content="width=device-width">
            <h1>Article</h1><p id=consent>Reading consent…</p>
            <script>
              __tcfapi('getTCData', 2, function (data, ok) {
                document.getElementById('consent').textContent = ok ? 'TC string from the app: ' + data.tcString : 'no consent stored';
              });
            </script>
            """
        webView.preloadConsent(from: store)
        webView.loadHTMLString(html, baseURL: URL(string: "https://news.example/article")!)
        return webView
    }

    func updateUIView(_ webView: WKWebView, context: Context) {}
}
