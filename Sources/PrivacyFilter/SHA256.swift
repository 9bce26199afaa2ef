// The only file that calls OpenSSL's libcrypto (Debian libssl-dev, through Sources/CDigest).

internal import CDigest

/// SHA-256 (FIPS 180-4), as printed by `sha256sum`.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        var out = [CChar](repeating: 0, count: 65)
        let ok = bytes.withUnsafeBytes { dictee_sha256_hex($0.baseAddress, $0.count, &out) }
        precondition(ok == 1, "libcrypto could not compute SHA-256")
        return String(decoding: out[0..<64].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
