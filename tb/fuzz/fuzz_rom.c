/* SPDX-License-Identifier: Apache-2.0
 * fuzz_rom: the ROM decoder (cmodel/table/mt_rom.c mt_rom_read_dir, with the layout of
 * cmodel/table/mt_layout.c). Framing of an input (docs/reference/fuzz.md): the bytes before the first
 * NUL are layout.json, the bytes after it are one image, which every node 0..63 reads
 * (DIR/node<i>.<ext> are links to it for every format, so layout.json's "image" picks the
 * format). No NUL: all of it is layout.json and the image is empty. It may be refused, never
 * crash, hang or leak. */
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "table/mt_rom.h"

enum { LINKED_NODES = 64 };
static char dir[64];

static void put(const char *name, const uint8_t *data, size_t size) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
    perror(path);
    exit(2);
  }
}

static void cleanup(void) {
  char path[128];
  for (int fmt = 0; fmt < MT_ROM_NFORMATS; fmt++)
    for (int n = 0; n < LINKED_NODES; n++) {
      snprintf(path, sizeof path, "%s/node%d.%s", dir, n, mt_rom_format_name(fmt));
      unlink(path);
    }
  snprintf(path, sizeof path, "%s/layout.json", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/image", dir);
  unlink(path);
  rmdir(dir);
}

/* in memory (/dev/shm) when there is one: on the disk of this machine an input took 5 ms, in
 * memory 0.15 ms (docs/reference/fuzz.md) */
static void setup(void) {
  const char *tmp = getenv("TMPDIR");
  if (access("/dev/shm", W_OK) == 0) tmp = "/dev/shm";
  snprintf(dir, sizeof dir, "%s/mt_fuzz_rom.XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror(dir);
    exit(2);
  }
  atexit(cleanup);
  char path[128];
  for (int fmt = 0; fmt < MT_ROM_NFORMATS; fmt++)
    for (int n = 0; n < LINKED_NODES; n++) {
      snprintf(path, sizeof path, "%s/node%d.%s", dir, n, mt_rom_format_name(fmt));
      if (symlink("image", path)) {
        perror(path);
        exit(2);
      }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) setup();
  const uint8_t *nul = memchr(data, 0, size);
  size_t nl = nul ? (size_t)(nul - data) : size;
  put("layout.json", data, nl);
  put("image", nul ? nul + 1 : data, nul ? size - nl - 1 : 0);
  mt_topo t;
  mt_layout ly;
  mt_tables tb;
  mt_err e = {{0}};
  if (mt_rom_read_dir(dir, &t, &ly, &tb, &e)) {
    if (!e.msg[0]) FZ_BUG("the decoder refused the directory without a reason");
    return 0;
  }
  mt_tables_free(&tb);
  mt_topo_free(&t);
  return 0;
}
