import AudioEngine
import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import XCTest

/// Finding messages again: title words through the full-text index (any case
/// or accent), days named as people name them, against a fixed clock.
final class SearchTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var calendar = Calendar(identifier: .gregorian)
    /// Tuesday 1 December 2026, 15:00 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_137_200)

    override func setUpWithError() throws {
        scratch = try ScratchFolder()
        calendar.timeZone = TimeZone(identifier: "UTC")!
    }

    private func day(_ offset: Int, hour: Int = 10) -> Date {
        calendar.date(byAdding: .hour, value: hour, to: calendar.date(byAdding: .day, value: offset, to: calendar.startOfDay(for: now))!)!
    }

    private func message(_ store: MessageStore, _ title: String, at date: Date) throws -> String {
        let message = try store.beginRecording(title: title, at: date)
        try store.finishRecording(message.id, duration: 1, levels: LevelTrack())
        return message.id
    }

    private func search(_ store: MessageStore, _ text: String) throws -> [String] {
        try store.searchIDs(SearchQuery(text, now: now, calendar: calendar))
    }

    func testTitlesMatchByWordBeginningsInAnyCaseAndAccent() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let dentist = try message(store, "Dentist on Monday", at: day(-3))
        let cafe = try message(store, "Café with Zoë", at: day(-2))
        let groceries = try message(store, "Groceries", at: day(-1))
        XCTAssertEqual(try search(store, "dent"), [dentist])
        XCTAssertEqual(try search(store, "DENTIST on"), [dentist], "every word must match")
        XCTAssertEqual(try search(store, "dentist with"), [], "every word must match")
        XCTAssertEqual(try search(store, "cafe zoe"), [cafe], "accents do not matter")
        XCTAssertEqual(try search(store, "CAFÉ"), [cafe])
        XCTAssertEqual(try search(store, "nothing like it"), [])
        XCTAssertEqual(try search(store, "\"*:-(\""), try store.shownIDs(), "punctuation alone is no search")
        XCTAssertEqual(try search(store, ""), [dentist, cafe, groceries], "oldest first, like the history")

        try store.rename(groceries, to: "Milk and bread")
        XCTAssertEqual(try search(store, "groceries"), [], "a rename updates the index")
        XCTAssertEqual(try search(store, "bread"), [groceries])
        try store.delete(cafe)
        XCTAssertEqual(try search(store, "cafe"), [], "deleted messages are not found")
        try store.undelete(cafe)
        XCTAssertEqual(try search(store, "cafe"), [cafe])
    }

    func testDaysAreNamedAsPeopleNameThem() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let today = try message(store, "Note", at: day(0))
        let yesterday = try message(store, "Note", at: day(-1))
        let sunday = try message(store, "Note", at: day(-2))  // 29 November 2026
        let lastWeek = try message(store, "Note", at: day(-8))
        let lastYear = try message(store, "Note", at: calendar.date(from: DateComponents(year: 2025, month: 12, day: 1, hour: 9))!)
        XCTAssertEqual(try search(store, "today"), [today])
        XCTAssertEqual(try search(store, "Yesterday"), [yesterday])
        XCTAssertEqual(try search(store, "sunday"), [sunday])
        XCTAssertEqual(try search(store, "sun"), [sunday], "three letters name a day")
        XCTAssertEqual(try search(store, "tuesday"), [today], "this week's Tuesday is today")
        XCTAssertEqual(try search(store, "1 dec"), [today], "a date without a year: the latest one")
        XCTAssertEqual(try search(store, "dec 1 2025"), [lastYear])
        XCTAssertEqual(try search(store, "23 november"), [lastWeek])
        XCTAssertEqual(try search(store, "november"), [lastWeek, sunday, yesterday], "a month")
        XCTAssertEqual(try search(store, "note yesterday"), [yesterday], "words and a day together")
        XCTAssertEqual(try search(store, "other yesterday"), [])
    }

    func testTenThousandMessagesAreSearchedThroughTheIndex() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        for index in 0..<10_000 {
            _ = try message(store, "Message \(index)", at: now.addingTimeInterval(Double(index - 10_000) * 600))
        }
        XCTAssertEqual(try search(store, "message 9999").count, 1)
        XCTAssertEqual(try search(store, "message 123").count, 11, "123 and 1230…1239: word beginnings")
        XCTAssertEqual(try search(store, "zebra"), [])
        XCTAssertEqual(try search(store, "today").count, 90, "every ten minutes since midnight: 15:00 is the 90th")
        var plan: [String] = []
        try store.run("EXPLAIN QUERY PLAN SELECT id FROM messages WHERE rowid IN "
                      + "(SELECT rowid FROM messages_search WHERE messages_search MATCH 'x*')") { plan.append($0.text(3) ?? "") }
        XCTAssertTrue(plan.contains { $0.contains("VIRTUAL TABLE INDEX") }, "answered by the full-text index: \(plan)")
    }

    func testTheQueryIsUnderstoodWithoutTheStore() {
        let query = SearchQuery("Dentist on monday", now: now, calendar: calendar)
        XCTAssertEqual(query.words, ["dentist", "on"])
        XCTAssertEqual(query.period?.lowerBound, day(-1, hour: 0), "the latest Monday")
        XCTAssertTrue(SearchQuery("  ", now: now, calendar: calendar).isEmpty)
        XCTAssertEqual(SearchQuery("may 32", now: now, calendar: calendar).words, ["32"], "no 32nd of May")
    }
}
