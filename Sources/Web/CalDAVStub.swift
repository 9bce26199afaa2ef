import Foundation
// TEMPORARY STUB (replaced by helper's CalDAV.swift at merge)
public struct CalDAVClient: Sendable {
    public init(fetcher: Fetcher, credentials: HTTPRequest.Credentials?) {}
    public func discover(_ url: URL) throws(FetchError) -> [CalDAVCalendar] { [] }
    public func changes(in collection: URL, syncToken: String?, known: [String: String]) throws(FetchError) -> CollectionChanges { CollectionChanges(changed: [:], deleted: [], syncToken: nil, isFullListing: true) }
    public func fetch(_ hrefs: [String], in collection: URL) throws(FetchError) -> [CalendarObject] { [] }
}
public struct CalDAVCalendar: Sendable, Equatable { public var url: URL; public var displayName: String?; public var components: [String]; public var supportsSync: Bool }
public struct CollectionChanges: Sendable, Equatable {
    public var changed: [String: String]; public var deleted: [String]; public var syncToken: String?; public var isFullListing: Bool
}
public struct CalendarObject: Sendable { public var href: String; public var etag: String?; public var data: [UInt8] }
