/* SPDX-License-Identifier: Apache-2.0
 * mt_rom: per-node ROM images of the schedule tables, and reading them back.
 * Formats: hex ($readmemh), mif (Intel), coe (Xilinx), mem (Lattice), bin (raw,
 * little-endian bytes per word), h (C header). Every image has the same depth: the
 * largest table plus its END word, padded with zero words (NOP, step 0). A directory
 * of images carries layout.json, which the decoder needs (docs/formats.md). */
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
       MT_ROM_NFORMATS };
int mt_rom_format(const char *name);     /* -1 if unknown */
const char *mt_rom_format_name(int fmt); /* Write DIR/node<i>.<ext> for every node and DIR/layout.json. */
int mt_rom_write_dir(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, const char *dir, mt_err *e);
/* Read one image into words[depth * mt_layout_words(ly)]. */
int mt_rom_read_image(const char *path, int fmt, const mt_layout *ly, int depth, uint64_t *words, mt_err *e);
/* Read a directory written by mt_rom_write_dir back into tables (and its topology). */
int mt_rom_read_dir(const char *dir, mt_topo *t, mt_layout *ly, mt_tables *tb, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
