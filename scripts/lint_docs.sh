#!/usr/bin/env bash
# lint_docs.sh [ROOT]: the docs lint (run by `make lint` and, with broken copies it must catch,
# by tb/lint/test_lint_docs.sh as step t-lint-docs). ROOT defaults to the repository.
#
# (a) No work diary in the docs. In docs/reference/, docs/guide/ and docs/results/ (*.md), a
#     line fails when it names a work round ("first round", "second round", ... "this round",
#     "last round", "next round"), a session, a helper, a load figure ("load average", "load 3-7",
#     "load ~1"), a reverted attempt ("reverted"), an issue number ("issue #12", "issues 3",
#     "(#12)"), or a date (YYYY-MM-DD). The one exception: a results page (docs/results/*.md)
#     states the date and machine of its runs on lines that begin "Measured YYYY-MM-DD on "
#     (e.g. "Measured 2026-11-24 on the 2-core AMD EPYC machine: ..."). History belongs in
#     CHANGELOG.md or in git log.
#     A line also fails when it names the work's own version control or clock:
#     - a branch or worktree of the work: "this/the/that/our/its/each/another/separate/feature/
#       work branch", "branch `name`" (a name in backticks or quotes after "branch"), "on
#       branch", "main before", "main after", "main's build/binary/tree", "main HASH",
#       "worktree". Other uses of the word pass: "a generate branch" (RTL), "the 5x5 branch"
#       (a network layer), since a word other than those above stands before "branch".
#     - a path of the project machine: /work/... anywhere (no reader has it); /tmp/... outside
#       a code block (a fenced ``` block or a line indented 4 spaces after a blank line or
#       another such line): a scratch directory is fine in a command a reader runs, not in
#       prose or in `inline code` that narrates a run.
#     - a commit hash (7-40 hex digits, at least one letter a-f and one digit) outside code
#       (code blocks and `inline code`): a hash in a command or a setting a reader types
#       (`GOLDEN_REF=5c3eebf`) passes; "ade92ee (main before)" fails. A results page may
#       also name the commit measured on its "Measured YYYY-MM-DD on" line.
#     - a time of day: HH:MM[:SS] followed by a time zone (UTC, GMT, CET, CEST, Z), or a range
#       HH:MM-HH:MM ("16:54-16:56"). Bit ranges ([23:16]) and ratios (65:80) pass.
# (b) Links. Every relative markdown link [text](target) in README.md, CONTRIBUTING.md,
#     CHANGELOG.md and docs/**/*.md (outside code blocks and `code`) names an existing file, and
#     a #anchor into a .md file (or the same file) names one of its headings by GitHub's slug.
#     Every docs/... path named in cmodel/, rtl/, tb/, scripts/, mk/, synth/, configs/ and the
#     Makefile exists (a path followed by <, $ or { is a pattern and is not checked).
# (c) Sections. A quoted name after a docs page, anywhere in the tree (docs/reference/ni.md
#     "Staging not-due units", docs/results/bench.md, "Identity"), names a heading or a **bold**
#     label of that page (its start or a part of it), so that a renamed section is found.
# Prints one line per finding (FILE:LINE: what) and RESULT lint_docs pass=N fail=M.
set -u
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
exec python3 - "$root" <<'PY'
import glob, os, re, sys, unicodedata

root = sys.argv[1]
bad = []
checked = 0

def rel(p):
    return os.path.relpath(p, root)

# ---- (a) the work-diary grep
DIARY = [
    (re.compile(r"\b(first|second|third|fourth|fifth|sixth|this|that|last|previous|next|later|earlier) round\b", re.I), "a work round"),
    (re.compile(r"\bsessions?\b", re.I), "a session"),
    (re.compile(r"\bhelpers?\b", re.I), "a helper"),
    (re.compile(r"\bload (average|[0-9~])", re.I), "a load figure"),
    (re.compile(r"\breverted\b", re.I), "a reverted attempt"),
    (re.compile(r"\bissues? #?[0-9]+|\(#[0-9]+\)", re.I), "an issue number"),
    (re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]"), "a date"),
]
# the work's own version control and clock; (regex, what, where): where is "all" (every
# line), "prose" (outside code blocks) or "text" (outside code blocks and `inline code`)
WORK = [
    (re.compile(r"\b(this|the|that|our|its|each|another|separate|feature|work) branch(es)?\b"
                r"|\bbranch\s+[`'\"]|\bon branch\b|\bmain (before|after)\b"
                r"|\bmain's (build|binary|tree)\b|\bmain [0-9a-f]{7,40}\b|\bworktrees?\b", re.I),
     "a branch or worktree of the work", "all"),
    (re.compile(r"/work/"), "a path of the project machine", "all"),
    (re.compile(r"(?<![A-Za-z0-9_.])/tmp/"), "a scratch path outside a command", "prose"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"), "a commit hash", "text"),
    (re.compile(r"\b([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?\s*(UTC|GMT|CET|CEST|Z)\b"
                r"|\b([01]?[0-9]|2[0-3]):[0-5][0-9]\s*[-\u2013]\s*([01]?[0-9]|2[0-3]):[0-5][0-9]\b"),
     "a time of day", "all"),
]
MEASURED = re.compile(r"^Measured 20[0-9]{2}-[01][0-9]-[0-3][0-9] on \S")

def fenced(lines):
    """which lines belong to a fenced code block (``` or ~~~, fences included)"""
    out, fence = [], None
    for line in lines:
        s = line.lstrip()
        m = re.match(r"(```+|~~~+)", s)
        if fence:
            if m and s.startswith(fence):
                fence = None
            out.append(True)
        elif m:
            fence = m.group(1)
            out.append(True)
        else:
            out.append(False)
    return out

def code_lines(lines):
    """which lines are code: a fenced block or a line indented 4 spaces (or a tab) after a blank
    line or another such line"""
    out, prev_blank, prev_code = [], True, False
    for line, fence in zip(lines, fenced(lines)):
        ind = fence or (bool(line.strip()) and line.startswith(("    ", "\t")) and (prev_blank or prev_code))
        out.append(ind)
        prev_code, prev_blank = ind and not fence, not line.strip()
    return out
diary_files = sorted(glob.glob(os.path.join(root, "docs/reference/**/*.md"), recursive=True)
                     + glob.glob(os.path.join(root, "docs/guide/**/*.md"), recursive=True)
                     + glob.glob(os.path.join(root, "docs/results/*.md")))
for path in diary_files:
    results = rel(path).startswith("docs/results/")
    checked += 1
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    is_code = code_lines(lines)
    for n, line in enumerate(lines, 1):
        for rx, what in DIARY:
            m = rx.search(line)
            if not m:
                continue
            if what == "a date" and results and MEASURED.match(line) and \
                    not rx.search(line[MEASURED.match(line).end():]):
                continue
            bad.append("%s:%d: work diary (%s): '%s'" % (rel(path), n, what, m.group(0)))
        for rx, what, where in WORK:
            if where != "all" and is_code[n - 1]:
                continue
            text = re.sub(r"`[^`]*`", "``", line) if where == "text" else line
            if what == "a commit hash" and results and MEASURED.match(line):
                continue
            m = rx.search(text)
            if m:
                bad.append("%s:%d: work diary (%s): '%s'" % (rel(path), n, what, m.group(0)))

# ---- (b) links between the docs
def slug(text):
    # GitHub: drop markup, lower case, keep letters, digits, spaces, - and _; spaces -> -
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_" or cat[0] in "LN" or cat == "Mn":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)

def strip_code(lines, inline=True):
    """lines with fenced code blocks blanked and (inline) inline `code` removed"""
    return ["" if fence else re.sub(r"`[^`]*`", "", line) if inline else line
            for line, fence in zip(lines, fenced(lines))]

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, found = {}, set()
        with open(path, encoding="utf-8") as f:
            for line in strip_code(f.read().split("\n"), inline=False):
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                s = slug(m.group(1))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else "%s-%d" % (s, k))
        # explicit <a name="..."> / id="..." anchors
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', f.read()):
                found.add(m.group(1))
        anchors_cache[path] = found
    return anchors_cache[path]

LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
link_files = [os.path.join(root, p) for p in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")]
link_files = [p for p in link_files if os.path.exists(p)]
link_files += sorted(glob.glob(os.path.join(root, "docs/**/*.md"), recursive=True))
for path in link_files:
    checked += 1
    with open(path, encoding="utf-8") as f:
        lines = strip_code(f.read().split("\n"))
    for n, line in enumerate(lines, 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = path if not file_part else os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                bad.append("%s:%d: link to a missing file: %s" % (rel(path), n, target))
                continue
            if anchor and dest.endswith(".md") and anchor not in anchors(dest):
                bad.append("%s:%d: link to a missing heading: %s" % (rel(path), n, target))

# ---- (b) docs/ paths named in the code
DOCPATH = re.compile(r"(?<![A-Za-z0-9_./-])docs/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]")
code_dirs = ("cmodel", "rtl", "tb", "scripts", "mk", "synth", "configs")
code_files = [os.path.join(root, "Makefile")]
for d in code_dirs:
    for dp, dn, fn in os.walk(os.path.join(root, d)):
        code_files += [os.path.join(dp, x) for x in fn]
# the lint and its test name missing paths on purpose
skip = {os.path.join(root, "scripts", "lint_docs.sh"), os.path.join(root, "tb", "lint", "test_lint_docs.sh")}
for path in sorted(code_files):
    if not os.path.isfile(path) or path in skip:
        continue
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        continue
    checked += 1
    for n, line in enumerate(text.split("\n"), 1):
        for m in DOCPATH.finditer(line):
            p = m.group(0)
            nxt = line[m.end():m.end() + 1]
            if nxt in ("<", "$", "{"):
                continue
            if not glob.glob(os.path.join(root, p)):
                bad.append("%s:%d: names a missing docs path: %s" % (rel(path), n, p))

# ---- (c) quoted section names after a docs page
SECREF = re.compile(r'(?<![A-Za-z0-9_./-])(docs/(?:reference|results|guide)/[A-Za-z0-9_/]+\.md)[,:]?\s*\(?(?:section\s*)?"([^"]+)"')
labels_cache = {}
def labels(path):
    if path not in labels_cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        heads = [re.sub(r"^#+\s+", "", l) for l in strip_code(text.split("\n"), inline=False) if re.match(r"^#{1,6}\s", l)]
        labels_cache[path] = [x.replace("`", "") for x in heads + re.findall(r"\*\*(.+?)\*\*", text)]
    return labels_cache[path]
sec_files = [p for p in code_files if os.path.isfile(p) and p not in skip] + link_files
for path in sorted(set(sec_files)):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (UnicodeDecodeError, OSError):
        continue
    for n, line in enumerate(lines, 1):
        for m in SECREF.finditer(line):
            page, name = os.path.join(root, m.group(1)), m.group(2).replace("`", "").rstrip(".,")
            if not os.path.isfile(page):
                continue  # (b) reports a missing page named in the code
            if not any(h.startswith(name) or name in h for h in labels(page)):
                bad.append("%s:%d: names a missing section of %s: \"%s\"" % (rel(path), n, m.group(1), m.group(2)))

for b in bad:
    print(b)
print("RESULT lint_docs pass=%d fail=%d" % (checked, len(bad)))
sys.exit(1 if bad else 0)
PY
