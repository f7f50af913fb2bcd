import CGLib

/// The text in the user's language. Text to translate is a whole sentence
/// with named placeholders, `tr("“{title}” was deleted", ["title": title])`,
/// never pieces glued together (word order differs between languages), and
/// never a Swift interpolation (the catalogue's key would change with it).
/// scripts/update-po finds the calls by these names: keep them literal.
public func tr(_ text: String) -> String {
    // Untranslated, gettext answers with the msgid's own pointer: here the
    // temporary C copy Swift makes of `text`, valid only inside this closure.
    text.withCString { String(cString: g_dgettext(Localization.domain, $0)) }
}

/// A translated sentence with its placeholders filled.
public func tr(_ text: String, _ values: KeyValuePairs<String, String>) -> String {
    Placeholders.fill(tr(text), values.map { ($0.key, $0.value) })
}

/// A translated sentence that differs with a count ("1 message",
/// "5 messages"), in the language's own plural rules; `{count}` is the
/// count, written as the user's locale writes numbers.
public func trn(_ singular: String, _ plural: String, _ count: Int,
                _ values: KeyValuePairs<String, String> = [:]) -> String {
    let chosen = singular.withCString { one in
        plural.withCString { many in String(cString: g_dngettext(Localization.domain, one, many, UInt(max(count, 0)))) }
    }
    let all = values.map { ($0.key, $0.value) } + [("count", LocaleNumbers.integer(count))]
    return Placeholders.fill(chosen, all)
}

/// Text whose English is ambiguous, told apart by a context ("Play" the
/// verb on a button, "Play" a noun): the catalogue keys it as
/// "context\u{04}text", as gettext's pgettext does.
public func trc(_ context: String, _ text: String) -> String {
    let key = context + "\u{04}" + text
    let translated = key.withCString { String(cString: g_dgettext(Localization.domain, $0)) }
    return translated == key ? text : translated
}
