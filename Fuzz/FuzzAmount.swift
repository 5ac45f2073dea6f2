// libFuzzer target: the amount parser and every reading of what it accepts. Built by scripts/fuzz.
import SpeechText

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let amount = try? Amount(parsing: text) else { return 0 }
    // Whatever parses is an amount in range, and every style and form can read it.
    precondition(amount.fen >= 0 && amount.fen <= Amount.maximum.fen, "out of range: \(amount.fen)")
    for style in ReadingStyle.allCases {
        for form in AmountForm.allCases {
            let converter = SpeechConverter(style: style, form: form)
            let reading = converter.reading(of: amount)
            precondition(!reading.tokens.isEmpty)
            precondition(reading.tokens.allSatisfy(converter.alphabet.contains), "a token outside the alphabet")
        }
    }
    // The amount's own description parses back to it.
    precondition((try? Amount(parsing: amount.description)) == amount)
    return 0
}
