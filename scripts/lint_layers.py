#!/usr/bin/env python3
"""lint_layers.py [CMODEL_DIR]: the layer rule of the C model (docs/reference/architecture.md).

cmodel/ has one folder per layer; an include names the layer ("hw/mt_ni.h"). A file may
include headers of its own layer and of the layers it is allowed to see:

  util  <- fmt  <- topo <- plan <- table
  util, fmt     <- hw          (hardware sees the entry and flit formats, never the planner
                                or a file writer)
  util .. plan  <- flow        (the flow-level simulator: schedules on links, no hardware)
  everything but flow <- net;  util <- train (DNN workloads, compute, the iteration model);
  everything <- app

Also: every project include names a layer folder, the header exists, and the include graph
of the headers has no cycle. Prints one line per violation (file:line: what, what is
allowed) and RESULT lint_layers pass=N fail=M; exit 1 on any violation."""
import os, re, sys

ALLOWED = {
    "util": {"util"},
    "fmt": {"util", "fmt"},
    "topo": {"util", "fmt", "topo"},
    "plan": {"util", "fmt", "topo", "plan"},
    "flow": {"util", "fmt", "topo", "plan", "flow"},
    "table": {"util", "fmt", "topo", "plan", "table"},
    "hw": {"util", "fmt", "hw"},
    "net": {"util", "fmt", "topo", "plan", "table", "hw", "net"},
    "train": {"util", "train"},
    "app": {"util", "fmt", "topo", "plan", "flow", "table", "hw", "net", "train", "app"},
}
INC = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "cmodel")
    root = os.path.normpath(root)
    bad, files, graph = [], 0, {}
    for layer in sorted(os.listdir(root)):
        d = os.path.join(root, layer)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            rel = f"{layer}/{name}"
            if layer not in ALLOWED:
                bad.append(f"{root}/{rel}: folder '{layer}' is not a layer (layers: {', '.join(ALLOWED)})")
                continue
            graph[rel] = []
            with open(os.path.join(d, name), encoding="utf-8") as f:
                for ln, line in enumerate(f, 1):
                    m = INC.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    where = f"{root}/{rel}:{ln}"
                    if "/" not in inc:
                        bad.append(f"{where}: #include \"{inc}\" names no layer (write \"<layer>/{inc}\")")
                        continue
                    il = inc.split("/")[0]
                    if not os.path.isfile(os.path.join(root, inc)):
                        bad.append(f"{where}: #include \"{inc}\": no such header in {root}")
                    elif il not in ALLOWED[layer]:
                        bad.append(f"{where}: #include \"{inc}\": layer '{layer}' may not include '{il}' "
                                   f"(allowed: {', '.join(sorted(ALLOWED[layer]))})")
                    graph[rel].append(inc)
    # include cycles (header guards hide them from the compiler)
    state = {}
    def visit(n, stack):
        state[n] = 1
        for m in graph.get(n, []):
            if state.get(m) == 1:
                cyc = stack[stack.index(m):] + [m] if m in stack else [n, m]
                bad.append(f"{root}: include cycle: {' -> '.join(cyc)}")
            elif m not in state:
                visit(m, stack + [m])
        state[n] = 2
    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    for b in bad:
        print(b)
    print(f"lint_layers: {files} files under {root}, {len(bad)} violations")
    print(f"RESULT lint_layers pass={files - min(files, len(bad))} fail={len(bad)}")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
