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
        XCTAssertEqual(try search(store, "december"), [lastYear, today], "a month: every year's")
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

    /// A word that names a day may be in a title too: either matches.
    /// Apostrophes do not matter, and a month is every year's.
    func testDayWordsMatchTitlesTooApostrophesDoNotMatterAndAMonthIsEveryYears() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let dentist = try message(store, "Dentist on Monday", at: day(-5))  // Thursday 26 November
        let monday = try message(store, "Note", at: day(-1))                  // Monday 30 November
        let grandma = try message(store, "Grandma’s birthday", at: day(-3))
        let tea = try message(store, "Tea at Grandma's", at: day(-2))
        let october = try message(store, "Note", at: calendar.date(from: DateComponents(year: 2026, month: 10, day: 3, hour: 9))!)
        let lastOctober = try message(store, "Note", at: calendar.date(from: DateComponents(year: 2025, month: 10, day: 20, hour: 9))!)
        let octoberFest = try message(store, "October fest", at: day(0))
        XCTAssertEqual(try search(store, "monday"), [dentist, monday], "the day, or the word in a title")
        XCTAssertEqual(try search(store, "dentist monday"), [dentist])
        XCTAssertEqual(try search(store, "on monday"), [dentist])
        XCTAssertEqual(try search(store, "note monday"), [monday])
        XCTAssertEqual(try search(store, "grandmas"), [grandma, tea], "with or without an apostrophe, typed or typeset")
        XCTAssertEqual(try search(store, "grandma's birthday"), [grandma])
        XCTAssertEqual(try search(store, "GRANDMA’S"), [grandma, tea])
        XCTAssertEqual(try search(store, "grandma"), [grandma, tea], "a word beginning still")
        XCTAssertEqual(try search(store, "october"), [lastOctober, october, octoberFest], "every year's October, or the word")
        XCTAssertEqual(try search(store, "note october"), [lastOctober, october])
        XCTAssertEqual(try search(store, "october 2025"), [lastOctober], "a year named: that year's")

        try store.rename(tea, to: "Tea at home")
        XCTAssertEqual(try search(store, "grandmas"), [grandma], "a rename updates the folded index")
        try store.delete(grandma)
        try store.purge(grandma)
        XCTAssertEqual(try search(store, "grandmas"), [], "and so does a purge")
        try store.rename(tea, to: "Tea at Grandma’s again")
        XCTAssertEqual(try search(store, "grandmas again"), [tea])
    }

    /// A store made before titles were folded finds them once opened.
    func testAnOlderStoresTitlesAreFoldedWhenItIsOpened() throws {
        let folder = scratch.url.appendingPathComponent("hark")
        let store = try MessageStore(folder: folder)
        let grandma = try message(store, "Grandma's birthday", at: day(-1))
        let minutes = try message(store, "会议记录", at: day(0))
        // As migration 8 left it: titles and transcripts indexed as they are.
        try store.database.execute("""
            DROP TRIGGER messages_search_insert; DROP TRIGGER messages_search_delete; DROP TRIGGER messages_search_update;
            DROP TABLE messages_search;
            CREATE VIRTUAL TABLE messages_search USING fts5(
                title, transcript_words, content='messages', content_rowid='rowid',
                tokenize='unicode61 remove_diacritics 2');
            INSERT INTO messages_search (messages_search) VALUES ('rebuild');
            CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
                INSERT INTO messages_search (rowid, title, transcript_words)
                    VALUES (new.rowid, new.title, new.transcript_words);
            END;
            CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
                INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                    VALUES ('delete', old.rowid, old.title, old.transcript_words);
            END;
            CREATE TRIGGER messages_search_update AFTER UPDATE OF title, transcript_words ON messages BEGIN
                INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                    VALUES ('delete', old.rowid, old.title, old.transcript_words);
                INSERT INTO messages_search (rowid, title, transcript_words)
                    VALUES (new.rowid, new.title, new.transcript_words);
            END;
            ALTER TABLE outbox DROP COLUMN waiting_since;
            ALTER TABLE outbox DROP COLUMN expired;
            ALTER TABLE outbox DROP COLUMN uploaded_size;
            DROP TABLE room_gaps;
            ALTER TABLE outbox DROP COLUMN encrypted_content;
            DROP TABLE encrypted_media;
            DROP TABLE downloads;
            DROP TABLE identity_pins;
            DROP TABLE undecrypted_events;
            ALTER TABLE messages DROP COLUMN encrypted;
            ALTER TABLE messages DROP COLUMN unverified_device;
            ALTER TABLE messages DROP COLUMN transcript_source;
            ALTER TABLE outbox DROP COLUMN caption;
            PRAGMA user_version = 8;
            """)
        XCTAssertEqual(try search(store, "grandmas"), [], "as before")
        let reopened = try MessageStore(folder: folder)
        XCTAssertEqual(try search(reopened, "grandmas"), [grandma])
        XCTAssertEqual(try search(reopened, "birthday"), [grandma])
        XCTAssertEqual(try search(reopened, "议记"), [minutes], "Chinese is cut into characters")
    }

    /// Part of a title is found whatever its script: runs inside Chinese,
    /// Japanese and Korean text, Greek without its accents, Persian whichever
    /// yeh or digits are typed.
    func testPartOfATitleIsFoundInEveryScript() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let chinese = try message(store, "明天下午开会讨论预算", at: day(-6))
        let japanese = try message(store, "明日の会議について", at: day(-5))
        let korean = try message(store, "내일 회의는 취소", at: day(-4))
        let greek = try message(store, "Ραντεβού τη Δευτέρα", at: day(-3))
        let persian = try message(store, "ماشین در پارکینگ ۱۰", at: day(-2))
        let french = try message(store, "Café à côté", at: day(-1))
        XCTAssertEqual(try search(store, "开会"), [chinese])
        XCTAssertEqual(try search(store, "会讨论"), [chinese], "a run from the middle")
        XCTAssertEqual(try search(store, "开预"), [], "characters not side by side are no match")
        XCTAssertEqual(try search(store, "会議"), [japanese])
        XCTAssertEqual(try search(store, "회의"), [korean], "a word with its particle")
        XCTAssertEqual(try search(store, "의는"), [korean])
        XCTAssertEqual(try search(store, "明"), [chinese, japanese], "one character")
        XCTAssertEqual(try search(store, "ραντεβου"), [greek], "accents do not matter in Greek")
        XCTAssertEqual(try search(store, "ΔΕΥΤΕΡΑ"), [greek])
        XCTAssertEqual(try search(store, "ماشين"), [persian], "typed with the Arabic yeh")
        XCTAssertEqual(try search(store, "پارک"), [persian], "a word's beginning")
        XCTAssertEqual(try search(store, "10"), [persian], "Persian digits are digits")
        XCTAssertEqual(try search(store, "۱۰ ماشین"), [persian])
        XCTAssertEqual(try search(store, "cote"), [french], "and accents still do not matter in Latin")
        try store.rename(chinese, to: "预算会议改到周五")
        XCTAssertEqual(try search(store, "开会"), [], "a rename updates the index")
        XCTAssertEqual(try search(store, "周五"), [chinese])
    }

    /// The user's language names days and months too, beside English.
    func testDaysAreNamedInTheUsersLanguage() throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let monday = try message(store, "Note", at: day(-1))  // now is Tuesday 1 December 2026
        let other = try message(store, "Other", at: day(-3))
        func search(_ text: String, _ locale: String) throws -> [String] {
            try store.searchIDs(SearchQuery(text, now: now, calendar: calendar, locale: Locale(identifier: locale)))
        }
        XCTAssertEqual(try search("دوشنبه", "fa_IR"), [monday])
        XCTAssertEqual(try search("Δευτέρα", "el_GR"), [monday])
        XCTAssertEqual(try search("δευτερα", "el_GR"), [monday], "without accents")
        XCTAssertEqual(try search("월요일", "ko_KR"), [monday])
        XCTAssertEqual(try search("星期一", "zh_CN"), [monday])
        XCTAssertEqual(try search("周一", "zh_CN"), [monday])
        XCTAssertEqual(try search("Montag", "de_DE"), [monday])
        XCTAssertEqual(try search("noviembre", "es_ES"), [other, monday], "a month")
        XCTAssertEqual(try search("monday", "fa_IR"), [monday], "English as well")
        XCTAssertEqual(try search("Montag", "fa_IR"), [], "only the user's language")
        XCTAssertEqual(SearchQuery("Mo", now: now, calendar: calendar, locale: Locale(identifier: "de_DE")).words, ["mo"],
                       "an abbreviation is a title word")
    }

    func testTextIsFoldedAsTheIndexHoldsIt() {
        XCTAssertEqual(SearchText.folded("会议").split(separator: " "), ["会", "议"])
        XCTAssertEqual(SearchText.folded("Δευτέρας"), "δευτερασ")
        XCTAssertEqual(SearchText.folded("Grandma’s"), "grandmas")
        XCTAssertEqual(SearchText.folded("كتاب ١٢"), "کتاب 12")
        XCTAssertEqual(SearchText.folded("مُحَمَّد"), "محمد", "short vowels go")
        XCTAssertEqual(SearchQuery("회의 시간", now: now, calendar: calendar).fullTextQuery, "\"회 의\"* \"시 간\"*")
    }

    func testTheQueryIsUnderstoodWithoutTheStore() {
        let query = SearchQuery("Dentist on monday", now: now, calendar: calendar)
        XCTAssertEqual(query.words, ["dentist", "on"])
        XCTAssertEqual(query.dayWords, ["monday"], "which may be in the title instead")
        XCTAssertEqual(query.periods, [day(-1, hour: 0)..<day(0, hour: 0)], "the latest Monday")
        XCTAssertEqual(SearchQuery("Grandma’s", now: now, calendar: calendar).words, ["grandmas"])
        XCTAssertEqual(SearchQuery("1 dec", now: now, calendar: calendar).dayWords, ["1", "dec"])
        let october = SearchQuery("october", now: now, calendar: calendar)
        XCTAssertEqual(october.periods.count, 2026 - SearchQuery.earliestYear + 1, "every year's October")
        XCTAssertEqual(october.periods.last?.lowerBound, calendar.date(from: DateComponents(year: 2026, month: 10, day: 1)))
        XCTAssertEqual(october.periods.first?.lowerBound, calendar.date(from: DateComponents(year: 1970, month: 10, day: 1)))
        XCTAssertEqual(SearchQuery("31 feb", now: now, calendar: calendar).words, ["31", "feb"], "no such day: words")
        XCTAssertTrue(SearchQuery("  ", now: now, calendar: calendar).isEmpty)
        XCTAssertEqual(SearchQuery("may 32", now: now, calendar: calendar).words, ["32"], "no 32nd of May")
    }
}
