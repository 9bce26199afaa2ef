import Foundation

/// A calendar collection found by `CalDAVClient.discover` (RFC 4791 section 4.2).
public struct CalDAVCalendar: Sendable, Equatable {
    /// The collection's URL (absolute, ending in "/" as the server wrote it).
    public var url: URL
    /// `DAV:displayname`, if the server has one.
    public var displayName: String?
    /// The component types it takes (`CALDAV:supported-calendar-component-set`, RFC 4791
    /// 5.2.3), e.g. `["VTODO"]`; when the server does not say, all of them:
    /// `["VEVENT", "VTODO", "VJOURNAL"]`.
    public var components: [String]
    /// Whether `DAV:supported-report-set` offers `DAV:sync-collection` (RFC 6578 section 3).
    public var supportsSync: Bool
    /// The collection's `DAV:sync-token` (RFC 6578 section 4), if it has one.
    public var syncToken: String?

    /// Creates a calendar description.
    public init(url: URL, displayName: String?, components: [String], supportsSync: Bool, syncToken: String? = nil) {
        self.url = url
        self.displayName = displayName
        self.components = components
        self.supportsSync = supportsSync
        self.syncToken = syncToken
    }
}

/// What changed in a collection since the last run (`CalDAVClient.changes`). hrefs are absolute
/// paths with normalised percent-encoding (`/parent/calendar/a%20b.ics`).
public struct CollectionChanges: Sendable, Equatable {
    /// href → new ETag, for members added or modified (an ETag the server did not give is "").
    public var changed: [String: String]
    /// hrefs of members gone.
    public var deleted: [String]
    /// The token to store for next time (`nil` when the server gave none).
    public var syncToken: String?
    /// `true` when this came from a full listing (first run, or the fallback), `false` for an
    /// incremental sync-collection answer.
    public var isFullListing: Bool

    /// Creates a change set.
    public init(changed: [String: String], deleted: [String], syncToken: String?, isFullListing: Bool) {
        self.changed = changed
        self.deleted = deleted
        self.syncToken = syncToken
        self.isFullListing = isFullListing
    }
}

/// One calendar object resource (RFC 4791 section 4.1) as `CalDAVClient.fetch` read it.
public struct CalendarObject: Sendable {
    /// Its href (absolute path, normalised percent-encoding).
    public var href: String
    /// Its ETag; `nil` when the server answered 404 (then `data` is empty and `isDeleted`).
    public var etag: String?
    /// The iCalendar bytes (`CALDAV:calendar-data`), as the server sent them.
    public var data: [UInt8]

    /// Creates an object.
    public init(href: String, etag: String?, data: [UInt8]) {
        self.href = href
        self.etag = etag
        self.data = data
    }

    /// Whether the server answered 404 for it (gone since it was listed).
    public var isDeleted: Bool { etag == nil && data.isEmpty }
}

/// A CalDAV client (RFC 4791) that discovers a user's calendars (RFC 6764, RFC 5397), lists
/// what changed (RFC 6578 sync-collection, or a full PROPFIND listing) and fetches the objects
/// (calendar-multiget). Every request goes through `Fetcher.send` (redirects, retries, exit
/// statuses), each with a 60 s timeout and at most 256 MB of answer.
///
/// Request bodies carry only the protocol: property names, the sync token, the hrefs.
public struct CalDAVClient: Sendable {
    /// The fetcher every request goes through.
    public var fetcher: Fetcher
    /// The credentials sent with every request (Basic or Digest), or `nil`.
    public var credentials: HTTPRequest.Credentials?
    /// hrefs per calendar-multiget REPORT (RFC 4791 7.9), at most 100.
    public var batchSize = 100

    /// The component types of a calendar that does not say which it takes.
    static let allComponents = ["VEVENT", "VTODO", "VJOURNAL"]

    /// Creates a client.
    /// - Parameters:
    ///   - fetcher: sends the requests.
    ///   - credentials: the user name and password, or `nil` for none.
    public init(fetcher: Fetcher, credentials: HTTPRequest.Credentials?) {
        self.fetcher = fetcher
        self.credentials = credentials
    }

    // MARK: - Discovery

    private static let discoveryProperties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>\
        <d:resourcetype/><d:current-user-principal/><c:calendar-home-set/><d:displayname/>\
        <c:supported-calendar-component-set/><d:supported-report-set/><d:sync-token/>\
        </d:prop></d:propfind>
        """

    /// Finds the calendars from any URL the user gives: a server root, `/.well-known/caldav`, a
    /// principal URL, a calendar-home-set URL, or a calendar collection itself.
    ///
    /// Steps: a server root is first tried at its well-known URI (RFC 6764 section 5, redirects
    /// followed by `Fetcher`, also http → https); then `DAV:current-user-principal` (RFC 5397),
    /// then `CALDAV:calendar-home-set` (RFC 4791 6.2.1), then PROPFIND Depth 1 on each home. A
    /// calendar collection given directly is returned alone.
    /// - Parameter url: where to start (http on loopback, else https).
    /// - Returns: the calendars, in the server's order (only collections whose
    ///   `DAV:resourcetype` holds `CALDAV:calendar`).
    /// - Throws: `FetchError`: `.refusedCredentials` (77), `.unreachable`/`.refused` (69),
    ///   `.unreadable` (65) for a broken multistatus or an address that leads to no calendar home.
    public func discover(_ url: URL) throws(FetchError) -> [CalDAVCalendar] {
        var start = url
        let path = DAVHref.path(of: url)
        if path == "/" {
            let wellKnown = url.appendingPathComponent(".well-known/caldav")
            do {
                _ = try propfind(wellKnown, depth: 0, body: Self.discoveryProperties)
                start = wellKnown
            } catch {
                switch error {
                case .refused, .unreadable: break  // no well-known here: read the root itself
                default: throw error
                }
            }
        }
        let (first, at) = try propfind(start, depth: 0, body: Self.discoveryProperties)
        guard let mine = first.responses.first else {
            throw .unreadable(url: Fetcher.display(at), detail: "an empty multistatus")
        }
        if mine.isCalendar { return [calendar(mine, base: at)] }

        var homes = hrefs(in: mine.property(DAVNamespace.caldav, "calendar-home-set"), base: at)
        if homes.isEmpty, let principal = hrefs(in: mine.property(DAVNamespace.dav, "current-user-principal"), base: at).first,
           DAVHref.path(of: principal) != DAVHref.path(of: at) {
            let (answer, principalAt) = try propfind(principal, depth: 0, body: Self.discoveryProperties)
            if let response = answer.responses.first {
                homes = hrefs(in: response.property(DAVNamespace.caldav, "calendar-home-set"), base: principalAt)
            }
        }
        if homes.isEmpty { homes = [at] }  // the URL given is the home itself

        var calendars: [CalDAVCalendar] = []
        var seen: Set<String> = []
        for home in homes {
            let (listing, homeAt) = try propfind(home, depth: 1, body: Self.discoveryProperties)
            for response in listing.responses where response.isCalendar {
                let href = DAVHref.normalise(response.href, base: homeAt)
                if seen.insert(href).inserted { calendars.append(calendar(response, base: homeAt)) }
            }
        }
        return calendars
    }

    private func calendar(_ response: Multistatus.Response, base: URL) -> CalDAVCalendar {
        let href = DAVHref.normalise(response.href, base: base)
        let url = DAVHref.url(href, on: base) ?? base
        let name = response.property(DAVNamespace.dav, "displayname")?.trimmedText
        var components = Self.allComponents
        if let set = response.property(DAVNamespace.caldav, "supported-calendar-component-set") {
            let names = set.children(DAVNamespace.caldav, "comp").compactMap { $0.attributes["name"]?.uppercased() }
            if !names.isEmpty { components = names }
        }
        let reports = response.property(DAVNamespace.dav, "supported-report-set")
        let token = response.property(DAVNamespace.dav, "sync-token")?.trimmedText
        return CalDAVCalendar(
            url: url, displayName: name?.isEmpty == false ? name : nil, components: components,
            supportsSync: reports?.contains(DAVNamespace.dav, "sync-collection") ?? false,
            syncToken: token?.isEmpty == false ? token : nil)
    }

    /// The `DAV:href` children of a property, as URLs on `base`'s server.
    private func hrefs(in property: XMLNode?, base: URL) -> [URL] {
        guard let property else { return [] }
        return property.children(DAVNamespace.dav, "href").compactMap {
            let text = $0.trimmedText
            guard !text.isEmpty else { return nil }
            if let absolute = URL(string: text), absolute.scheme != nil { return absolute }
            return DAVHref.url(DAVHref.normalise(text, base: base), on: base)
        }
    }

    // MARK: - Changes

    /// What changed in `collection` since `syncToken`.
    ///
    /// With sync-collection (RFC 6578 section 3.2, sync-level 1, asking `DAV:getetag`): members
    /// with a 404 status are deleted, the others changed; a truncated answer (507 on the
    /// collection, 3.6) is followed up with the token it gave. The first run (`syncToken` nil)
    /// sends an empty token and compares the listing with `known`. A refused or expired token (403
    /// or 409 with `DAV:valid-sync-token`, 400, or the 418 some servers send) or no sync support
    /// (405, 501, 415, or a 403), or a 500 to a given token (Xandikos' answer to a token it does
    /// not know, after `Fetcher`'s retries) falls back to a full listing: PROPFIND Depth 1 (`DAV:getetag`,
    /// `DAV:resourcetype`, `DAV:getcontenttype`, and the collection's `DAV:sync-token`)
    /// compared with `known`. The collection itself and collections inside are not resources.
    /// - Parameters:
    ///   - collection: the calendar's URL.
    ///   - syncToken: the token stored by the last run, or `nil` on the first.
    ///   - known: href → ETag of the last run (used for full listings; hrefs in any encoding).
    /// - Returns: the changes; `isFullListing` is `true` for the first run and the fallback.
    /// - Throws: `FetchError` (77 refused credentials, 69 unreachable or refused, 65 broken XML).
    ///   A 403 to the REPORT is taken as a refused token; the listing that follows throws
    ///   `.refusedCredentials` when the credentials really are wrong.
    public func changes(in collection: URL, syncToken: String?, known: [String: String]) throws(FetchError) -> CollectionChanges {
        let normalisedKnown = Dictionary(known.map { (DAVHref.normalise($0.key, base: collection), $0.value) },
                                         uniquingKeysWith: { a, _ in a })
        do {
            if let result = try syncCollection(collection, token: syncToken ?? "") {
                if syncToken != nil { return result }
                return Self.compare(listing: result.changed, known: normalisedKnown, token: result.syncToken)
            }
        } catch {
            switch error {
            case .refusedCredentials where credentials != nil:
                break  // a 403 (Fetcher reads it as refused credentials): a refused token; the listing decides
            case .unreachable(_, let detail) where syncToken != nil && detail.hasPrefix("500 "):
                break  // Xandikos answers an unknown token with 500 (after Fetcher's retries)
            default:
                throw error
            }
        }
        return try fullListing(collection, known: normalisedKnown)
    }

    private static let syncBodyPrefix = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>
        """
    private static let syncBodySuffix = """
        </d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/><d:resourcetype/></d:prop></d:sync-collection>
        """

    /// The sync-collection answer, or `nil` when the server refuses the token or the report.
    private func syncCollection(_ collection: URL, token: String) throws(FetchError) -> CollectionChanges? {
        var token = token
        var changed: [String: String] = [:]
        var deleted: Set<String> = []
        let me = DAVHref.path(of: collection)
        for _ in 0..<1000 {
            let body = Self.syncBodyPrefix + DAVHref.xmlEscaped(token) + Self.syncBodySuffix
            let (response, at) = try send("REPORT", collection, depth: "1", body: body)
            switch response.status {
            case 207: break
            case 400, 403, 409, 418, 405, 415, 501: return nil
            default: throw .refused(url: Fetcher.display(at), status: response.status)
            }
            guard let multistatus = Multistatus.parse(response.body) else {
                throw .unreadable(url: Fetcher.display(at), detail: "a multistatus that is not well-formed XML")
            }
            var truncated = false
            for member in multistatus.responses {
                let href = DAVHref.normalise(member.href, base: at)
                if DAVHref.sameCollection(href, me) || DAVHref.sameCollection(href, DAVHref.path(of: at)) {
                    if member.status == 507 { truncated = true }
                    continue
                }
                guard DAVHref.isMember(href, of: me) else { continue }  // not one of this collection's objects
                if member.status == 404 {
                    deleted.insert(href)
                    changed[href] = nil
                } else if !member.isCollection, member.status == nil || member.status == 200 {
                    changed[href] = member.etag ?? ""
                    deleted.remove(href)
                }
            }
            let next = multistatus.syncToken
            guard truncated, let next, next != token else {
                return CollectionChanges(changed: changed, deleted: deleted.sorted(), syncToken: next ?? (token.isEmpty ? nil : token),
                                         isFullListing: false)
            }
            token = next
        }
        throw .unreadable(url: Fetcher.display(collection), detail: "a sync-collection answer truncated more than 1000 times")
    }

    private static let listingBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/><d:getcontenttype/><d:sync-token/></d:prop></d:propfind>
        """

    private func fullListing(_ collection: URL, known: [String: String]) throws(FetchError) -> CollectionChanges {
        let (multistatus, at) = try propfind(collection, depth: 1, body: Self.listingBody)
        let me = DAVHref.path(of: collection)
        let meThere = DAVHref.path(of: at)
        var listing: [String: String] = [:]
        var token: String?
        for member in multistatus.responses {
            let href = DAVHref.normalise(member.href, base: at)
            if DAVHref.sameCollection(href, me) || DAVHref.sameCollection(href, meThere) {
                token = member.property(DAVNamespace.dav, "sync-token")?.trimmedText
                continue
            }
            if member.isCollection || (member.status.map { $0 >= 300 } ?? false) { continue }
            guard DAVHref.isMember(href, of: me) || DAVHref.isMember(href, of: meThere) else { continue }
            listing[href] = member.etag ?? ""
        }
        return Self.compare(listing: listing, known: known, token: token?.isEmpty == false ? token : nil)
    }

    /// A full listing compared with the last run's: changed = new or with another ETag (an
    /// empty ETag always counts as changed), deleted = known but not listed.
    static func compare(listing: [String: String], known: [String: String], token: String?) -> CollectionChanges {
        var changed: [String: String] = [:]
        for (href, etag) in listing where etag.isEmpty || known[href] != etag { changed[href] = etag }
        let deleted = known.keys.filter { listing[$0] == nil }.sorted()
        return CollectionChanges(changed: changed, deleted: deleted, syncToken: token, isFullListing: true)
    }

    // MARK: - Fetching

    /// Reads the objects at `hrefs` with calendar-multiget REPORTs (RFC 4791 7.9) of at most 100
    /// hrefs each, asking `DAV:getetag` and `CALDAV:calendar-data`. A server that refuses the
    /// report (405, 501) gets one GET per href.
    /// - Parameters:
    ///   - hrefs: paths (any percent-encoding) of members of `collection`.
    ///   - collection: the calendar's URL.
    /// - Returns: one object per href answered, in the order of the answers; an href the server
    ///   answered 404 for comes back with `etag` nil and no data (`isDeleted`).
    /// - Throws: `FetchError` (77, 69, 65 for broken XML).
    public func fetch(_ hrefs: [String], in collection: URL) throws(FetchError) -> [CalendarObject] {
        let wanted = hrefs.map { DAVHref.normalise($0, base: collection) }
        var objects: [CalendarObject] = []
        objects.reserveCapacity(wanted.count)
        var start = 0
        while start < wanted.count {
            let batch = Array(wanted[start..<min(wanted.count, start + max(1, min(batchSize, 100)))])
            start += batch.count
            var body = """
                <?xml version="1.0" encoding="utf-8"?>
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                <d:prop><d:getetag/><c:calendar-data/></d:prop>
                """
            for href in batch { body += "<d:href>\(DAVHref.xmlEscaped(href))</d:href>" }
            body += "</c:calendar-multiget>"
            // No Depth header: RFC 4791 7.9 says the server ignores it and the client should not
            // send it (Xandikos walks every member of the collection for each batch when given 1).
            let (response, at) = try send("REPORT", collection, depth: nil, body: body)
            switch response.status {
            case 207: break
            case 405, 501:
                for href in batch { objects.append(try get(href, on: collection)) }
                continue
            default: throw .refused(url: Fetcher.display(at), status: response.status)
            }
            guard let multistatus = Multistatus.parse(response.body) else {
                throw .unreadable(url: Fetcher.display(at), detail: "a multistatus that is not well-formed XML")
            }
            let asked = Set(batch)
            for member in multistatus.responses {
                let href = DAVHref.normalise(member.href, base: at)
                guard asked.contains(href) else { continue }  // an answer for an href not asked for
                let data = member.property(DAVNamespace.caldav, "calendar-data")
                if member.status == 404 || (data == nil && member.missing.contains(DAVNamespace.caldav + " calendar-data")) {
                    objects.append(CalendarObject(href: href, etag: nil, data: []))
                } else if let data {
                    objects.append(CalendarObject(href: href, etag: member.etag, data: Array(data.text.utf8)))
                }
            }
        }
        return objects
    }

    private func get(_ href: String, on collection: URL) throws(FetchError) -> CalendarObject {
        guard let url = DAVHref.url(href, on: collection) else {
            throw .unreadable(url: Fetcher.display(collection), detail: "an href that is not a path")
        }
        let (response, at) = try send("GET", url, depth: nil, body: nil)
        switch response.status {
        case 200: return CalendarObject(href: href, etag: response.headers["etag"], data: Array(response.body))
        case 404, 410: return CalendarObject(href: href, etag: nil, data: [])
        default: throw .refused(url: Fetcher.display(at), status: response.status)
        }
    }

    // MARK: - Requests

    private func propfind(_ url: URL, depth: Int, body: String) throws(FetchError) -> (Multistatus, URL) {
        let (response, at) = try send("PROPFIND", url, depth: String(depth), body: body)
        if [200, 405, 501].contains(response.status) {
            throw .unreadable(url: Fetcher.display(at),
                              detail: "not a CalDAV server: it answered \(response.status) to PROPFIND; for an .ics address use 'dictee source add URL'")
        }
        guard response.status == 207 else { throw .refused(url: Fetcher.display(at), status: response.status) }
        guard let multistatus = Multistatus.parse(response.body) else {
            throw .unreadable(url: Fetcher.display(at), detail: "a multistatus that is not well-formed XML")
        }
        return (multistatus, at)
    }

    private func send(_ method: String, _ url: URL, depth: String?, body: String?) throws(FetchError) -> (response: HTTPResponse, url: URL) {
        var headers: [(name: String, value: String)] = []
        if let depth { headers.append(("Depth", depth)) }
        if body != nil { headers.append(("Content-Type", "application/xml; charset=utf-8")) }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) },
                                  credentials: credentials, timeout: 60, maximumBytes: 256 << 20, acceptCompressed: true)
        return try fetcher.send(request)
    }
}
