/* SPDX-License-Identifier: Apache-2.0
 * replay_main.c: main() for the harnesses without libFuzzer (gcc + ASan/UBSan builds,
 * build/fuzz/replay_<target>): feeds every file named on the command line, or every file of
 * every directory named, to LLVMFuzzerTestOneInput once, and prints a RESULT line. A crash
 * or an oracle failure aborts with the sanitizer's report. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: %s: cannot open\n", path);
    return -1;
  }
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n == cap) {
      cap = cap ? 2 * cap : 4096;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "replay: %s: read error\n", path);
    free(buf);
    return -1;
  }
  fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  int files = 0, errors = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      DIR *d = opendir(argv[i]);
      char **names = NULL;
      size_t nn = 0;
      for (struct dirent *de; d && (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        names = realloc(names, (nn + 1) * sizeof *names);
        size_t len = strlen(argv[i]) + strlen(de->d_name) + 2;
        names[nn] = malloc(len);
        snprintf(names[nn++], len, "%s/%s", argv[i], de->d_name);
      }
      if (d) closedir(d);
      else errors++;
      qsort(names, nn, sizeof *names, cmp_str); /* the same order on every run */
      for (size_t k = 0; k < nn; k++) {
        errors += run_file(names[k]) != 0;
        files++;
        free(names[k]);
      }
      free(names);
    } else {
      errors += run_file(argv[i]) != 0;
      files++;
    }
  }
  const char *me = strrchr(argv[0], '/');
  printf("RESULT %s pass=%d fail=%d\n", me ? me + 1 : argv[0], files - errors, errors);
  return errors != 0;
}
