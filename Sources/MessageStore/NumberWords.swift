/// Numbers in both forms, for the search index: Whisper writes "10 minutes",
/// people search for "ten" as often as for "10". Pure; English.
public enum NumberWords {
    private static let small = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                "seventeen", "eighteen", "nineteen"]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// `number` spelled out ("twenty one", "three hundred five"), up to 999 999 999.
    public static func spelled(_ number: Int) -> String? {
        guard number >= 0, number < 1_000_000_000 else { return nil }
        if number < 20 { return small[number] }
        if number < 100 { return tens[number / 10] + (number % 10 == 0 ? "" : " " + small[number % 10]) }
        for (size, name) in [(1_000_000, "million"), (1000, "thousand"), (100, "hundred")] where number >= size {
            let rest = number % size
            return spelled(number / size)! + " " + name + (rest == 0 ? "" : " " + spelled(rest)!)
        }
        return nil
    }

    /// The digits a single number word stands for ("ten" → 10), or nil.
    public static func digits(of word: String) -> Int? {
        if let index = small.firstIndex(of: word) { return index }
        if let index = tens.firstIndex(of: word), index >= 2 { return index * 10 }
        switch word {
        case "hundred": return 100
        case "thousand": return 1000
        default: return nil
        }
    }

    /// The words `text` is found by: itself, then each number in its other
    /// form ("at 10" adds "ten"; "at ten" adds "10"; "4:30" adds "four thirty").
    public static func searchWords(for text: String) -> String {
        var extra: [String] = []
        for token in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            if token.allSatisfy(\.isASCII), let number = Int(token), let words = spelled(number) {
                extra.append(words)
            } else if let number = digits(of: String(token)) {
                extra.append(String(number))
            }
        }
        return extra.isEmpty ? text : text + "\n" + extra.joined(separator: " ")
    }
}
