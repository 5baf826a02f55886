/// The rules of one postMessage protocol a hosted CMP page speaks: what it decodes, when its page is ready, when its
/// UI ends, how its privacy settings open and what the bridge injects. One type per dialect, one file each
/// (``GravitoDialect``, ``OnesecondbeforeDialect``, ``GenericTCFDialect``), registered in ``DialectRegistry``;
/// ``BridgeMachine`` and ``DialectDetection`` ask these properties and never name a dialect.
///
/// A dialect is a value: pure, `Sendable`, with no state of its own (the run's state is the machine's).
protocol MessageDialect: Sendable {
    /// The dialect's name.
    var dialect: CMPDialect { get }
    /// The script message handler the page posts to.
    var handlerName: String { get }
    /// The user scripts the bridge adds to the CMP page while it listens to this dialect.
    var userScripts: [UserScript] { get }
    /// Whether this is a generic listener that runs on every page (the TCF forwarder): automatic detection fixes it
    /// only by consent or a shown UI, and an app protocol takes over from it (``DialectDetection``).
    var isGenericListener: Bool { get }
    /// Decodes one posted object (untrusted; every field type-checked).
    func decode(_ fields: MessageFields) throws(InboundMessageError) -> CMPMessage
    /// Whether a ready message is answered with the stored record (Gravito's `cookieData`), posted to the asking
    /// page's origin only.
    var answersReadyWithStoredRecord: Bool { get }
    /// Whether a save the user made (or a page's "GDPR does not apply") ends the UI. `false` for a dialect with its
    /// own close message.
    var userSaveEndsUI: Bool { get }
    /// Whether, when the app configured this dialect, the finished main-frame load counts as ready (a dialect
    /// without a ready message).
    var finishedLoadIsReady: Bool { get }
    /// Whether the page reports its UI shown and settings calls' results, so that privacy settings open on evidence
    /// (``SettingsOpening``); otherwise, in settings mode, the generic listener is heard beside it for that evidence
    /// (``DialectDetection``) and the ready message never counts.
    var reportsUIShown: Bool { get }
    /// How privacy settings open when the app configured none (``PrivacySettingsOpener/default(for:)``).
    var defaultSettingsOpener: PrivacySettingsOpener { get }
}

extension MessageDialect {
    var userScripts: [UserScript] { [] }
    var isGenericListener: Bool { false }
    var answersReadyWithStoredRecord: Bool { false }
    var userSaveEndsUI: Bool { true }
    var finishedLoadIsReady: Bool { false }
    var reportsUIShown: Bool { false }
    var defaultSettingsOpener: PrivacySettingsOpener {
        PrivacySettingsOpener(queryItems: [PrivacySettingsOpener.layerQueryItem])
    }
}
