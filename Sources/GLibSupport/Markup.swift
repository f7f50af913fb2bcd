import CGLib

/// Text for the places that read Pango markup (an AdwStatusPage's
/// description, an AdwActionRow's title): a room or a person's name from the
/// network is shown as written, never taken for markup.
public enum Markup {
    public static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
