"""The translatable text in Hark's Swift sources: every literal passed to
tr(...), trn(..., ...) and trc(..., ...), with its value as Swift reads it
(escapes, and multi-line literals with their indentation taken off), so the
catalogue's keys are exactly the strings the program looks up.

A `// TRANSLATORS:` comment on the lines just above a call goes into the
template for translators (#.), as xgettext's --add-comments does.

Used by scripts/update-po (writes po/hark.pot) and scripts/check-po (fails
on a translated literal with an interpolation in it)."""
import re
import sys

CALL = re.compile(r'(?<![\w.])(tr|trn|trc)\(\s*')
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "'": "'", "\\": "\\"}


class Problem(Exception):
    pass


def unescape(raw, where):
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt == "(":
            raise Problem(f"{where}: an interpolation in translated text (use a {{placeholder}})")
        if nxt == "u":
            end = raw.index("}", i)
            out.append(chr(int(raw[i + 3:end], 16)))
            i = end + 1
            continue
        out.append(ESCAPES[nxt])
        i += 2
    return "".join(out)


def literal_at(text, pos, where):
    """(value, end) of the Swift string literal starting at POS, or None."""
    if text.startswith('"""', pos):
        end = text.index('"""', pos + 3)
        body = text[pos + 3:end]
        lines = body.split("\n")[1:]          # the opening line holds nothing
        indent = lines[-1]                     # the closing delimiter's indentation
        lines = lines[:-1]
        kept = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines]
        joined = ""
        for index, line in enumerate(kept):
            if line.endswith("\\") and not line.endswith("\\\\"):
                joined += line[:-1]
            else:
                joined += line + ("\n" if index < len(kept) - 1 else "")
        return unescape(joined, where), end + 3
    if text.startswith('"', pos):
        i = pos + 1
        while text[i] != '"':
            if text[i] == "\n":
                return None
            i += 2 if text[i] == "\\" else 1
        return unescape(text[pos + 1:i], where), i + 1
    return None


def translator_comment(lines, line):
    """The `// TRANSLATORS:` comment on the lines just above LINE (1-based), or None."""
    block = []
    index = line - 2
    while index >= 0 and lines[index].lstrip().startswith("//"):
        block.insert(0, lines[index].lstrip()[2:].strip())
        index -= 1
    starts = [i for i, text in enumerate(block) if text.startswith("TRANSLATORS:")]
    return " ".join(block[starts[-1]:]) if starts else None


def messages(path):
    """(line, keyword, [strings], comment) for each call in the file at PATH."""
    text = open(path, encoding="utf-8").read()
    original_lines = text.split("\n")
    # Comment lines (an example in a doc comment is not text to translate);
    # blanked, not removed, so line numbers stay right.
    text = re.sub(r'(?m)^[ \t]*//.*$', '', text)
    found = []
    for match in CALL.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        where = f"{path}:{line}"
        keyword, pos, strings = match.group(1), match.end(), []
        wanted = {"tr": 1, "trn": 2, "trc": 2}[keyword]
        while len(strings) < wanted:
            got = literal_at(text, pos, where)
            if got is None:
                break
            value, pos = got
            # "a sentence " + "split over lines": one string, as Swift joins it.
            while (plus := re.match(r'\s*\+\s*(?=")', text[pos:])) and (more := literal_at(text, pos + plus.end(), where)):
                value += more[0]
                pos = more[1]
            strings.append(value)
            comma = re.match(r'\s*,\s*', text[pos:])
            if not comma:
                break
            pos += comma.end()
        if len(strings) == wanted:
            found.append((line, keyword, strings, translator_comment(original_lines, line)))
    return found


def po_quote(value):
    value = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in value:
        return f'"{value}"'
    parts = value.split("\n")
    pieces = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return '""\n' + "\n".join(f'"{p}"' for p in pieces)


def pot(paths):
    entries = {}
    order = []
    for path in paths:
        for line, keyword, strings, comment in messages(path):
            key = tuple([keyword == "trc" and strings[0] or None] + ([strings[1]] if keyword == "trc" else strings))
            if key not in entries:
                entries[key] = (keyword, strings, [], [])
                order.append(key)
            entries[key][2].append(f"{path}:{line}")
            if comment and comment not in entries[key][3]:
                entries[key][3].append(comment)
    out = ['msgid ""', 'msgstr ""',
           '"Project-Id-Version: Hark\\n"',
           '"Report-Msgid-Bugs-To: https://github.com/hark-voice/hark/issues\\n"',
           '"Language: \\n"', '"MIME-Version: 1.0\\n"',
           '"Content-Type: text/plain; charset=UTF-8\\n"', '"Content-Transfer-Encoding: 8bit\\n"',
           '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"', ""]
    for key in order:
        keyword, strings, places, comments = entries[key]
        out.append("#: " + " ".join(places))
        out.extend("#. " + comment for comment in comments)
        if "{" in "".join(strings):
            out.append("#. Keep each {name} as it is: Hark puts a value there.")
        if keyword == "trc":
            out.append("msgctxt " + po_quote(strings[0]))
            out.append("msgid " + po_quote(strings[1]))
            out.append('msgstr ""')
        elif keyword == "trn":
            out.append("msgid " + po_quote(strings[0]))
            out.append("msgid_plural " + po_quote(strings[1]))
            out.append('msgstr[0] ""')
            out.append('msgstr[1] ""')
        else:
            out.append("msgid " + po_quote(strings[0]))
            out.append('msgstr ""')
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    try:
        sys.stdout.write(pot(sys.argv[1:]))
    except Problem as problem:
        sys.exit(f"extract: {problem}")
