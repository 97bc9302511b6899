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
of the headers has no cycle. Within a layer no two .c files call into each other (a cycle of
length 2 in the file-level graph "refers to a function defined in": a function name used in
one file's function bodies or initialisers that another file of the layer defines, not
static; a .c file that another .c file includes is part of the includer). And no function of
the layers in LONG_FN_LAYERS is over MAX_FN_LINES lines (from its first line to its closing
brace). Prints one line per violation (file:line: what, what is allowed) and RESULT
lint_layers pass=N fail=M; exit 1 on any violation."""
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
IDENT = re.compile(r"[A-Za-z_]\w*")
MAX_FN_LINES = 150
LONG_FN_LAYERS = {"net"}  # the other layers still hold longer functions


def strip_c(text):
    """Comments and the insides of string and character literals as spaces, preprocessor
    lines (with their continuations) blank; newlines kept, so offsets give line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines, cont = "".join(out).split("\n"), False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


def c_functions(s):
    """Function definitions at file scope of stripped C text s: (name, static, first line,
    last line, body start, body end)."""
    res, depth, start, i = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if c == "{" and depth == 0:
            head = s[start:i]
            m = re.search(r"([A-Za-z_]\w*)\s*\(", head)
            if m and "=" not in head and head.rstrip().endswith(")") and not re.match(r"\s*(typedef|struct|union|enum)\b", head):
                d, j = 0, i
                while j < len(s):
                    d += s[j] == "{"
                    d -= s[j] == "}"
                    if d == 0:
                        break
                    j += 1
                first = s.count("\n", 0, start + len(head) - len(head.lstrip())) + 1
                res.append((m.group(1), bool(re.search(r"\bstatic\b", head)), first, s.count("\n", 0, j) + 1, i, j))
                i = start = j + 1
                continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            start = i + 1
        i += 1
    return res


def layer_calls(root, layer, names):
    """Violations of one layer's .c files (names): pairs that call into each other, and
    functions over MAX_FN_LINES in LONG_FN_LAYERS."""
    bad, d = [], os.path.join(root, layer)
    raw = {n: open(os.path.join(d, n), encoding="utf-8").read() for n in names}
    owner = {n: n for n in names}  # a .c included by a .c (a unity build) is part of it
    for n, t in raw.items():
        for m in re.finditer(r'#\s*include\s*"%s/([^"]+\.c)"' % re.escape(layer), t):
            if m.group(1) in owner:
                owner[m.group(1)] = n
    defs, uses = {}, {}
    for n in names:
        s = strip_c(raw[n])
        fns = c_functions(s)
        for name, static, first, last, _, _ in fns:
            if not static:
                defs.setdefault(name, owner[n])
            if layer in LONG_FN_LAYERS and last - first + 1 > MAX_FN_LINES:
                bad.append(f"{root}/{layer}/{n}:{first}: function {name} is {last - first + 1} lines; "
                           f"at most {MAX_FN_LINES} in {layer}/ (split it)")
        text = " ".join(s[b:e] for _, _, _, _, b, e in fns)
        text += " ".join(m.group(1) for m in re.finditer(r"=\s*(\{.*?\});", s, re.S))  # tables of functions
        uses.setdefault(owner[n], set()).update(IDENT.findall(text))
    edges = {}
    for a, ids in uses.items():
        for i in ids:
            b = defs.get(i)
            if b and b != a:
                edges.setdefault((a, b), set()).add(i)
    for (a, b), fa in sorted(edges.items()):
        if a < b and (b, a) in edges:
            bad.append(f"{root}/{layer}/{a}: {layer}/{a} and {layer}/{b} call each other ({a} uses {', '.join(sorted(fa))}; "
                       f"{b} uses {', '.join(sorted(edges[(b, a)]))}); a layer's files call one way (move what both use into one of them, "
                       f"or into a file both call)")
    return bad


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
    for layer in sorted(ALLOWED):
        d = os.path.join(root, layer)
        if os.path.isdir(d):
            bad += layer_calls(root, layer, sorted(n for n in os.listdir(d) if n.endswith(".c")))
    for b in bad:
        print(b)
    print(f"lint_layers: {files} files under {root}, {len(bad)} violations")
    print(f"RESULT lint_layers pass={files - min(files, len(bad))} fail={len(bad)}")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
