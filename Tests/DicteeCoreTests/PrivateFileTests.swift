import Foundation
import Testing
@testable import DicteeCore

/// The one writer of the family's private files: 0600, atomic, never through a device, a FIFO or
/// (for appends) a symbolic link; the egress log's check is a real probe.
@Suite struct PrivateFileTests {
    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-private-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func replaceWritesA0600FileAtomicallyAndLeavesNoTemporaryFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a/b/audit.jsonl"
        try PrivateFile.replace(path, with: Data("one\n".utf8))
        try PrivateFile.replace(path, with: Data("two\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/a/b") == ["audit.jsonl"])
        #expect(throws: FileWriteError.self) { try PrivateFile.replace(dir + "/missing/page.html", with: Data(), createFolders: false) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/missing"), "no folder made for a mistyped path")
    }

    @Test func neitherWriterTouchesAFIFOADeviceOrADirectory() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileWriteError(path: fifo, reason: "not a regular file (a device, a FIFO or a socket)")) {
            try PrivateFile.replace(fifo, with: Data("x".utf8))
        }
        // Returns at once: no wait for a reader.
        #expect(throws: FileWriteError.self) { try PrivateFile.append(fifo, Data("x".utf8)) }
        #expect(PrivateFile.appendProblem(fifo) != nil)
        #expect(PrivateFile.appendProblem("/dev/null") != nil && PrivateFile.appendProblem("/dev/full") != nil)
        #expect(throws: FileWriteError.self) { try PrivateFile.replace("/dev/null", with: Data()) }
        #expect(PrivateFile.appendProblem(dir) == "a directory, not a file")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still there")
    }

    @Test func appendNarrowsAWiderModeAndRefusesASymbolicLink() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/egress.log"
        #expect(FileManager.default.createFile(atPath: log, contents: Data(), attributes: [.posixPermissions: 0o644]))
        try PrivateFile.append(log, Data("body\n".utf8))
        #expect(try mode(log) == 0o600)
        let victim = dir + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8)))
        let link = dir + "/link.log"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(PrivateFile.appendProblem(link) == "a symbolic link, not a file")
        #expect(throws: FileWriteError.self) { try PrivateFile.append(link, Data("x".utf8)) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test func theAppendProbeLeavesNothingBehindAndSeesThroughPermissionBits() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(PrivateFile.appendProblem(dir + "/x/y/egress.log") == nil)
        #expect(!FileManager.default.fileExists(atPath: dir + "/x"), "the probe removes what it made")
        // /proc looks writable to root; no folder can be made there.
        #expect(PrivateFile.appendProblem("/proc/dictee-probe/egress.log") != nil)
    }
}

/// What a state path may be.
@Suite struct LocalPathTests {
    @Test func aStatePathMustBeARegularFileOrAbsent() {
        #expect(LocalPath.notARegularFile("/dev/null") != nil)
        #expect(LocalPath.notARegularFile("/tmp") == "a directory, not a file")
        #expect(LocalPath.notARegularFile("/tmp/dictee-absent-\(UUID().uuidString)") == nil)
        #expect(LocalPath.notARegularFile("/etc/hostname") == nil)
    }
}
