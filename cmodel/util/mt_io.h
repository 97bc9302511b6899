/* SPDX-License-Identifier: Apache-2.0
 * mt_io: files written whole or not at all, and text inputs read within a bound.
 *
 * Writing: mt_out_open writes a regular file (or a path that does not exist yet) to a new
 * temporary file beside it, and mt_out_close renames that over the path only when every write
 * succeeded; on failure only the temporary file is removed, the path keeps what it held. A path
 * that is not a regular file (a device, a FIFO) is written directly and never removed.
 *
 * Reading: a line is read up to its format's limit and a whole file up to MT_FILE_MAX; the
 * caller refuses longer input naming the file, the line and the limit, so a huge file or a
 * device such as /dev/zero is never read whole. */
#ifndef MT_IO_H
#define MT_IO_H
#include <stddef.h>
#include <stdio.h>
#include "util/mt_err.h"

#define MT_FILE_MAX ((size_t)64 << 20)

typedef struct {
  FILE *f;
  char *tmp;  /* the temporary file, NULL: writing the path directly */
  char *dest; /* where the temporary file is renamed to */
} mt_out;

/* Open path for writing (mode "w" or "wb"): the stream, or NULL (errno set). */
FILE *mt_out_open(mt_out *o, const char *path, const char *mode);
/* Finish what mt_out_open started: ok = 0 when the caller's writes already failed. Flushes,
 * checks the stream, closes it and renames on success; 0, or -1 (errno set, the temporary file
 * removed). */
int mt_out_close(mt_out *o, int ok);

/* The next line of f into *line (getline's buffer convention; NUL-terminated, with its '\n' if
 * it had one), reading at most max + 1 bytes: its length, max + 1 when the line is longer than
 * max (the caller refuses it), or -1 at the end of the file or on a read error (ferror). */
long mt_getline(char **line, size_t *cap, FILE *f, size_t max);

/* Open a text input for reading: NULL (message in e, "PATH: cannot open: ..." or "PATH: is a
 * directory, expected WHAT") or the stream past a leading UTF-8 byte-order mark, which every
 * text reader accepts and skips. what: the file expected ("a topology file", ...). */
FILE *mt_open_text(const char *path, const char *what, mt_err *e);

/* The whole file (NUL-terminated; its length in *len), at most max bytes: the buffer (free it),
 * or NULL (message in e). */
char *mt_read_file(const char *path, size_t max, size_t *len, mt_err *e);
#endif
