import DicteeCore

/// Wall-clock fields as written in a calendar file, before any time zone is applied.
struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    var date: CalendarDate
    var hour: Int
    var minute: Int
    var second: Int

    init(date: CalendarDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Whether every field is in range (no 30 February, no hour 25). A leap second (60) is accepted
    /// as RFC 5545 section 3.3.12 allows it.
    var isValid: Bool {
        date.isValid && (0...23).contains(hour) && (0...59).contains(minute)
            && (0...60).contains(second)
    }

    /// Seconds since the epoch if these fields were UTC.
    var secondsIfUTC: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Fields of an instant read as UTC.
    init(utcSeconds: Int64) {
        let days = utcSeconds >= 0 ? utcSeconds / 86_400 : (utcSeconds - 86_399) / 86_400
        let rest = Int(utcSeconds - days * 86_400)
        self.init(
            date: CalendarDate(daysSinceEpoch: Int(days)), hour: rest / 3600,
            minute: rest % 3600 / 60, second: rest % 60)
    }

    /// Moves the date by `days` calendar days, keeping the wall-clock time.
    func adding(days: Int) -> LocalDateTime {
        LocalDateTime(date: date.adding(days: days), hour: hour, minute: minute, second: second)
    }

    static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.secondsIfUTC < b.secondsIfUTC
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    var description: String {
        "\(date)T\(String(hour).leftPadded(2)):\(String(minute).leftPadded(2)):\(String(second).leftPadded(2))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
