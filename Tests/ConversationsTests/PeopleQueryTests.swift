import Conversations
import XCTest

/// What New Conversation makes of what is typed, and how a person reads in its results: pure.
final class PeopleQueryTests: XCTestCase {
    let me = "@alice:localhost"

    func testAWholeMatrixIDIsOfferedAsTypedAndOtherTextIsSearchedFor() {
        XCTAssertEqual(PeopleQuery(""), .empty)
        XCTAssertEqual(PeopleQuery("  \n"), .empty)
        XCTAssertNil(PeopleQuery(" ").searchTerm)
        XCTAssertEqual(PeopleQuery(" @carol:example.org "), .userID("@carol:example.org"), "spaces around a pasted ID go")
        XCTAssertEqual(PeopleQuery("@carol:localhost:8448"), .userID("@carol:localhost:8448"))
        for words in ["carol", "Carol Singer", "@carol", "@carol:", "@:localhost", "@carol singer:localhost", "carol:localhost"] {
            XCTAssertEqual(PeopleQuery(words), .words(words), words)
        }
        XCTAssertEqual(PeopleQuery("Carol Singer").searchTerm, "Carol Singer")
        XCTAssertEqual(PeopleQuery("@carol:localhost").searchTerm, "@carol:localhost", "asked too, for the person's name")
    }

    func testATypedIDComesFirstNamedWhenTheDirectoryKnowsIt() {
        let carol = Person(userID: "@carol:localhost", displayName: "Carol Singer")
        let caroline = Person(userID: "@caroline:localhost", displayName: "Caroline")
        XCTAssertEqual(PeopleQuery("@carol:localhost").offered(found: [], me: me), [Person(userID: "@carol:localhost")],
                       "offered before the directory answers")
        XCTAssertEqual(PeopleQuery("@carol:localhost").offered(found: [caroline, carol], me: me), [carol, caroline])
        XCTAssertEqual(PeopleQuery("@dan:elsewhere.org").offered(found: [carol], me: me),
                       [Person(userID: "@dan:elsewhere.org"), carol], "an ID the directory does not know is still offered")
        XCTAssertEqual(PeopleQuery("car").offered(found: [carol, caroline, carol], me: me), [carol, caroline], "no one twice")
        XCTAssertEqual(PeopleQuery("").offered(found: [], me: me), [])
    }

    func testTheAccountItselfIsNeverOffered() {
        let alice = Person(userID: me, displayName: "Alice")
        XCTAssertEqual(PeopleQuery(me).offered(found: [alice], me: me), [])
        XCTAssertEqual(PeopleQuery("ali").offered(found: [alice, Person(userID: "@alina:localhost")], me: me),
                       [Person(userID: "@alina:localhost")])
    }

    func testAResultShowsTheNameOverTheMatrixIDOrTheIDAlone() {
        let named = Person(userID: "@carol:localhost", displayName: "Carol Singer")
        XCTAssertEqual(named.title, "Carol Singer")
        XCTAssertEqual(named.subtitle, "@carol:localhost")
        for unnamed in [Person(userID: "@carol:localhost"), Person(userID: "@carol:localhost", displayName: ""),
                        Person(userID: "@carol:localhost", displayName: " \n ")] {
            XCTAssertEqual(unnamed.title, "@carol:localhost")
            XCTAssertNil(unnamed.subtitle, "the ID is not said twice")
        }
    }

    func testANameFromTheNetworkIsOneLineAndCut() {
        let person = Person(userID: "@eve:localhost", displayName: "Eve\n\u{202E}Evil\u{202C}" + String(repeating: "e", count: 5_000))
        XCTAssertFalse(person.title.contains("\n"))
        XCTAssertFalse(person.title.unicodeScalars.contains("\u{202E}"), "no bidi override")
        XCTAssertLessThanOrEqual(person.title.count, 201)
        XCTAssertTrue(person.title.hasPrefix("Eve Evil"), person.title)
    }
}
