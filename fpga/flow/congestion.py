#!/usr/bin/env python3
"""Summarise a router2 congestion heatmap of nextpnr (--router2-heatmap PREFIX writes
PREFIX_congestion_by_coordinate_ITER.csv after each iteration: one line per column x, one value
per row y, the sum over the wires at (x, y) used by more than one net of their use count).

  congestion.py CSV [--tile T] [--rows Y,Y,...] [--map]

prints the total, the share of it in the middle half of the columns (x from X/4 to 3X/4), the
hottest T x T tile (default 6) and its share; with --rows the share of those rows (e.g. the
device's block RAM rows); with --map a coarse picture of T x T tiles (rows of tiles top down,
' ' to '@' from none to the hottest). docs/results/fpga.md "The ULX3S
board top" compares the board's two VC buffer memories with it."""
import argparse
import sys


def load(path):
    """the grid as a list of columns, each a list of row values; a clear error on bad input"""
    cols = []
    try:
        f = open(path)
    except OSError as e:
        sys.exit("congestion: %s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            cells = [c for c in line.strip().split(",") if c.strip() != ""]
            try:
                vals = [int(c) for c in cells]
            except ValueError:
                sys.exit("congestion: %s line %d: not a list of integers (a heatmap of "
                         "--router2-heatmap's congestion_by_coordinate)" % (path, n))
            if any(v < 0 for v in vals):
                sys.exit("congestion: %s line %d: a negative value" % (path, n))
            cols.append(vals)
    if not cols or not any(cols):
        sys.exit("congestion: %s: no values" % path)
    return cols


def summary(cols, tile):
    nx = len(cols)
    ny = max(len(c) for c in cols)
    total = sum(sum(c) for c in cols)
    mid = sum(sum(cols[x]) for x in range(nx) if 4 * x >= nx and 4 * x < 3 * nx)
    tiles = {}
    for x, c in enumerate(cols):
        for y, v in enumerate(c):
            k = (x // tile, y // tile)
            tiles[k] = tiles.get(k, 0) + v
    (hx, hy), hot = max(tiles.items(), key=lambda kv: (kv[1], -kv[0][1], -kv[0][0]))
    return dict(nx=nx, ny=ny, total=total, mid=mid, hot=hot, hot_x=hx * tile, hot_y=hy * tile, tiles=tiles)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--tile", type=int, default=6)
    ap.add_argument("--rows", default="", help="comma-separated rows whose share to print")
    ap.add_argument("--map", action="store_true")
    a = ap.parse_args()
    if a.tile < 1:
        sys.exit("congestion: --tile %d: must be at least 1" % a.tile)
    try:
        rows = sorted({int(r) for r in a.rows.split(",") if r.strip()})
    except ValueError:
        sys.exit("congestion: --rows %s: not a comma-separated list of row numbers" % a.rows)
    cols = load(a.csv)
    s = summary(cols, a.tile)
    t = s["total"] or 1
    print("%d columns x %d rows, congestion %d: %.1f %% in the middle half of the columns, "
          "hottest %dx%d tile at x %d, y %d: %d (%.1f %%)" % (
              s["nx"], s["ny"], s["total"], 100.0 * s["mid"] / t, a.tile, a.tile, s["hot_x"], s["hot_y"],
              s["hot"], 100.0 * s["hot"] / t))
    if rows:
        if rows[0] < 0 or rows[-1] >= s["ny"]:
            sys.exit("congestion: --rows: rows are 0 to %d" % (s["ny"] - 1))
        r = sum(c[y] for c in cols for y in rows if y < len(c))
        print("rows %s: %d (%.1f %%)" % (",".join(map(str, rows)), r, 100.0 * r / t))
    if a.map:
        chars = " .:-=+*#%@"
        for ty in range((s["ny"] + a.tile - 1) // a.tile):
            line = "".join(chars[min(9, s["tiles"].get((tx, ty), 0) * 10 // (s["hot"] + 1))]
                           for tx in range((s["nx"] + a.tile - 1) // a.tile))
            print("%3d %s" % (ty * a.tile, line.rstrip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
