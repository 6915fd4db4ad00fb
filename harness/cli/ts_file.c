/* ts_file.c - see ts_file.h */
#define _GNU_SOURCE               /* MAP_POPULATE */
#include "ts_file.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
    fprintf(stderr, "tracesim: cannot write the output (stdout): %s\n", e ? strerror(e) : "write error");
    return -1;
}

/* ---- a mapped input and its SIGBUS handler: the one piece of process state here (a signal
 * handler sees nothing else) ---- */
static struct {
    volatile sig_atomic_t active;
    uintptr_t lo, hi;                     /* the mapping */
    char msg[4200];                       /* "tracesim: P was cut while it was being read\n" */
    size_t msglen;
    char rm[4200];                        /* the output to remove ("": none) */
    struct sigaction old;
    int fired;                            /* a thread is reporting the cut */
} cut;

static void on_sigbus(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    if (cut.active && si->si_code > 0 && a >= cut.lo && a < cut.hi) {   /* a fault in the mapping */
        /* the first thread to fault says it; any other waits for its _exit */
        if (__atomic_exchange_n(&cut.fired, 1, __ATOMIC_SEQ_CST))
            for (;;) pause();
        if (cut.rm[0]) unlink(cut.rm);    /* first: nothing half-written stays, whatever stderr is */
        if (write(2, cut.msg, cut.msglen) < 0) { /* nothing more to say */ }
        _exit(121);
    }
    /* not ours (another fault, or a SIGBUS sent by kill): what was there before acts on it */
    sigaction(SIGBUS, &cut.old, NULL);
    if (si->si_code <= 0) raise(sig);     /* a fault recurs by itself when the handler returns */
}

int ts_input_open(ts_input_t *in, const char *path, char *err, size_t errlen) {
    memset(in, 0, sizeof *in);
    int fd = ts_open_input(path, err, errlen);
    if (fd < 0) return -1;
    struct stat sb;
    if (fstat(fd, &sb)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    size_t size = (size_t)sb.st_size;
    if (size >= TS_MAP_MIN && !cut.active) {
        void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            close(fd);
            in->map = m;
            in->maplen = size;
            in->p = m;
            in->len = size;
            cut.rm[0] = 0;                    /* named after the mapping (ts_input_remove_on_cut) */
            cut.fired = 0;
            cut.lo = (uintptr_t)m;
            cut.hi = cut.lo + ((size + 4095) & ~(size_t)4095);
            int n = snprintf(cut.msg, sizeof cut.msg, "tracesim: %s was cut while it was being read\n", path);
            cut.msglen = n < 0 ? 0 : (size_t)n < sizeof cut.msg ? (size_t)n : sizeof cut.msg - 1;
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = on_sigbus;
            sa.sa_flags = SA_SIGINFO;
            sigemptyset(&sa.sa_mask);
            sigaddset(&sa.sa_mask, SIGPIPE);  /* stderr a closed pipe: still exit 121 */
            sigaction(SIGBUS, &sa, &cut.old);
            cut.active = 1;
            return 0;
        }
    }
    char *buf = malloc(size + 1);         /* small, or not mappable: read */
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        close(fd);
        return -1;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (!r) break;                    /* cut since fstat: what is there */
        got += (size_t)r;
    }
    close(fd);
    buf[got] = 0;
    in->p = (const unsigned char *)buf;
    in->len = got;
    return 0;
}

void ts_input_close(ts_input_t *in) {
    if (in->map) {
        cut.active = 0;
        sigaction(SIGBUS, &cut.old, NULL);
        cut.rm[0] = 0;
        munmap(in->map, in->maplen);
    } else {
        free((void *)in->p);
    }
    memset(in, 0, sizeof *in);
}

void ts_input_remove_on_cut(const char *path) {
    snprintf(cut.rm, sizeof cut.rm, "%s", path ? path : "");
}
