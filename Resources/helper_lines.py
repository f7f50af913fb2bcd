"""The JSON-lines loop Hark's helpers share (transcriber.py, crypto-engine.py):
one request per line on standard input, one answer per line on standard
output carrying the request's id (Sources/HelperProcesses' JSONLinesChannel
matches them). Imported from beside the helper."""
import json
import sys


def write(answer):
    """One line on standard output, at once."""
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def serve(answer, failed):
    """answer(request) for each request, until the end of the input; what it
    raises becomes failed(error)'s line. Either line gets the request's id."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue  # also what Hark sends to see the helper still reads
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            reply = answer(request)
        except Exception as error:  # one request's failure is not the helper's
            reply = failed(error)
        reply["id"] = request_id
        write(reply)
