import Foundation
import Testing
@testable import WebCMPBridge

/// ``TrackingPrompt`` as a table: every row feeds a new prompt its inputs and compares each one's effects. The prompt
/// never settles an answer while its alert may be on screen, and never turns "not determined" into "denied".
@Suite struct TrackingPromptTests {
    typealias Step = (input: TrackingPrompt.Input, effects: [TrackingPrompt.Effect])

    struct Row: @unchecked Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        let progress: TrackingPrompt.Progress
        var testDescription: String { name }

        init(_ name: String, _ steps: [Step], progress: TrackingPrompt.Progress) {
            self.name = name
            self.steps = steps
            self.progress = progress
        }
    }

    static let early: TrackingPrompt.Input = .answered(.success(.denied), statusNow: .notDetermined)
    static let requested: [Step] = [(.appActive, [.request])]
    static let settling: [Step] = requested + [(early, [.openSettleWindow])]

    static let rows: [Row] = [
        Row("nothing happens before the app is active",
            [(.answered(.success(.authorized), statusNow: .authorized), []), (.becameActive, []),
             (.settleWindowEnded, []), (.statusRead(.denied), [])],
            progress: .waitingForActiveApp),
        Row("an active app: the request", requested, progress: .requesting),
        Row("a second activation makes no second request", requested + [(.appActive, [])], progress: .requesting),
        Row("the user's answer settles at once",
            requested + [(.answered(.success(.authorized), statusNow: .authorized), [.settled(.success(.authorized))])],
            progress: .settled),
        Row("a denial the status agrees with settles at once",
            requested + [(.answered(.success(.denied), statusNow: .denied), [.settled(.success(.denied))])],
            progress: .settled),
        Row("an answer without a status read stands",
            requested + [(.answered(.success(.denied), statusNow: nil), [.settled(.success(.denied))])],
            progress: .settled),
        Row("a failed request settles with its error",
            requested + [(
                .answered(.failure(.trackingAuthorizationFailed(.missingUsageDescription)), statusNow: .notDetermined),
                [.settled(.failure(.trackingAuthorizationFailed(.missingUsageDescription)))]
            )],
            progress: .settled),
        Row("an early denial settles first: the alert may still be on screen", settling, progress: .settling),
        Row("an early 'not determined' settles first too",
            requested + [(.answered(.success(.notDetermined), statusNow: .notDetermined), [.openSettleWindow])],
            progress: .settling),
        Row("the next activation reads the status again; the user's answer settles",
            settling + [(.becameActive, [.readStatus]),
                        (.statusRead(.authorized), [.closeSettleWindow, .settled(.success(.authorized))])],
            progress: .settled),
        Row("the end of the window reads it too",
            settling + [(.settleWindowEnded, [.readStatus]),
                        (.statusRead(.denied), [.closeSettleWindow, .settled(.success(.denied))])],
            progress: .settled),
        Row("still not determined at the window's end: not denied; one more request once the app is active",
            settling + [(.settleWindowEnded, [.readStatus]),
                        (.statusRead(.notDetermined), [.closeSettleWindow, .waitUntilActive]),
                        (.appActive, [.request])],
            progress: .requesting),
        Row("an activation that finds the status still not determined was not the alert's end: settling goes on",
            settling + [(.becameActive, [.readStatus]),
                        (.statusRead(.notDetermined), []),
                        (.becameActive, [.readStatus]),
                        (.statusRead(.notDetermined), []),
                        (.settleWindowEnded, [.readStatus]),
                        (.statusRead(.notDetermined), [.closeSettleWindow, .waitUntilActive])],
            progress: .waitingForActiveApp),
        Row("still not determined after the second request: ends not determined",
            settling + [(.settleWindowEnded, [.readStatus]),
                        (.statusRead(.notDetermined), [.closeSettleWindow, .waitUntilActive]),
                        (.appActive, [.request]),
                        (early, [.openSettleWindow]),
                        (.settleWindowEnded, [.readStatus]),
                        (.statusRead(.notDetermined), [.closeSettleWindow, .settled(.success(.notDetermined))])],
            progress: .settled),
        Row("the second request answered by the user settles with the answer",
            settling + [(.settleWindowEnded, [.readStatus]),
                        (.statusRead(.notDetermined), [.closeSettleWindow, .waitUntilActive]),
                        (.appActive, [.request]),
                        (.answered(.success(.authorized), statusNow: .authorized), [.settled(.success(.authorized))])],
            progress: .settled),
        Row("a status read nobody asked for, or a second answer, changes nothing",
            requested + [(.statusRead(.authorized), []),
                         (.answered(.success(.authorized), statusNow: .authorized), [.settled(.success(.authorized))]),
                         (.answered(.success(.denied), statusNow: .denied), []), (.appActive, []), (.becameActive, [])],
            progress: .settled),
    ]

    @Test(arguments: rows)
    func thePromptSettlesOnlyOnceItsAlertIsGone(_ row: Row) {
        var prompt = TrackingPrompt()
        for (index, step) in row.steps.enumerated() {
            #expect(prompt.handle(step.input) == step.effects, "\(row.name), step \(index + 1)")
        }
        #expect(prompt.progress == row.progress, "\(row.name)")
        #expect(prompt.requests <= TrackingPrompt.maximumRequests)
    }
}
