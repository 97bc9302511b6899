/* SPDX-License-Identifier: Apache-2.0
 * fuzz_file.c: fz_file (fuzz.h), an input as a file in memory. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"

const char *fz_file(int slot, const uint8_t *data, size_t size) {
  static int fd[4] = {-1, -1, -1, -1};
  static char path[4][32];
  if (fd[slot] < 0) {
    fd[slot] = memfd_create("mt_fuzz", 0);
    if (fd[slot] < 0) {
      perror("fuzz: memfd_create");
      exit(2);
    }
    snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
  }
  if (ftruncate(fd[slot], 0) || pwrite(fd[slot], data, size, 0) != (ssize_t)size) {
    perror("fuzz: writing the input file");
    exit(2);
  }
  return path[slot];
}
