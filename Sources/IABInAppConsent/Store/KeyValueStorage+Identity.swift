import Foundation

extension KeyValueStorage {
    /// Which storage a `KeyValueStorage` value writes to. Every ``ConsentStore`` over storages of one identity
    /// shares one lock, one stream of changes and one consent-UI hold (``ConsentUIHolds``); stores over different
    /// identities share nothing.
    ///
    /// - A `UserDefaults` storage (``ConsentStore/userDefaults(suiteName:)``) has the same identity for the same suite
    ///   name in the whole process (`nil`, `UserDefaults.standard`, is one suite), so that two stores created
    ///   separately over one suite, which write the same keys, are serialised against each other and see each other's
    ///   changes. It is kept for the life of the process (one small object per suite name used).
    /// - Every in-memory storage (``ConsentStore/inMemory()``) and every custom storage has an identity of its own.
    /// - Copies of a storage value keep its identity, also after their closures are replaced.
    ///
    /// Pass it as the `object` of a ``ConsentStore/didChangeNotification`` observer to hear about one storage only.
    /// Identities compare by reference.
    package final class Identity: Hashable, CustomStringConvertible, Sendable {
        /// What the storage is, for logs: `UserDefaults.standard`, `UserDefaults suite "name"`, `in-memory storage`
        /// or `custom storage`.
        package let description: String

        /// Serialises ``ConsentStore``'s writes and multi-key reads of this storage, so that concurrent
        /// ``ConsentStore/apply(_:record:context:now:)`` calls never leave a mix of two key sets (stale-key removal reads, then
        /// writes) and ``ConsentStore/record(includingNonTCFData:)`` never pairs one apply's record with another's
        /// non-TCF data. Stores of other storages never wait for it. Uncontended, it costs well under a microsecond.
        private let lock = NSLock()

        /// How many times ``withLock(_:)`` took the lock (read and written under it).
        nonisolated(unsafe) private var acquisitions = 0

        /// How many times the storage's lock was taken so far: a save takes it once (the tests and `webcmp bench`
        /// count it around one).
        package var lockAcquisitions: Int {
            lock.lock()
            defer { lock.unlock() }
            return acquisitions
        }

        /// The continuations of this storage's ``ConsentStore/changes()`` streams.
        let listeners = ConsentChangeListeners()

        /// Whether a consent UI is in progress over this storage (whoever shows one holds it).
        package let consentUIHolds = ConsentUIHolds()

        /// Creates a new identity described by `description`.
        init(_ description: String) {
            self.description = description
        }

        /// Runs `body` holding this storage's lock (see ``ConsentStore``: its transactions).
        func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
            lock.lock()
            defer { lock.unlock() }
            acquisitions &+= 1
            return try body()
        }

        /// The one identity of the `UserDefaults` suite `suiteName` (`nil`: `UserDefaults.standard`) in this process.
        static func userDefaults(suiteName: String?) -> Identity {
            SuiteIdentities.shared.identity(suiteName: suiteName)
        }

        /// Whether `lhs` and `rhs` are the same identity (the same object).
        package static func == (lhs: Identity, rhs: Identity) -> Bool {
            lhs === rhs
        }

        /// Hashes the object's address.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(self))
        }
    }
}

/// The identities of the `UserDefaults` suites opened in this process, by suite name. `@unchecked Sendable`: every
/// access holds `lock`.
private final class SuiteIdentities: @unchecked Sendable {
    static let shared = SuiteIdentities()
    private let lock = NSLock()
    private var identities: [String?: KeyValueStorage.Identity] = [:]

    /// The identity of `suiteName`, created on first use.
    func identity(suiteName: String?) -> KeyValueStorage.Identity {
        lock.lock()
        defer { lock.unlock() }
        if let existing = identities[suiteName] { return existing }
        let created = KeyValueStorage.Identity(
            suiteName.map { "UserDefaults suite \(UntrustedText.quoted($0))" } ?? "UserDefaults.standard")
        identities[suiteName] = created
        return created
    }
}
