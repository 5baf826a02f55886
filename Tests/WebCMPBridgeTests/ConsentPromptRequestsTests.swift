import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Table tests of ``ConsentPromptRequests``: every fact from every sheet state, requested or not.
@Suite struct ConsentPromptRequestsTests {
    typealias Requests = ConsentPromptRequests
    typealias Input = Requests.Input
    typealias Effect = Requests.Effect
    typealias Sheet = Requests.Sheet

    struct State: Hashable, CustomStringConvertible {
        var requested: Bool
        var sheet: Sheet
        var description: String { "\(sheet)\(requested ? ", requested" : "")" }
    }

    /// The facts that lead into each reachable state.
    static let setups: [State: [Input]] = [
        State(requested: false, sheet: .none): [],
        State(requested: true, sheet: .beginning): [.requested],
        State(requested: true, sheet: .up): [.requested, .began],
        State(requested: false, sheet: .closing): [.requested, .began, .withdrawn],
        State(requested: true, sheet: .closing): [.requested, .began, .withdrawn, .requested],
        State(requested: false, sheet: .beginning): [.requested, .withdrawn],
    ]

    static let table: [State: [Input: ([Effect], State)]] = {
        let none = State(requested: false, sheet: .none)
        let beginning = State(requested: true, sheet: .beginning)
        let up = State(requested: true, sheet: .up)
        let closing = State(requested: false, sheet: .closing)
        let closingAskedAgain = State(requested: true, sheet: .closing)
        return [
            none: [
                .requested: ([.begin], beginning), .withdrawn: ([], none), .began: ([], none),
                .refused: ([], none), .sheetGone: ([], none),
            ],
            beginning: [
                .requested: ([], beginning), .withdrawn: ([], State(requested: false, sheet: .beginning)),
                .began: ([], up), .refused: ([.clearRequest], none), .sheetGone: ([], beginning),
            ],
            up: [
                .requested: ([], up), .withdrawn: ([.withdraw], closing), .began: ([], up), .refused: ([], up),
                .sheetGone: ([.begin], beginning),   // gone on its own (a swipe) while its binding was still true
            ],
            State(requested: false, sheet: .beginning): [
                .requested: ([], beginning), .withdrawn: ([], State(requested: false, sheet: .beginning)),
                .began: ([.withdraw], closing), .refused: ([.clearRequest], none),
                .sheetGone: ([], State(requested: false, sheet: .beginning)),
            ],
            closing: [
                .requested: ([], closingAskedAgain), .withdrawn: ([], closing), .began: ([], closing),
                .refused: ([], closing), .sheetGone: ([], none),
            ],
            closingAskedAgain: [
                .requested: ([], closingAskedAgain), .withdrawn: ([], closing), .began: ([], closingAskedAgain),
                .refused: ([], closingAskedAgain),
                .sheetGone: ([.begin], beginning),   // asked again after onDismiss, still requested
            ],
        ]
    }()

    static func requests(in state: State) -> Requests {
        var requests = Requests()
        for fact in setups[state] ?? [] { _ = requests.handle(fact) }
        return requests
    }

    @Test func everyFactFromEveryStateHasOneAnswer() {
        #expect(Set(Self.table.keys) == Set(Self.setups.keys))
        for (state, row) in Self.table {
            let start = Self.requests(in: state)
            #expect(State(requested: start.isRequested, sheet: start.sheet) == state, "setup of \(state)")
            #expect(Set(row.keys) == Set(Input.allCases), "\(state) lists every fact")
            for (fact, (actions, next)) in row {
                var requests = start
                #expect(requests.handle(fact) == actions, "\(fact) in \(state)")
                #expect(State(requested: requests.isRequested, sheet: requests.sheet) == next, "\(fact) in \(state)")
            }
        }
    }

    @Test func aRequestWhileThePreviousSheetIsClosingIsAskedAgainAfterItsDismissal() {
        var requests = Requests()
        #expect(requests.handle(.requested) == [.begin])
        _ = requests.handle(.began)
        #expect(requests.showsSheet)
        #expect(requests.handle(.withdrawn) == [.withdraw])   // the page finished: the binding went to false
        #expect(!requests.showsSheet)
        #expect(requests.handle(.requested) == [])             // the button again, while the sheet animates away
        #expect(!requests.showsSheet)                          // SwiftUI does not see a closing sheet requested
        #expect(requests.handle(.sheetGone) == [.begin])       // onDismiss: asked again, not dropped
        _ = requests.handle(.began)
        #expect(requests.showsSheet)
    }

    @Test func aRefusedRequestResetsTheBinding() {
        var requests = Requests()
        _ = requests.handle(.requested)
        #expect(requests.handle(.refused) == [.clearRequest])
        #expect(!requests.isRequested)
        #expect(requests.handle(.requested) == [.begin])       // the next tap asks again
    }
}
