# nbrun's HTML exporter (exporter.go): nbconvert's HTMLExporter, the one `jupyter nbconvert
# --to html` runs, kept warm across exports. Each line on stdin is a request
# {"src": notebook, "dst": html file}; each reply is one line on stdout, {} or {"error": text}.
import json
import sys
import traceback

replies, sys.stdout = sys.stdout, sys.stderr  # nbconvert's own prints go to the log
from nbconvert import HTMLExporter

exporter = HTMLExporter()
for line in sys.stdin:
    try:
        req = json.loads(line)
        body, _ = exporter.from_filename(req["src"])
        with open(req["dst"], "w", encoding="utf-8") as f:
            f.write(body)
        reply = {}
    except Exception:
        reply = {"error": traceback.format_exc(limit=-3)}
    replies.write(json.dumps(reply) + "\n")
    replies.flush()
