import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// A message's machine transcript under its waveform: a line marked
/// "Automatic transcript" with the transcript's first line (or the words a
/// search found, bold), which a click opens into all of it, segment by
/// segment; the segment being spoken is highlighted, and a click on one
/// seeks there. Without a transcript, its state in words ("Transcribing…",
/// "Transcript failed", "No speech"). Draws what `TranscriptDisplay` decides.
///
/// Its buttons never take the keyboard focus (the row is one stop): the
/// row's menu opens and copies it, and screen readers read it as the row's
/// description.
@MainActor
final class TranscriptView {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The line: a click opens or closes the whole transcript.
    let header: UnsafeMutablePointer<GtkWidget>
    let mark: UnsafeMutablePointer<GtkWidget>
    let line: UnsafeMutablePointer<GtkWidget>
    private let arrow: UnsafeMutablePointer<GtkWidget>
    /// The mark and the arrow, over the line.
    private let markBox: UnsafeMutablePointer<GtkWidget>
    private let segmentBox: UnsafeMutablePointer<GtkWidget>
    /// One button per segment, while open.
    private(set) var segmentButtons: [UnsafeMutablePointer<GtkWidget>] = []
    /// The message's segments, read when first needed (to open it, or to
    /// follow the speech while it plays), until it is shown again.
    var loadSegments: @MainActor () -> [TranscriptSegment] = { [] }
    private var loadedSegments: [TranscriptSegment]?
    var segments: [TranscriptSegment] {
        if let loadedSegments { return loadedSegments }
        let loaded = loadSegments()
        loadedSegments = loaded
        return loaded
    }
    /// The segment shown as being spoken, open.
    private(set) var highlighted: Int?
    /// Closed, while it plays: the segment the line shows instead of the first line.
    private(set) var lineSegment: Int?
    /// The line as it rests (the first line, or a search's excerpt), in markup.
    private var restingLine = ""
    private var searchWords: [String] = []
    private(set) var isExpanded = false
    /// Whether there is a transcript to open (state `done`).
    private(set) var canExpand = false

    /// The line was clicked: open or close.
    var onToggle: @MainActor () -> Void = {}
    /// A segment was clicked: seek to its start.
    var onSeek: @MainActor (Double) -> Void = { _ in }

    static var markText: String { tr("Automatic transcript") }
    static var markTooltip: String { tr("Made on this computer from the recording; it may have mistakes") }
    /// A transcript that came inside the message: its sender's words, not made here.
    static var senderMarkText: String { tr("Sender's transcript") }
    static var senderMarkTooltip: String { tr("Sent with the message by its sender") }

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(widget, "hark-transcript")
        // The mark above the line, so the line has the row's whole width.
        let headerBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        markBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        mark = gtk_label_new(Self.markText)!
        gtk_label_set_xalign(hark_label(mark), 0)
        gtk_widget_add_css_class(mark, "caption")
        gtk_widget_add_css_class(mark, "dim-label")
        gtk_widget_set_tooltip_text(mark, Self.markTooltip)
        gtk_box_append(hark_box(markBox), mark)
        arrow = gtk_image_new_from_icon_name("pan-end-symbolic")!
        gtk_image_set_pixel_size(hark_image(arrow), 12)
        gtk_widget_add_css_class(arrow, "dim-label")
        gtk_box_append(hark_box(markBox), arrow)
        gtk_box_append(hark_box(headerBox), markBox)
        line = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(line), 0)
        gtk_label_set_ellipsize(hark_label(line), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(hark_label(line), 1)
        gtk_widget_set_hexpand(line, 1)
        gtk_widget_add_css_class(line, "hark-transcript-line")
        gtk_box_append(hark_box(headerBox), line)
        header = gtk_button_new()!
        gtk_button_set_child(hark_button(header), headerBox)
        gtk_widget_add_css_class(header, "flat")
        gtk_widget_add_css_class(header, "hark-transcript-header")
        gtk_box_append(hark_box(widget), header)
        segmentBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(segmentBox, "hark-transcript-segments")
        gtk_widget_set_visible(segmentBox, 0)
        gtk_box_append(hark_box(widget), segmentBox)
        gtk_widget_set_visible(widget, 0)
        Self.keepOutOfFocus(header)
        Signal.connect(UnsafeMutableRawPointer(header), "clicked") { [weak self] in
            guard let self, self.canExpand else { return }
            self.onToggle()
        }
    }

    /// Shows a message's transcript (or its state): `words`, a search's,
    /// are shown bold, in an excerpt around the first one found.
    func show(_ message: Message, searchWords words: [String], transcriptionOn: Bool, failure: String?) {
        loadedSegments = nil
        lineSegment = nil
        searchWords = words
        gtk_widget_remove_css_class(line, "hark-segment-current")
        guard message.transcriptState != .none else {
            gtk_widget_set_visible(widget, 0)
            canExpand = false
            return
        }
        gtk_widget_set_visible(widget, 1)
        canExpand = message.transcriptState == .done
        // Only a transcript opens: a state in words takes no clicks' look.
        if canExpand { gtk_widget_remove_css_class(header, "hark-inert") } else { gtk_widget_add_css_class(header, "hark-inert") }
        gtk_widget_set_visible(markBox, canExpand ? 1 : 0)
        let fromSender = message.transcriptSource == .sender
        gtk_label_set_text(hark_label(mark), fromSender ? Self.senderMarkText : Self.markText)
        gtk_widget_set_tooltip_text(mark, fromSender ? Self.senderMarkTooltip : Self.markTooltip)
        gtk_widget_set_sensitive(header, 1)
        if canExpand, let transcript = message.transcript {
            let pieces = TranscriptDisplay.excerpt(of: transcript, matching: words)
                ?? [TranscriptDisplay.Piece(TranscriptDisplay.firstLine(of: transcript))]
            restingLine = Self.markup(pieces)
            gtk_label_set_markup(hark_label(line), restingLine)
            gtk_widget_remove_css_class(line, "dim-label")
        } else {
            gtk_label_set_text(hark_label(line), RowDescription.transcriptState(message.transcriptState,
                                                                                transcriptionOn: transcriptionOn) ?? "")
            gtk_widget_add_css_class(line, "dim-label")
            gtk_widget_set_tooltip_text(header, message.transcriptState == .failed ? failure : nil)
        }
    }

    /// Opens the whole transcript, its segments (words bold as in `show`), or closes it.
    func setExpanded(_ expanded: Bool) {
        let expanded = expanded && canExpand
        isExpanded = expanded
        gtk_image_set_from_icon_name(hark_image(arrow), expanded ? "pan-down-symbolic" : "pan-end-symbolic")
        gtk_widget_set_visible(line, expanded ? 0 : 1)
        if lineSegment != nil {  // the line rests while hidden; it follows again once closed
            lineSegment = nil
            gtk_label_set_markup(hark_label(line), restingLine)
            gtk_widget_remove_css_class(line, "hark-segment-current")
        }
        gtk_widget_set_visible(segmentBox, expanded ? 1 : 0)
        if canExpand {
            let what = expanded ? tr("Show the first line") : tr("Show the whole transcript")
            gtk_widget_set_tooltip_text(header, what)
            hark_accessible_set_label(UnsafeMutableRawPointer(header), what)
        }
        for button in segmentButtons { gtk_box_remove(hark_box(segmentBox), button) }
        segmentButtons = []
        highlighted = nil
        for segment in expanded ? segments : [] {
            let label = gtk_label_new(nil)!
            gtk_label_set_markup(hark_label(label), Self.markup(TranscriptDisplay.marked(segment.text, matching: searchWords)))
            gtk_label_set_wrap(hark_label(label), 1)
            gtk_label_set_wrap_mode(hark_label(label), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_xalign(hark_label(label), 0)
            let button = gtk_button_new()!
            gtk_button_set_child(hark_button(button), label)
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "hark-segment")
            gtk_widget_set_tooltip_text(button, tr("Play from {position}", ["position": DurationText.clock(segment.start)]))
            Self.keepOutOfFocus(button)
            let start = segment.start
            Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.onSeek(start) }
            gtk_box_append(hark_box(segmentBox), button)
            segmentButtons.append(button)
        }
    }

    /// Highlights the segment spoken at `time` (nil: none, not playing);
    /// closed, the line shows it. Cheap when nothing changes (it follows
    /// the playhead 20 times a second), and reads no segments while the
    /// message does not play.
    func highlight(at time: Double?) {
        guard canExpand, time != nil || highlighted != nil || lineSegment != nil else { return }
        if isExpanded {
            let index = time.flatMap { TranscriptDisplay.segmentIndex(at: $0, in: segments) }
            guard index != highlighted else { return }
            if let old = highlighted, old < segmentButtons.count {
                gtk_widget_remove_css_class(segmentButtons[old], "hark-segment-current")
            }
            if let index, index < segmentButtons.count {
                gtk_widget_add_css_class(segmentButtons[index], "hark-segment-current")
            }
            highlighted = index
        } else {
            let index = time.flatMap { TranscriptDisplay.lastStartedIndex(at: $0, in: segments) }
            guard index != lineSegment else { return }
            lineSegment = index
            if let index, index < segments.count {
                gtk_label_set_markup(hark_label(line), Self.markup(TranscriptDisplay.marked(segments[index].text, matching: searchWords)))
                gtk_widget_add_css_class(line, "hark-segment-current")
            } else {
                gtk_label_set_markup(hark_label(line), restingLine)
                gtk_widget_remove_css_class(line, "hark-segment-current")
            }
        }
    }

    private static func keepOutOfFocus(_ button: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_focusable(button, 0)
        gtk_widget_set_focus_on_click(button, 0)
    }

    /// Pango markup for `pieces`, the matched ones bold.
    static func markup(_ pieces: [TranscriptDisplay.Piece]) -> String {
        pieces.map { $0.matched ? "<b>\(escaped($0.text))</b>" : escaped($0.text) }.joined()
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
