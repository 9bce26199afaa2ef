internal import CPSL
import Foundation

/// Which addresses belong to the same site, for sending a password: the Public Suffix List through
/// libpsl (Debian `libpsl-dev`; the newest of its built-in list and the system's
/// `/usr/share/publicsuffix` copy). Ownership: the list is loaded once and never freed (process
/// lifetime).
///
/// Two https addresses are the same site when they have the same port and the same host, or two
/// host names with the same registrable domain (`caldav.icloud.com` and `p42-caldav.icloud.com`:
/// `icloud.com`; never `a.github.io` and `b.github.io`, nor `x.co.uk` and `y.co.uk`, whose
/// suffixes are public). IP addresses are only the same site as themselves.
public enum Site {
    nonisolated(unsafe) private static let list: OpaquePointer? = {
        if let latest = psl_latest(nil) { return latest }
        return psl_builtin()
    }()

    /// The registrable domain of a host name (lower-cased), or `nil` for an IP address, a public
    /// suffix itself, or a name the list cannot place.
    public static func registrableDomain(_ host: String) -> String? {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host.contains(":") || host.split(separator: ".").allSatisfy({ $0.allSatisfy(\.isNumber) }) { return nil }
        guard let list else { return nil }
        // libpsl returns a pointer into the host's C string: copy it while that string lives.
        return host.withCString { name in psl_registrable_domain(list, name).map { String(cString: $0) } }
    }

    /// Whether `a` and `b` are the same site (above): same scheme, same port, and the same host or
    /// registrable domain.
    public static func same(_ a: URL, _ b: URL) -> Bool {
        let sa = a.scheme?.lowercased(), sb = b.scheme?.lowercased()
        guard sa == sb, port(a) == port(b) else { return false }
        let ha = (a.host ?? "").lowercased(), hb = (b.host ?? "").lowercased()
        if ha == hb { return true }
        guard let da = registrableDomain(ha), let db = registrableDomain(hb) else { return false }
        return da == db
    }

    /// The port, the scheme's default when none is written.
    static func port(_ url: URL) -> Int {
        url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
    }
}
