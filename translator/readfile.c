/* readfile.c: every file the translator reads itself, read whole with the same checks: a regular file (not a
   directory, a device such as /dev/zero, or a pipe) of at most a given size. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Why PATH cannot be read as a source of at most LIMIT bytes, into WHY (""): it is no regular file, or too large.
   *SIZE: its size. False when it cannot be opened or stat'ed (errno set, WHY says so). */
static bool check_regular(int fd, long limit, size_t *size, char *why, size_t why_size)
{
    struct stat st;
    if (fstat(fd, &st)) {
        snprintf(why, why_size, "%s", strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode))
        snprintf(why, why_size, "is a directory");
    else if (!S_ISREG(st.st_mode))
        snprintf(why, why_size, "is not a regular file");
    else if (st.st_size > limit)
        snprintf(why, why_size, "is %lld bytes; the limit is %ld (docs/limits.md)", (long long)st.st_size, limit);
    else
        why[0] = 0;
    *size = (size_t)st.st_size;
    return !why[0];
}

bool file_check(const char *path, long limit, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return false;
    }
    size_t size;
    bool ok = check_regular(fd, limit, &size, why, why_size);
    close(fd);
    return ok;
}

char *file_read(const char *path, long limit, size_t *len, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    if (fd < 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    size_t size, got = 0;
    char *text = NULL;
    if (check_regular(fd, limit, &size, why, why_size) && (text = malloc(size + 1))) {
        ssize_t n;
        errno = 0;
        while (got < size && ((n = read(fd, text + got, size - got)) > 0 || (n < 0 && errno == EINTR)))
            got += n > 0 ? (size_t)n : 0;
        if (got < size) { /* shrank while read, or a read error */
            snprintf(why, why_size, "%s", errno ? strerror(errno) : "changed while it was read");
            free(text);
            text = NULL;
        } else {
            text[got] = 0;
        }
    } else if (!why[0]) {
        snprintf(why, why_size, "out of memory");
    }
    close(fd);
    if (text && len)
        *len = got;
    return text;
}
