#!/usr/bin/env python3
"""Runs a notebook's code cells the way Jupyter Notebook's "Run all" does, and prints the status
of each execute_reply as a JSON list ("ok", "error", "aborted").

Usage: runall.py NOTEBOOK [KERNEL]. The front-end (notebook 6's Notebook.execute_cells) sends
every cell's execute_request at once, each with stop_on_error true, and leaves stopping to the
kernel: after a cell's error the kernel must abort the requests already sent (ipykernel replies
status "aborted"). nbclient, by contrast, sends one cell at a time and stops on an "error" reply.
The kernel runs in the notebook's folder, as under Jupyter, with this process's environment.
"""
import json
import os
import sys

import nbformat
from jupyter_client.manager import KernelManager

TIMEOUT = 1200  # seconds for one cell's reply: a cold compile of the notebook helpers is slow

path = os.path.abspath(sys.argv[1])
kernel = sys.argv[2] if len(sys.argv) > 2 else "gonb"
cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]

km = KernelManager(kernel_name=kernel)
km.start_kernel(cwd=os.path.dirname(path))
kc = km.client()
kc.start_channels()
try:
    kc.wait_for_ready(timeout=120)
    ids = [kc.execute(src, stop_on_error=True) for src in cells]
    status = {}
    while len(status) < len(ids):
        msg = kc.get_shell_msg(timeout=TIMEOUT)
        parent = msg["parent_header"].get("msg_id")
        if msg["msg_type"] == "execute_reply" and parent in ids:
            status[parent] = msg["content"]["status"]
    print(json.dumps([status[i] for i in ids]))
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=False)
