/* SPDX-License-Identifier: Apache-2.0 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "util/mt_io.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *mt_out_open(mt_out *o, const char *path, const char *mode) {
  memset(o, 0, sizeof *o);
  struct stat st;
  const int exists = lstat(path, &st) == 0;
  char *dest = NULL;
  if (exists && S_ISLNK(st.st_mode)) { /* replace the file the link names, keep the link */
    dest = realpath(path, NULL);
    if (!dest || stat(dest, &st)) {
      free(dest);
      return o->f = fopen(path, mode);
    }
  }
  if (exists && !S_ISREG(st.st_mode)) { /* a device or a FIFO: rename would replace the node */
    free(dest);
    return o->f = fopen(path, mode);
  }
  if (!dest) dest = strdup(path);
  if (!dest) return NULL;
  const size_t n = strlen(dest);
  char *tmp = malloc(n + 16);
  if (!tmp) {
    free(dest);
    return NULL;
  }
  memcpy(tmp, dest, n);
  memcpy(tmp + n, ".tmp.XXXXXX", 12);
  const int fd = mkstemp(tmp);
  if (fd < 0) {
    const int err = errno;
    free(tmp);
    free(dest);
    errno = err;
    return NULL;
  }
  mode_t m;
  if (exists) m = st.st_mode & 07777;
  else {
    m = umask(022);
    umask(m);
    m = 0666 & ~m;
  }
  (void)fchmod(fd, m);
  o->f = fdopen(fd, mode);
  if (!o->f) {
    const int err = errno;
    close(fd);
    unlink(tmp);
    free(tmp);
    free(dest);
    errno = err;
    return NULL;
  }
  o->tmp = tmp;
  o->dest = dest;
  return o->f;
}

int mt_out_close(mt_out *o, int ok) {
  int err = ok ? 0 : EIO;
  if (!o->f) return -1;
  if (fflush(o->f) || ferror(o->f)) err = errno ? errno : EIO;
  if (fclose(o->f) && !err) err = errno ? errno : EIO;
  o->f = NULL;
  if (o->tmp) {
    if (!err && rename(o->tmp, o->dest)) err = errno;
    if (err) unlink(o->tmp);
    free(o->tmp);
    free(o->dest);
    o->tmp = o->dest = NULL;
  }
  if (!err) return 0;
  errno = err;
  return -1;
}

long mt_getline(char **line, size_t *cap, FILE *f, size_t max) {
  size_t n = 0;
  int c;
  while (n <= max && (c = getc(f)) != EOF) {
    if (n + 2 > *cap) {
      *cap = *cap ? 2 * *cap : 256;
      *line = mt_xrealloc(*line, *cap);
    }
    (*line)[n++] = (char)c;
    if (c == '\n') break;
  }
  if (!n) return -1;
  (*line)[n] = 0;
  return (long)n;
}

FILE *mt_open_text(const char *path, const char *what, mt_err *e) {
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f) {
    mt_fail(e, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
    fclose(f);
    mt_fail(e, "%s: is a directory, expected %s", path, what);
    return NULL;
  }
  const int c = getc(f);
  if (c != 0xEF) {
    if (c != EOF) ungetc(c, f);
  } else if (getc(f) != 0xBB || getc(f) != 0xBF) { /* not a byte-order mark: read from the start */
    if (fseek(f, 0, SEEK_SET)) {
      fclose(f);
      mt_fail(e, "%s: cannot rewind after its first byte 0xEF", path);
      return NULL;
    }
  }
  return f;
}

char *mt_read_file(const char *path, size_t max, size_t *len, mt_err *e) {
  FILE *f = mt_open_text(path, "a file", e);
  if (!f) return NULL;
  size_t cap = 4096, n = 0, got;
  char *b = mt_xcalloc(cap, 1);
  while ((got = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n > max) break;
    if (n + 1 == cap) {
      cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
      b = mt_xrealloc(b, cap);
    }
  }
  const int bad = ferror(f);
  fclose(f);
  if (bad || n > max) {
    free(b);
    if (bad) mt_fail(e, "%s: read error", path);
    else mt_fail(e, "%s: longer than %zu bytes", path, max);
    return NULL;
  }
  b[n] = 0;
  if (len) *len = n;
  return b;
}
