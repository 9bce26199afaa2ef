import DicteeCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as WebDAV reads it: namespace URI + local name (prefixes vary between servers
/// and mean nothing), attributes by local name, children, and the text directly inside.
struct XMLNode: Sendable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`), or "" for none.
    var namespace: String
    /// The local name (`href`, `getetag`).
    var name: String
    /// Attributes by name (prefix removed).
    var attributes: [String: String] = [:]
    /// Child elements, in order.
    var children: [XMLNode] = []
    /// The text and CDATA directly inside, concatenated.
    var text: String = ""

    /// Whether this element is `{namespace}name`.
    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }
    /// The first child `{namespace}name`.
    func child(_ namespace: String, _ name: String) -> XMLNode? { children.first { $0.is(namespace, name) } }
    /// Every child `{namespace}name`.
    func children(_ namespace: String, _ name: String) -> [XMLNode] { children.filter { $0.is(namespace, name) } }
    /// Whether `{namespace}name` occurs anywhere below (not counting this element).
    func contains(_ namespace: String, _ name: String) -> Bool {
        children.contains { $0.is(namespace, name) || $0.contains(namespace, name) }
    }
    /// The text, without surrounding white space.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Parses `data` into its root element, with namespace processing (FoundationXML's
    /// `XMLParser`; external entities are not resolved).
    /// - Returns: `nil` when the XML is not well formed or has no root element.
    static func parse(_ data: Data) -> XMLNode? {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), builder.failed == false, let root = builder.root else { return nil }
        return root
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [XMLNode] = []
        var root: XMLNode?
        var failed = false

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            var attributes: [String: String] = [:]
            for (key, value) in attributeDict {
                attributes[String(key.split(separator: ":").last ?? Substring(key))] = value
            }
            // Without a namespace URI the parser may leave a prefix on the name: drop it.
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(XMLNode(namespace: namespaceURI ?? "", name: local, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let node = stack.popLast() else { failed = true; return }
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
    }
}

/// XML namespaces of WebDAV (RFC 4918) and CalDAV (RFC 4791).
enum DAVNamespace {
    /// `DAV:`
    static let dav = "DAV:"
    /// `urn:ietf:params:xml:ns:caldav`
    static let caldav = "urn:ietf:params:xml:ns:caldav"
}

/// A 207 Multi-Status body (RFC 4918 section 13), read by namespace URI and local name.
struct Multistatus: Sendable {
    /// One `DAV:response`.
    struct Response: Sendable {
        /// The `DAV:href` as the server wrote it (a path or an absolute URL, percent-encoded).
        var href: String
        /// The response-level `DAV:status` code (RFC 6578 uses 404 for a member gone), if any.
        var status: Int?
        /// The properties found (from `DAV:propstat` elements whose status is 2xx, or without one),
        /// keyed by `namespace + " " + name`.
        var properties: [String: XMLNode]
        /// The properties a propstat reported with a non-2xx status (404 for a property not
        /// defined), same keys.
        var missing: Set<String>

        /// The property `{namespace}name` when it was found.
        func property(_ namespace: String, _ name: String) -> XMLNode? { properties[namespace + " " + name] }
        /// Whether `DAV:resourcetype` holds `DAV:collection`.
        var isCollection: Bool { property(DAVNamespace.dav, "resourcetype")?.contains(DAVNamespace.dav, "collection") ?? false }
        /// Whether `DAV:resourcetype` holds `CALDAV:calendar`.
        var isCalendar: Bool { property(DAVNamespace.dav, "resourcetype")?.contains(DAVNamespace.caldav, "calendar") ?? false }
        /// `DAV:getetag`'s text, if found and not empty.
        var etag: String? {
            guard let text = property(DAVNamespace.dav, "getetag")?.trimmedText, !text.isEmpty else { return nil }
            return text
        }
    }

    /// The responses, in order.
    var responses: [Response]
    /// The top-level `DAV:sync-token` (RFC 6578 sync-collection answers), if any.
    var syncToken: String?

    /// Reads a multistatus body.
    /// - Returns: `nil` when the body is not well-formed XML or its root is not `DAV:multistatus`.
    static func parse(_ data: Data) -> Multistatus? {
        guard let root = XMLNode.parse(data), root.is(DAVNamespace.dav, "multistatus") else { return nil }
        var responses: [Response] = []
        for element in root.children(DAVNamespace.dav, "response") {
            guard let href = element.child(DAVNamespace.dav, "href")?.trimmedText, !href.isEmpty else { continue }
            var properties: [String: XMLNode] = [:]
            var missing: Set<String> = []
            for propstat in element.children(DAVNamespace.dav, "propstat") {
                let status = propstat.child(DAVNamespace.dav, "status").flatMap { statusCode($0.trimmedText) }
                for prop in propstat.children(DAVNamespace.dav, "prop") {
                    for property in prop.children {
                        let key = property.namespace + " " + property.name
                        if let status, !(200..<300).contains(status) {
                            missing.insert(key)
                        } else {
                            properties[key] = property
                        }
                    }
                }
            }
            let status = element.child(DAVNamespace.dav, "status").flatMap { statusCode($0.trimmedText) }
            responses.append(Response(href: href, status: status, properties: properties, missing: missing))
            // RFC 4918 allows several hrefs with one status (no propstat): one response each.
            for extra in element.children(DAVNamespace.dav, "href").dropFirst() where !extra.trimmedText.isEmpty {
                responses.append(Response(href: extra.trimmedText, status: status, properties: [:], missing: []))
            }
        }
        let token = root.child(DAVNamespace.dav, "sync-token")?.trimmedText
        return Multistatus(responses: responses, syncToken: token?.isEmpty == false ? token : nil)
    }

    /// The code in a status line (`HTTP/1.1 404 Not Found` → 404).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }
}

/// hrefs as the client compares and stores them: an absolute path, percent-encoding normalised.
enum DAVHref {
    /// The characters left as they are in a normalised path (RFC 3986 pchar and "/").
    static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~!$&'()*+,;=:@/")
        return set
    }()

    /// The normalised form of `href` as found in an answer to a request on `base`: an absolute
    /// URL keeps only its path, a relative one is resolved against `base`; then decoded and encoded
    /// again with `allowed` (so `%40` and `@` compare equal, as do `%7e` and `~`).
    /// - Returns: e.g. `/parent/calendar/ev%20one.ics`.
    static func normalise(_ href: String, base: URL) -> String {
        var path: String
        if let url = URL(string: href), url.scheme != nil {
            path = url.path.isEmpty ? "/" : rawPath(href)
        } else if href.hasPrefix("/") {
            path = href
        } else if let url = URL(string: href, relativeTo: base) {
            path = rawPath(url.absoluteString)
        } else {
            path = href
        }
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        let decoded = path.removingPercentEncoding ?? path
        return decoded.addingPercentEncoding(withAllowedCharacters: allowed) ?? decoded
    }

    /// The path of an absolute URL string, still percent-encoded as written.
    private static func rawPath(_ absolute: String) -> String {
        guard let schemeEnd = absolute.range(of: "://") else { return absolute }
        let rest = absolute[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    /// The normalised path of `url`, keeping a trailing "/" (Foundation's `URL.path` drops it).
    static func path(of url: URL) -> String {
        let raw = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return normalise(raw.isEmpty ? "/" : raw, base: url)
    }

    /// Whether two normalised paths name the same collection (with or without the final "/").
    static func sameCollection(_ a: String, _ b: String) -> Bool {
        func trimmed(_ s: String) -> Substring { s.hasSuffix("/") ? s.dropLast() : Substring(s) }
        return trimmed(a) == trimmed(b)
    }

    /// Whether the normalised `href` names a resource inside the collection `collection` (a
    /// normalised path): a server's answer naming anything else is not one of its objects.
    static func isMember(_ href: String, of collection: String) -> Bool {
        let prefix = collection.hasSuffix("/") ? collection : collection + "/"
        return href.hasPrefix(prefix) && href.count > prefix.count
    }

    /// The URL of a normalised `href` on `base`'s server.
    static func url(_ href: String, on base: URL) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        components.percentEncodedPath = href
        components.query = nil
        components.fragment = nil
        return components.url
    }

    /// `string` escaped for XML text (`MarkupText`).
    static func xmlEscaped(_ string: String) -> String { MarkupText.escaped(string) }
}
