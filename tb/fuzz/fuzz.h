/* SPDX-License-Identifier: Apache-2.0
 * fuzz.h: what the libFuzzer harnesses tb/fuzz/fuzz_<target>.c share (docs/reference/fuzz.md).
 * The C model's parsers take file paths, so an input is handed over as a file: a memfd
 * (memory only, no disk) opened again through /proc/self/fd/N. */
#ifndef MT_FUZZ_H
#define MT_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The path of a file holding exactly data[0..size); one file per slot (0..3) per process,
 * rewritten on every call. */
const char *fz_file(int slot, const uint8_t *data, size_t size);

/* An oracle failed: print why and abort (libFuzzer saves the input as a crash). */
#define FZ_BUG(...) \
  do { \
    fprintf(stderr, "fuzz oracle: " __VA_ARGS__); \
    fputc('\n', stderr); \
    abort(); \
  } while (0)
#endif
