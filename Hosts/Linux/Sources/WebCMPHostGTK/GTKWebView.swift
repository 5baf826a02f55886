import CWebKitGTK
import Foundation
import WebCMPBridge

/// `CMPWebView` on WebKitGTK (webkit2gtk-4.1). An adapter only: it loads, injects, evaluates and forwards.
///
/// **Origin policy on WebKitGTK.** Unlike `WKScriptMessage` (whose `frameInfo` carries the frame and its security
/// origin), WebKitGTK's `script-message-received` signal carries neither, and a handler registered in the page's
/// world can be called from any frame, cross-origin iframes included. This adapter therefore:
/// 1. registers the native handlers only in an isolated script world (`webcmp`), so no frame's page world has a
///    native `window.webkit`;
/// 2. installs, in the page world of the **main frame only**, a frozen `window.webkit.messageHandlers.<name>` shim
///    whose `postMessage` dispatches a private DOM event (the name carries a per-view random nonce) on the top
///    document, synchronously, so order is preserved;
/// 3. installs, in the isolated world of the **main frame only**, a relay that listens for that event and posts
///    `name + "\n" + location.origin + "\n" + JSON text of the body` to the native handler.
/// A cross-origin iframe has no `window.webkit` and cannot reach the top document, so it cannot post at all; every
/// message that arrives is from the main frame and is tagged with its real origin, which the core's origin policy then
/// checks. Cost: a CMP that posts from inside an iframe does not reach the app on Linux (on Apple platforms it is
/// rejected by the core as `notMainFrame`).
@MainActor
package final class GTKWebView: CMPWebView {
    package var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    /// Asked before navigations (see `CMPWebView.navigationPolicy` and ``decidePolicy(_:type:)``).
    package var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    /// Receives the URLs the policy sends out of the consent UI (``NavigationDecision/openExternally(_:)``); the
    /// navigation itself is stopped. The host records them instead of opening a browser.
    package var openExternally: (@MainActor (URL) -> Void)?

    /// The isolated script world of the relay and the native handlers.
    package static let worldName = "webcmp"

    let view: UnsafeMutablePointer<WebKitWebView>
    let window: UnsafeMutablePointer<GtkWidget>
    let contentManager: UnsafeMutablePointer<WebKitUserContentManager>
    private let nonce: String
    private var handlerNames: [String] = []
    private var userScripts: [WebCMPBridge.UserScript] = []
    private var box: Unmanaged<CallbackBox>?
    /// The identity of the last ``load(_:id:)`` whose navigation has not started yet, and of the navigation under way
    /// (`nil`: one the page started itself). Load events carry the latter (``WebViewEvent``).
    private var requestedLoad: WebViewLoadID?
    private(set) var activeLoad: WebViewLoadID?

    /// The view's size in pixels (CSS pixels: the offscreen window has scale 1), as created.
    package let width: Int
    package let height: Int

    /// The default size: a phone's screen in points (390×844, an iPhone 12 to 14).
    package nonisolated static let defaultSize = (width: 390, height: 844)

    /// Creates the web view in an offscreen GTK window of `width`×`height` pixels (default ``defaultSize``), in the
    /// process's web context (``GTKRuntime/webContext``, whose website data follows
    /// ``GTKRuntime/websiteDataDirectory``). Call ``GTKRuntime/initialize()`` first; the page's
    /// `prefers-color-scheme` follows ``GTKRuntime/prefersDarkColorScheme`` when the view is created.
    package init(width: Int = GTKWebView.defaultSize.width, height: Int = GTKWebView.defaultSize.height) {
        self.width = width
        self.height = height
        contentManager = webkit_user_content_manager_new()!
        let widget = webcmp_web_view_new(GTKRuntime.webContext, contentManager)!
        view = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: WebKitWebView.self)
        window = gtk_offscreen_window_new()
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self),
                                    Int32(width), Int32(height))
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
        gtk_container_add(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkContainer.self), widget)
        gtk_widget_show_all(window)
        for object in [UnsafeMutableRawPointer(widget), UnsafeMutableRawPointer(contentManager)] {
            GTKWebView.nativeObjectsAlive += 1
            g_object_weak_ref(UnsafeMutablePointer<GObject>(OpaquePointer(object)), nativeObjectFinalized, nil)
        }
        nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let box = Unmanaged.passRetained(CallbackBox(self))
        self.box = box
        connect("load-changed", loadChanged, box)
        connect("load-failed", loadFailed, box)
        connect("web-process-terminated", processTerminated, box)
        connect("decide-policy", decidePolicyCallback, box)
        connect("create", createCallback, box)
    }

    /// Destroys the GTK objects. The web view cannot be used afterwards; calling `close()` again does nothing.
    ///
    /// Disconnects every signal handler this adapter connected (on the web view and on the user content manager)
    /// before it lets go of the callback box, so no late signal reaches freed memory, then drops the content
    /// manager's reference this adapter owns.
    package func close() {
        guard let box else { return }
        eventHandler = nil
        let data = box.toOpaque()
        for instance in [UnsafeMutableRawPointer(view), UnsafeMutableRawPointer(contentManager)] {
            g_signal_handlers_disconnect_matched(instance, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, data)
        }
        for name in handlerNames { removeMessageHandler(named: name) }
        webkit_user_content_manager_remove_all_scripts(contentManager)
        gtk_widget_destroy(window)
        g_object_unref(UnsafeMutableRawPointer(contentManager))
        box.takeUnretainedValue().target = nil
        box.release()
        self.box = nil
    }

    /// How many of the WebKit objects the adapters created (one web view and one user content manager each) GLib has
    /// not finalized yet. After ``close()`` both go: a count that grows over create/close cycles means a GObject
    /// reference is leaked.
    package internal(set) static var nativeObjectsAlive = 0

    /// Whether ``close()`` has run; every operation is then a no-op.
    package var isClosed: Bool { box == nil }

    // MARK: CMPWebView

    /// How many times ``load(_:)`` was called (a pre-warmed view that is presented must not load again).
    package private(set) var loadCount = 0

    package func load(_ url: URL, id: WebViewLoadID) {
        guard !isClosed else { return }
        loadCount += 1
        requestedLoad = id
        webkit_web_view_load_uri(view, url.absoluteString)
    }

    /// Loads `url` outside any bridge (the host's own pages: `about:blank`, content pages).
    package func load(_ url: URL) {
        load(url, id: WebViewLoadID(rawValue: 0))
    }

    /// Loads `url` outside any bridge with `headers` on the document request (a `WebKitURIRequest` whose
    /// `SoupMessageHeaders` the host fills, loaded with `webkit_web_view_load_request`): how the host's content
    /// loads carry `Sec-GPC: 1`. Only that request gets them; WebKitGTK adds nothing to its subresources or frames.
    package func load(_ url: URL, headers: [String: String]) {
        guard !isClosed else { return }
        guard !headers.isEmpty, let request = webkit_uri_request_new(url.absoluteString) else { return load(url) }
        defer { g_object_unref(request) }
        if let fields = webkit_uri_request_get_http_headers(request) {
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                soup_message_headers_replace(fields, name, value)
            }
        }
        loadCount += 1
        requestedLoad = WebViewLoadID(rawValue: 0)
        webkit_web_view_load_request(view, request)
    }

    package func addUserScript(_ script: WebCMPBridge.UserScript) {
        guard !isClosed else { return }
        userScripts.append(script)
        installScripts()
    }

    package func removeAllUserScripts() {
        guard !isClosed else { return }
        userScripts.removeAll()
        installScripts()
    }

    package func evaluateJavaScript(_ source: String) {
        guard !isClosed else { return }
        webkit_web_view_evaluate_javascript(view, source, -1, nil, nil, nil, nil, nil)
    }

    /// Each adapter has its own user content manager, so a name can only be taken by this adapter itself.
    package func addMessageHandler(named name: String) throws(ConsentBridgeError) {
        guard !isClosed, !handlerNames.contains(name) else { return }
        handlerNames.append(name)
        webkit_user_content_manager_register_script_message_handler_in_world(
            contentManager, name, GTKWebView.worldName)
        if let box { connect("script-message-received::\(name)", messageReceived, box, on: UnsafeMutableRawPointer(contentManager)) }
        installScripts()
    }

    package func removeMessageHandler(named name: String) {
        guard let index = handlerNames.firstIndex(of: name) else { return }
        handlerNames.remove(at: index)
        webkit_user_content_manager_unregister_script_message_handler_in_world(
            contentManager, name, GTKWebView.worldName)
        installScripts()
    }

    // MARK: Host helpers (not part of the contract)

    /// Evaluates the JavaScript expression `expression` in the main frame's page world, awaits it when it is a
    /// promise, and returns the result as JSON text (`nil` for `undefined` or on error).
    package func evaluate(_ expression: String) async -> String? {
        guard !isClosed else { return nil }
        let body = "return (\(expression)\n);"
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let request = Unmanaged.passRetained(EvaluationBox(continuation))
            webkit_web_view_call_async_javascript_function(
                view, body, -1, nil, nil, nil, nil, evaluationFinished, request.toOpaque())
        }
    }

    /// Why ``writeSnapshot(toPNG:)`` wrote no image.
    package struct SnapshotError: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// The size in pixels of the image written, or why none was.
    package typealias SnapshotResult = Result<(width: Int, height: Int), SnapshotError>

    /// Writes what the view shows — its visible region (`WEBKIT_SNAPSHOT_REGION_VISIBLE`), as an app user sees it —
    /// as a PNG file at `path` (`webkit_web_view_get_snapshot`, then cairo) and returns the image's size in pixels.
    package func writeSnapshot(toPNG path: String) async -> SnapshotResult {
        guard !isClosed else { return .failure(SnapshotError(description: "the web view is closed")) }
        return await withCheckedContinuation { continuation in
            let request = Unmanaged.passRetained(SnapshotBox(path: path, continuation))
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                                         snapshotFinished, request.toOpaque())
        }
    }

    // MARK: Scripts

    /// Re-installs, in order: the page-world shim and the isolated-world relay (for the registered handlers), then the
    /// user scripts the bridge added.
    private func installScripts() {
        webkit_user_content_manager_remove_all_scripts(contentManager)
        if !handlerNames.isEmpty {
            add(shimSource, world: nil, mainFrameOnly: true, atStart: true)
            add(relaySource, world: GTKWebView.worldName, mainFrameOnly: true, atStart: true)
        }
        for script in userScripts {
            add(script.source, world: nil, mainFrameOnly: script.forMainFrameOnly, atStart: script.injectionTime == .documentStart)
        }
    }

    private func add(_ source: String, world: String?, mainFrameOnly: Bool, atStart: Bool) {
        let frames = mainFrameOnly ? WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES
        let time = atStart ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        let script: OpaquePointer?
        if let world {
            script = webkit_user_script_new_for_world(source, frames, time, world, nil, nil)
        } else {
            script = webkit_user_script_new(source, frames, time, nil, nil)
        }
        guard let script else { return }
        webkit_user_content_manager_add_script(contentManager, script)
        webkit_user_script_unref(script)
    }

    private var eventName: String { "__webcmp_relay_" + nonce }

    private var shimSource: String {
        let names = JavaScriptLiteral.expression(.array(handlerNames.map(JSONValue.string)))
        let event = JavaScriptLiteral.string(eventName)
        // The body is serialised here, in the page's world, with the JSON.stringify the page had when the shim was
        // installed (before any page script): only a string crosses into the relay's world, so nothing is lost to
        // structured cloning, and a body with no JSON form (a function, a cycle) arrives as an empty text, which the
        // core reports as an invalid message instead of it being dropped silently.
        return """
            (function () {
              var names = \(names), eventName = \(event), handlers = {};
              var dispatch = document.dispatchEvent.bind(document);
              var stringify = JSON.stringify;
              var Custom = CustomEvent;
              names.forEach(function (name) {
                handlers[name] = Object.freeze({ postMessage: function (body) {
                  var text;
                  try { text = stringify(body); } catch (e) { text = ''; }
                  dispatch(new Custom(eventName, { detail: name + '\\n' + (typeof text === 'string' ? text : '') }));
                } });
              });
              var webkit = Object.freeze({ messageHandlers: Object.freeze(handlers) });
              try { Object.defineProperty(window, 'webkit', { value: webkit, configurable: false, writable: false }); } catch (e) {}
            })();
            """
    }

    private var relaySource: String {
        let event = JavaScriptLiteral.string(eventName)
        return """
            (function () {
              document.addEventListener(\(event), function (event) {
                var detail = event.detail;
                if (typeof detail !== 'string') { return; }
                var newline = detail.indexOf('\\n');
                var handler = newline > 0 && window.webkit && window.webkit.messageHandlers[detail.slice(0, newline)];
                if (!handler) { return; }
                handler.postMessage(detail.slice(0, newline) + '\\n' + location.origin + detail.slice(newline));
              });
            })();
            """
    }

    // MARK: Signals

    /// Splits the relay's `name \n origin \n JSON` payload and forwards it, for registered handlers only.
    fileprivate func deliverTagged(_ payload: String) {
        let parts = payload.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, handlerNames.contains(String(parts[0])) else { return }
        eventHandler?(.message(ScriptMessage(
            handlerName: String(parts[0]), body: .json(String(parts[2])), isMainFrame: true, origin: String(parts[1]))))
    }

    fileprivate func loadDidChange(_ event: WebKitLoadEvent) {
        // A navigation begins: the one the last load(_:id:) asked for, or (none pending) one the page started.
        if event == WEBKIT_LOAD_STARTED {
            activeLoad = requestedLoad
            requestedLoad = nil
        }
        // The main document's HTTP status is reported from its response policy decision (GTKWebView+Navigation).
        guard event == WEBKIT_LOAD_FINISHED else { return }
        let uri = webkit_web_view_get_uri(view).map { String(cString: $0) }
        eventHandler?(.didFinishLoading(uri.flatMap(URL.init(string:)), load: activeLoad))
    }

    /// Reports the failure as WebKitGTK gives it — cancelled (a replaced load) and interrupted by the policy included —
    /// with the failing URI of the signal; the core decides what it means (``WebViewLoadFailure/kind``).
    fileprivate func loadDidFail(uri: String?, domain: String, code: Int, message: String) {
        eventHandler?(.didFailLoading(
            WebViewLoadFailure(url: uri.flatMap(URL.init(string:)), domain: domain, code: code, description: message),
            load: activeLoad))
    }

    /// Ends the web content process, as iOS does to apps in the background (`webkit_web_view_terminate_web_process`);
    /// `web-process-terminated` follows.
    package func terminateWebProcess() {
        guard !isClosed else { return }
        webkit_web_view_terminate_web_process(view)
    }

    fileprivate func processDidTerminate() {
        eventHandler?(.contentProcessDidTerminate)
    }

    private func connect(_ signal: String, _ callback: GCallback, _ box: Unmanaged<CallbackBox>, on instance: UnsafeMutableRawPointer? = nil) {
        g_signal_connect_data(instance ?? UnsafeMutableRawPointer(view), signal, callback, box.toOpaque(), nil, GConnectFlags(rawValue: 0))
    }
}

/// Carries the adapter into C callbacks without retaining it twice.
final class CallbackBox: @unchecked Sendable {
    weak var target: GTKWebView?
    init(_ target: GTKWebView) { self.target = target }
}

/// Carries an evaluation's continuation through GLib's async callback.
final class EvaluationBox: @unchecked Sendable {
    let continuation: CheckedContinuation<String?, Never>
    init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }
}

private let evaluationFinished: GAsyncReadyCallback = { source, result, userData in
    guard let userData else { return }
    let box = Unmanaged<EvaluationBox>.fromOpaque(userData).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let view = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self)
    guard let view, let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error) else {
        if let error { g_error_free(error) }
        box.continuation.resume(returning: nil)
        return
    }
    defer { g_object_unref(UnsafeMutableRawPointer(value)) }
    guard let json = jsc_value_to_json(value, 0) else {
        box.continuation.resume(returning: nil)
        return
    }
    defer { g_free(json) }
    box.continuation.resume(returning: String(cString: json))
}

/// Carries a snapshot's target file and continuation through GLib's async callback.
final class SnapshotBox: @unchecked Sendable {
    let path: String
    let continuation: CheckedContinuation<GTKWebView.SnapshotResult, Never>
    init(path: String, _ continuation: CheckedContinuation<GTKWebView.SnapshotResult, Never>) {
        self.path = path
        self.continuation = continuation
    }
}

private let snapshotFinished: GAsyncReadyCallback = { source, result, userData in
    guard let userData else { return }
    let box = Unmanaged<SnapshotBox>.fromOpaque(userData).takeRetainedValue()
    func failure(_ text: String) { box.continuation.resume(returning: .failure(GTKWebView.SnapshotError(description: text))) }
    var error: UnsafeMutablePointer<GError>?
    let view = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self)
    guard let view, let surface = webkit_web_view_get_snapshot_finish(view, result, &error) else {
        let message = error.map { String(cString: $0.pointee.message) } ?? "WebKit returned no image"
        if let error { g_error_free(error) }
        return failure("no snapshot: \(message)")
    }
    defer { cairo_surface_destroy(surface) }
    // WebKitGTK (GTK 3) returns an image surface; map any other kind to one to learn its size.
    let image = cairo_surface_map_to_image(surface, nil)
    let width = Int(cairo_image_surface_get_width(image))
    let height = Int(cairo_image_surface_get_height(image))
    cairo_surface_unmap_image(surface, image)
    let status = cairo_surface_write_to_png(surface, box.path)
    guard status == CAIRO_STATUS_SUCCESS else {
        return failure("cannot write \(box.path): \(cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo error")")
    }
    box.continuation.resume(returning: .success((width, height)))
}

private let nativeObjectFinalizedFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GObject>?) -> Void = {
    _, _ in MainActor.assumeIsolated { GTKWebView.nativeObjectsAlive -= 1 }
}
private let nativeObjectFinalized = nativeObjectFinalizedFunction

private let messageReceivedFunction: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    _, result, userData in
    guard let result, let userData,
        let value = webkit_javascript_result_get_js_value(result),
        jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value)
    else { return }
    let payload = String(cString: text)
    g_free(text)
    // The callback does not get the signal detail (the handler name); the relay puts the name in the payload.
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    MainActor.assumeIsolated { box.target?.deliverTagged(payload) }
}
private let messageReceived = unsafeBitCast(messageReceivedFunction, to: GCallback.self)

private let loadChangedFunction: @convention(c) (OpaquePointer?, UInt32, UnsafeMutableRawPointer?) -> Void = {
    _, event, userData in
    guard let userData else { return }
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    MainActor.assumeIsolated { box.target?.loadDidChange(WebKitLoadEvent(rawValue: event)) }
}
private let loadChanged = unsafeBitCast(loadChangedFunction, to: GCallback.self)

private let loadFailedFunction: @convention(c) (OpaquePointer?, UInt32, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, uri, error, userData in
    guard let userData else { return 0 }
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    let message = error.map { String(cString: $0.pointee.message) } ?? "load failed"
    let domain = error.flatMap { g_quark_to_string($0.pointee.domain) }.map { String(cString: $0) } ?? ""
    let code = Int(error?.pointee.code ?? 0)
    let failing = uri.map { String(cString: $0) }
    let interrupted = error.map(GTKWebView.isInterruptedByPolicy) ?? false
    MainActor.assumeIsolated { box.target?.loadDidFail(uri: failing, domain: domain, code: code, message: message) }
    // Handled: WebKit must not load its own error page, which would replace a page the bridge loads in reaction
    // (the app's fallback page). WKWebView shows no error page either. A policy interruption has none anyway.
    return interrupted ? 0 : 1
}
private let loadFailed = unsafeBitCast(loadFailedFunction, to: GCallback.self)

private let processTerminatedFunction: @convention(c) (OpaquePointer?, UInt32, UnsafeMutableRawPointer?) -> Void = {
    _, _, userData in
    guard let userData else { return }
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    MainActor.assumeIsolated { box.target?.processDidTerminate() }
}
private let processTerminated = unsafeBitCast(processTerminatedFunction, to: GCallback.self)
