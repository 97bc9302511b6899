#!/usr/bin/env python3
"""run_guide.py: run the shell blocks of the guide pages and check their output (make t-docs).

    tb/docs/run_guide.py [--build DIR] [--scratch DIR] [--name NAME] [PAGE.md ...]
                                           (default: build/, build/docs, docs/guide/*.md)

Every ```sh block of a page runs, in page order, as its own `bash -e` (as typed: no pipefail, so `cmd | head -1` is fine) in a fresh
scratch directory for that page (SCRATCH/<page>/, emptied first), with BUILD first on PATH
(so `multitree` is build/multitree) and MULTITREE set to the checkout. A block passes
when it exits 0 (or as its `exit` directive says) and every expected line appears in its
output (stdout and stderr together).

Expected output: a ```text block that follows a ```sh block (blank lines between are allowed)
is what the reader should see. Each of its lines must appear, in that order, inside a line of
the output, with runs of blank space counting as one space; `...` inside a line matches
anything, and a line that is only `...` stands for lines left out.

Files: a block opened with ```LANG file=NAME (e.g. ```systemverilog file=my_top.sv) is a file
the page asks the reader to save; the runner writes it into the scratch directory at that
point of the page.

Directives: HTML comments just before a ```sh block, one per line, for the runner only:
    <!-- t-docs: skip REASON -->       not run; counted and listed as skipped
    <!-- t-docs: sub OLD => NEW -->     replace the text OLD by NEW in the command before it
                                        runs (e.g. a smaller size under test); the text block
                                        after it is then shown only, not checked
    <!-- t-docs: expect LINE -->        one more expected line (same rules as above)
    <!-- t-docs: exit N -->             the block must exit with status N
    <!-- t-docs: timeout S -->          seconds before the block is stopped (default 60)
    <!-- t-docs: nocheck -->            do not compare the text block after this one

Links: every relative link of a page outside code blocks must name a file that exists and, with
#anchor, one of its headings; one pass per page whose links all resolve. A link into a
directory that holds no Markdown page at all is listed as skipped.

Prints one line per block and `RESULT NAME pass=N fail=M` (NAME default t-docs): one pass
per block that ran and matched, and one per page for its links. Exit 0 whether blocks failed or not (make's step reads the
RESULT line). A page it cannot parse (an unclosed block, an unknown directive, a `sub` whose
OLD is not in its block) counts as one failure.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRECTIVE = re.compile(r'^\s*<!--\s*t-docs:\s*(\w+)\s*(.*?)\s*-->\s*$')
FENCE = re.compile(r'^```(\S*)(?:\s+file=(\S+))?\s*$')


class Block:
    def __init__(self, page, line, cmd):
        self.page, self.line, self.cmd = page, line, cmd
        self.expect, self.subs = [], []
        self.skip, self.exit, self.timeout, self.nocheck = None, 0, 60, False

    def where(self):
        return f"{os.path.relpath(self.page, TOP)}:{self.line}"


class PageError(Exception):
    pass


class FileBlock:
    def __init__(self, page, line, name, text):
        self.page, self.line, self.name, self.text = page, line, name, text


def parse(page):
    """The page's sh blocks, with their directives and expected lines."""
    lines = open(page, encoding='utf-8').read().split('\n')
    blocks, pending, i = [], [], 0

    def fenced(start):
        """(body lines, index after the closing fence) of the block opened at start."""
        j = start + 1
        while j < len(lines) and not FENCE.match(lines[j]):
            j += 1
        if j == len(lines):
            raise PageError(f"{page}:{start + 1}: code block not closed")
        return lines[start + 1:j], j + 1

    while i < len(lines):
        m = DIRECTIVE.match(lines[i])
        if m:
            pending.append((i + 1, m.group(1), m.group(2)))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if not f:
            if lines[i].strip():
                pending = []  # a directive applies to the block right after it only
            i += 1
            continue
        body, nxt = fenced(i)
        if f.group(2):  # a file the reader saves: written into the scratch directory here
            blocks.append(FileBlock(page, i + 1, f.group(2), '\n'.join(body) + '\n'))
        if f.group(1) != 'sh' or f.group(2):
            pending, i = [], nxt
            continue
        b = Block(page, i + 1, '\n'.join(body) + '\n')
        shown = []
        for ln, key, arg in pending:
            if key == 'skip':
                b.skip = arg or 'no reason given'
            elif key == 'sub':
                old, sep, new = arg.partition('=>')
                if not sep or not old.strip():
                    raise PageError(f"{page}:{ln}: sub needs 'OLD => NEW'")
                b.subs.append((old.strip(), new.strip()))
            elif key == 'expect':
                b.expect.append(arg)
            elif key == 'exit':
                b.exit = int(arg)
            elif key == 'timeout':
                b.timeout = int(arg)
            elif key == 'nocheck':
                b.nocheck = True
            else:
                raise PageError(f"{page}:{ln}: unknown t-docs directive '{key}'")
        pending = []
        j = nxt
        while j < len(lines) and not lines[j].strip():
            j += 1
        g = FENCE.match(lines[j]) if j < len(lines) else None
        if g and g.group(1) == 'text' and not g.group(2):
            shown, nxt = fenced(j)
        if not b.subs and not b.nocheck:
            b.expect = [s for s in shown if s.strip() and s.strip() != '...'] + b.expect
        for old, _ in b.subs:
            if old not in b.cmd:
                raise PageError(f"{page}:{b.line}: sub '{old}': not in the block")
        blocks.append(b)
        i = nxt
    return blocks


def pattern(line):
    """A regex for an expected line: blank runs are one space, '...' matches anything."""
    parts = [re.escape(' '.join(p.split())) for p in line.split('...')]
    return re.compile('.*'.join(parts))


def check(block, out):
    """The first expected line not found (in order) in out, or None."""
    got = [' '.join(s.split()) for s in out.split('\n')]
    k = 0
    for want in block.expect:
        pat = pattern(want)
        while k < len(got) and not pat.search(got[k]):
            k += 1
        if k == len(got):
            return want
        k += 1
    return None


LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def slug(heading):
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    h = re.sub(r'[^\w\- ]', '', heading.strip().lower().replace('`', ''))
    return h.replace(' ', '-')


def check_links(page):
    """([(status, message)] of the links that fail or are skipped, links checked): every
    relative link of the page outside code blocks must name a file that exists and, with
    #anchor, one of its headings. A link into a directory with no Markdown page in this tree
    (a part of docs/ not merged yet) is skipped (listed), not failed."""
    res, fenced, count = [], False, 0
    for ln, line in enumerate(open(page, encoding='utf-8'), 1):
        if FENCE.match(line.rstrip('\n')):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in LINK.findall(line):
            if re.match(r'^[a-z]+:', target):
                continue  # http:, https:, mailto:
            count += 1
            path, _, anchor = target.partition('#')
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = f"{os.path.relpath(page, TOP)}:{ln}: link {target}"
            d = os.path.dirname(full) if path and not path.endswith('/') else full
            if not os.path.exists(full) and not glob.glob(os.path.join(d, '*.md')):
                res.append(('SKIP', f"{where}: {os.path.relpath(d, TOP)}/ has no pages in this tree"))
            elif not os.path.exists(full):
                res.append(('FAIL', f"{where}: no such file"))
            elif anchor and os.path.isfile(full) and anchor not in {
                    slug(h.lstrip('#')) for h in open(full, encoding='utf-8') if h.startswith('#')}:
                res.append(('FAIL', f"{where}: no heading with that anchor"))
    return res, count


def run_page(page, scratch, env):
    blocks = parse(page)
    name = os.path.splitext(os.path.basename(page))[0]
    work = os.path.join(scratch, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    res = []  # (status, block, message)
    for b in blocks:
        if isinstance(b, FileBlock):
            path = os.path.join(work, b.name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(b.text)
            continue
        if b.skip:
            res.append(('SKIP', b, b.skip))
            continue
        cmd = b.cmd
        for old, new in b.subs:
            cmd = cmd.replace(old, new)
        # its own process group, so that a timeout stops everything the block started
        t0 = time.monotonic()
        p = subprocess.Popen(['bash', '-e', '-c', cmd], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            raw, _ = p.communicate(timeout=b.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            raw, _ = p.communicate()
            rc = None
        out = raw.decode('utf-8', 'replace')
        secs = f"{time.monotonic() - t0:.1f} s"
        with open(os.path.join(work, f"block_{b.line}.log"), 'w', encoding='utf-8') as f:
            f.write(f"$ {cmd}\n{out}")
        if rc is None:
            why = f"timed out after {b.timeout} s"
        elif rc != b.exit:
            why = f"exit status {rc}, expected {b.exit}"
        else:
            miss = check(b, out)
            why = f"expected output not found: '{miss}'" if miss is not None else None
        if why:
            tail = '\n'.join('    | ' + s for s in out.rstrip('\n').split('\n')[-12:])
            res.append(('FAIL', b, f"{why} ({secs})\n    $ {cmd.strip()}\n{tail}"))
        else:
            res.append(('PASS', b, f"{len(b.expect)} output lines checked ({secs})"))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(TOP, 'build'), help='put on PATH (default build/)')
    ap.add_argument('--scratch', help='scratch directories (default BUILD/docs)')
    ap.add_argument('--name', default='t-docs')
    ap.add_argument('pages', nargs='*')
    a = ap.parse_args()
    pages = a.pages or sorted(glob.glob(os.path.join(TOP, 'docs', 'guide', '*.md')))
    if not pages:
        print(f"RESULT {a.name} pass=0 fail=1 (no pages)")
        return 0
    build = os.path.abspath(a.build)
    scratch = a.scratch or os.path.join(build, 'docs')
    env = dict(os.environ, MULTITREE=TOP, PATH=build + os.pathsep + os.environ['PATH'])
    n = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    skipped = []
    for page in pages:
        try:
            results = run_page(os.path.abspath(page), os.path.abspath(scratch), env)
        except (PageError, OSError) as err:
            n['FAIL'] += 1
            print(f"FAIL {os.path.relpath(page, TOP)}: {err}", flush=True)
            continue
        links, nlinks = check_links(os.path.abspath(page))
        bad = [m for st, m in links if st == 'FAIL']
        for m in bad:
            print(f"FAIL {m}", flush=True)
        skipped += [m for st, m in links if st == 'SKIP']
        n['FAIL' if bad else 'PASS'] += 1
        if not bad:
            print(f"PASS {os.path.relpath(page, TOP)}: {nlinks} links ({len(links)} skipped)", flush=True)
        for status, b, msg in results:
            n[status] += 1
            print(f"{status} {b.where()}: {msg}", flush=True)
            if status == 'SKIP':
                skipped.append(f"{b.where()} ({msg})")
    print(f"skipped {len(skipped)} block(s) and link(s)" + ''.join(f"\n  {s}" for s in skipped))
    print(f"RESULT {a.name} pass={n['PASS']} fail={n['FAIL']}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
