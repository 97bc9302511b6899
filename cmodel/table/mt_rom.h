/* SPDX-License-Identifier: Apache-2.0
 * mt_rom: per-node ROM images of the schedule tables, and reading them back.
 * Formats: hex ($readmemh), mif (Intel), coe (Xilinx), mem (Lattice), bin (raw,
 * little-endian bytes per word), h (C header), bram (hexadecimal words alone, one a line: the
 * from/to images of ecpbram and icebram, also $readmemh). Every image has the same depth: the
 * largest table plus its END word (or a table depth given by the hardware,
 * mt_rom_write_dir_depth), padded with zero words (NOP, step 0). A directory
 * of images carries layout.json, which the decoder needs (docs/reference/formats.md). */
#ifndef MT_ROM_H
#define MT_ROM_H
#include "table/mt_layout.h"
#ifdef __cplusplus
extern "C" {
#endif

enum { MT_ROM_HEX,
       MT_ROM_MIF,
       MT_ROM_COE,
       MT_ROM_MEM,
       MT_ROM_BIN,
       MT_ROM_CHDR,
       MT_ROM_BRAM,
       MT_ROM_NFORMATS };
int mt_rom_format(const char *name);     /* -1 if unknown */
const char *mt_rom_format_name(int fmt); /* Write DIR/node<i>.<ext> for every node and DIR/layout.json. */
int mt_rom_write_dir(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, const char *dir, mt_err *e);
/* The same with images of `depth` words (a hardware table's depth: -1 if the tables need more). */
int mt_rom_write_dir_depth(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, int depth, const char *dir, mt_err *e);
/* Read one image into words[depth * mt_layout_words(ly)], strictly (mt_rom_read.c): every
 * address 0..depth-1 exactly one word of at most ly->width bits, the format's header equal
 * to ly and depth, nothing after its end; else -1 naming the file, the line and the reason. */
int mt_rom_read_image(const char *path, int fmt, const mt_layout *ly, int depth, uint64_t *words, mt_err *e);
/* The same for node `node`'s image (the C header names its node; -1: any), with lines[depth]
 * (NULL: not wanted) receiving the line of each word (0 for bin). */
int mt_rom_read_node(const char *path, int fmt, const mt_layout *ly, int depth, int node, uint64_t *words, int *lines, mt_err *e);
/* Read a directory written by mt_rom_write_dir back into tables (and its topology):
 * layout.json checked against its topology and itself, no image it does not list, each
 * image read strictly and each word decoded to an entry that re-encodes to that word (step
 * in 1..steps and in order, ports, ejects, nodes and chunk in range), an END word, zero
 * padding after it. */
int mt_rom_read_dir(const char *dir, mt_topo *t, mt_layout *ly, mt_tables *tb, mt_err *e);
/* Only DIR/layout.json, checked as mt_rom_read_dir checks it: its topology into t (freed by
 * the caller on success), the layout into ly, the image format, depth and steps; the images
 * are not read (a simulator loading them as a board would: docs/reference/rtl_sim.md). */
int mt_rom_read_layout(const char *dir, mt_topo *t, mt_layout *ly, int *fmt, int *depth, int *steps, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
