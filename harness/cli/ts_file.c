/* ts_file.c - see ts_file.h */
#include "ts_file.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ts_open_input(const char *path, char *err, size_t errlen) {
    /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file", path);
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

FILE *ts_fopen_input(const char *path, char *err, size_t errlen) {
    int fd = ts_open_input(path, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int ts_fclose_output(FILE *f, const char *path, char *err, size_t errlen) {
    int bad = ferror(f);
    errno = 0;
    if (fflush(f)) bad = 1;
    int e = errno;
    if (fclose(f)) {
        bad = 1;
        if (!e) e = errno;
    }
    if (!bad) return 0;
    snprintf(err, errlen, "cannot write %s: %s", path, e ? strerror(e) : "write error");
    return -1;
}

int ts_check_stdout(void) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    int e = errno;
    fprintf(stderr, "tracesim: cannot write the output: %s\n", e ? strerror(e) : "write error");
    return -1;
}
