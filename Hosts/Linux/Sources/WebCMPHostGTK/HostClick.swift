import Foundation
import WebCMPBridge

/// The host's one click routine (`run`, `check`, `prewarm`): it clicks only what a person could click.
///
/// An element is clicked when the document is complete and the element, scrolled into view, has a size, is not
/// `visibility: hidden`, has no ancestor (itself included) with `opacity: 0`, has its centre point inside the viewport,
/// and is the element on top at that point (`document.elementFromPoint`, so an element covered by another one, moved
/// off-screen by a transform, or with `pointer-events: none` is not clicked). CMPs that hide an inactive layer that way
/// must not be "clicked" where a person could not.
///
/// A slow CMP is not a non-conforming one: while an element that is not clickable yet, an ancestor or a descendant
/// runs a finite animation or CSS transition (`document.getAnimations()`, Web Animations: CSS animations and
/// transitions are listed there while they run, delay included), the host waits for it to finish (up to the run's
/// timeout) and starts the grace (``notClickableGrace``, scaled by `--slow-factor`) only then. An infinite animation
/// (a spinner) never finishes and is not waited for.
package enum HostClick {
    /// What one attempt found.
    package enum Attempt: Equatable, Sendable {
        /// The element was clicked.
        case clicked
        /// The document or the element is not there yet, or the element has no size (not rendered).
        case waiting
        /// The element is there but a person could not click it; the reason says why.
        case notClickable(String)
        /// Not clickable yet (the reason says why) while it, an ancestor or a descendant is still animating in.
        case animating(String)
    }

    /// How long an element that is there but not clickable is retried before the click fails (CMPs animate layers in).
    package static let notClickableGrace: TimeInterval = 3

    /// The expression that tries one click on the element with `id` (the id goes through the JSON literal builder).
    /// The answer is `'clicked'`, `'wait'`, the reason it is not clickable, or `{animating: reason}`.
    package static func script(id: String) -> String {
        """
        (function (id) {
          if (document.readyState !== 'complete') { return 'wait'; }
          var element = document.getElementById(id);
          if (!element) { return 'wait'; }
          if (element.scrollIntoView) { element.scrollIntoView({ block: 'center', inline: 'center' }); }
          var box = element.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) { return 'wait'; }
          var why = (function () {
            var style = getComputedStyle(element);
            if (style.visibility === 'hidden' || style.visibility === 'collapse') { return 'visibility: hidden'; }
            for (var node = element; node && node.nodeType === 1; node = node.parentElement) {
              if (Number(getComputedStyle(node).opacity) === 0) { return 'opacity 0' + (node === element ? '' : ' (an ancestor)'); }
            }
            var x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) { return 'its centre is outside the viewport'; }
            var top = document.elementFromPoint(x, y);
            if (!top || (top !== element && !element.contains(top))) { return 'another element covers its centre'; }
            return null;
          })();
          if (why === null) { element.click(); return 'clicked'; }
          // Still animating in: a finite running animation on the element, an ancestor or a descendant.
          var animating = typeof document.getAnimations === 'function' && document.getAnimations().some(function (a) {
            var target = a.effect && a.effect.target;
            if (!target || a.playState !== 'running' || !a.effect.getComputedTiming) { return false; }
            if (!isFinite(a.effect.getComputedTiming().endTime)) { return false; }
            return target === element || (target.contains && (target.contains(element) || element.contains(target)));
          });
          return animating ? { animating: why } : why;
        })(\(JavaScriptLiteral.string(id)))
        """
    }

    /// The attempt an evaluation result (JSON text) stands for.
    package static func attempt(fromJSON text: String?) -> Attempt {
        guard let text, let value = try? JSONValue(parsing: text) else { return .waiting }
        if let reason = value["animating"]?.stringValue { return .animating(reason) }
        guard let state = value.stringValue else { return .waiting }
        switch state {
        case "clicked": return .clicked
        case "wait": return .waiting
        default: return .notClickable(state)
        }
    }

    /// Clicks `id` in `view`, retrying until `deadline` (an element that stays not clickable, and no longer
    /// animates, fails after `grace`: ``notClickableGrace`` times the slow factor); returns `nil` when clicked,
    /// otherwise why not.
    @MainActor
    package static func click(
        _ id: String, in view: GTKWebView, until deadline: Date, grace: TimeInterval = notClickableGrace,
        stop: () -> Bool = { false }
    ) async -> String? {
        var notClickableSince: Date?
        var reason = "no visible element with id '\(id)'"
        while Date() < deadline, !stop() {
            switch attempt(fromJSON: await view.evaluate(script(id: id))) {
            case .clicked:
                return nil
            case .waiting:
                notClickableSince = nil
            case .animating(let why):
                // The grace starts once its animations have finished; the deadline bounds the wait.
                reason = "the element with id '\(id)' is there but not clickable: \(why) (still animating)"
                notClickableSince = nil
            case .notClickable(let why):
                reason = "the element with id '\(id)' is there but not clickable: \(why)"
                let since = notClickableSince ?? Date()
                notClickableSince = since
                if Date().timeIntervalSince(since) >= grace { return reason }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return reason
    }
}
