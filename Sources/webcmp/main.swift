import Foundation

// `webcmp`: inspect TC strings and the IAB in-app keys WebCMPBridge writes; benchmark decode + mapping.
let status = WebCMPCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
