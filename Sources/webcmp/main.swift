import Foundation

// `webcmp`: inspect TC strings and the IAB in-app keys the kit writes; benchmark decode + mapping.
exit(WebCMPCommand.run(Array(CommandLine.arguments.dropFirst())))
