/// `webcmp bench`. (Lands with the codec: it needs the encoder and `Base64URL`.)
enum Bench {
    static func run(_ arguments: [String]) -> Int32 {
        WebCMPCommand.printError("bench is not available in this build yet")
        return 2
    }
}
