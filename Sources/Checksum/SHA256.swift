import CCrypto
import Foundation

/// SHA-256 by OpenSSL's libcrypto, as lowercase hex.
public enum SHA256 {
    /// The digest of `data`.
    public static func hex(of data: Data) -> String {
        let context = Context()
        data.withUnsafeBytes { context.update($0) }
        return context.finish()
    }

    /// The digest of a file, read in 1 MiB pieces.
    public static func hex(ofFileAt path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        let context = Context()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { context.update($0) }
        }
        return context.finish()
    }

    /// One EVP digest context, owned and freed here.
    private final class Context {
        let pointer: OpaquePointer

        init() {
            pointer = EVP_MD_CTX_new()!
            EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(pointer) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            if bytes.count > 0 { EVP_DigestUpdate(pointer, bytes.baseAddress, bytes.count) }
        }

        func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(pointer, &digest, &length)
            let digits = Array("0123456789abcdef".utf8)
            var hex = [UInt8]()
            hex.reserveCapacity(64)
            for byte in digest {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: hex, as: UTF8.self)
        }
    }
}
