import Foundation
import WebCMPBridge
import WebCMPHostGTK

MainActor.assumeIsolated {
    guard GTKRuntime.initialize() else {
        FileHandle.standardError.write(Data("webcmp-host: cannot open a display (run under xvfb-run -a)\n".utf8))
        exit(2)
    }
    let view = GTKWebView()
    view.eventHandler = { event in print("event: \(event)") }
    view.addMessageHandler(named: "jsHandler")
    view.load(URL(string: CommandLine.arguments[1])!)
    GTKRuntime.run(until: Date().addingTimeInterval(5)) { true }
}
