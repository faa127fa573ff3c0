# nbrun's notebook runner (execute.go): `jupyter nbconvert --to notebook --execute
# --allow-errors` (the same NotebookExporter and ExecutePreprocessor, run by nbconvert's code on
# the same notebook, so the same executed notebook), with nbclient's hooks reporting each code
# cell's start and end on stdout as JSON lines: {"start": i} and {"end": i, "status": "ok"},
# i the cell's index among all cells. Usage: execute.py SRC DST KERNEL TIMEOUT_SECONDS.
import json
import sys

from traitlets.config import Config

events, sys.stdout = sys.stdout, sys.stderr  # nbconvert's own prints go to the log
from nbconvert.exporters import NotebookExporter


def emit(**e):
    events.write(json.dumps(e) + "\n")
    events.flush()


def on_execute(cell, cell_index, **_):
    emit(start=cell_index)


def on_executed(cell, cell_index, execute_reply=None, **_):
    status = (execute_reply or {}).get("content", {}).get("status", "")
    emit(end=cell_index, status=status)


src, dst, kernel, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
c = Config()
c.ExecutePreprocessor.enabled = True
c.ExecutePreprocessor.allow_errors = True
c.ExecutePreprocessor.kernel_name = kernel
c.ExecutePreprocessor.timeout = timeout
c.ExecutePreprocessor.on_cell_execute = on_execute
c.ExecutePreprocessor.on_cell_executed = on_executed
body, _ = NotebookExporter(config=c).from_filename(src)
with open(dst, "w", encoding="utf-8") as f:
    f.write(body)
