import DicteeCore
import Foundation
import Testing

@Suite("Clock")
struct ClockTests {
    @Test("a fixed clock always answers the same instant; the system clock moves")
    func clocks() {
        let fixed = FixedClock(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(fixed.now == fixed.now)
        #expect(fixed.now.timeIntervalSince1970 == 1_800_000_000)
        let system = SystemClock()
        #expect(abs(system.now.timeIntervalSinceNow) < 5)
    }
}
