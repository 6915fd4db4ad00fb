/* ts_file.c - see ts_file.h */
#define _GNU_SOURCE /* MAP_POPULATE */
#include "ts_file.h"
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the run-folder files (run_files.def) ---- */
const ts_run_file_t ts_run_files[] = {
#define RF_FILE(name, kind, cap, cap_text, empty_ok, writer, readers, columns, contents, header) \
    {name, kind, cap, cap_text, empty_ok, readers, writer, header},
#include "run_files.def"
#undef RF_FILE
    {NULL, 0, 0, NULL, 0, NULL, NULL, NULL}};

const ts_run_file_t *ts_run_file(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (const ts_run_file_t *f = ts_run_files; f->name; f++)
        if (f->kind != RF_DIR && !strcmp(f->name, base)) return f;
    return NULL;
}

/* the first line of the file open as fd (at most len - 1 bytes, no newline): its length, or
 * -1 when the file is empty */
static ssize_t first_line(int fd, char *line, size_t len) {
    ssize_t n = pread(fd, line, len - 1, 0);
    if (n <= 0) return -1;
    line[n] = 0;
    char *nl = memchr(line, '\n', (size_t)n);
    if (nl) *nl = 0;
    return (ssize_t)strlen(line);
}

/* line is the header rf->header describes ("[hart,]" in front: optional "hart,"; "..." at
 * the end: a prefix) */
static bool header_ok(const ts_run_file_t *rf, const char *line) {
    const char *h = rf->header;
    if (!strncmp(h, "[hart,]", 7)) {
        h += 7;
        if (!strncmp(line, "hart,", 5)) line += 5;
    }
    size_t hl = strlen(h);
    if (hl >= 3 && !strcmp(h + hl - 3, "...")) return !strncmp(line, h, hl - 3);
    const char *opt = strrchr(h, '[');
    if (opt && h[hl - 1] == ']') { /* "[,status]" at the end: optional (older run folders) */
        size_t bl = (size_t)(opt - h), ol = hl - bl - 2;
        if (strncmp(line, h, bl)) return false;
        return !line[bl] || (strlen(line + bl) == ol && !strncmp(line + bl, opt + 1, ol));
    }
    return !strcmp(line, h);
}

int ts_run_folder_check(const char *run_dir, char *err, size_t errlen) {
    char path[4400], line[4096];
    for (const ts_run_file_t *f = ts_run_files; f->name; f++) {
        if (f->kind == RF_DIR || !strcmp(f->readers, "-") || !strcmp(f->readers, "GTKWave")) continue;
        snprintf(path, sizeof path, "%s/%s", run_dir, f->name);
        struct stat sb;
        if (lstat(path, &sb)) continue; /* absent: the reader that needs it says so */
        int fd = ts_open_input(path, err, errlen);
        if (fd < 0) return -1;
        if (f->header) { /* a CSV: its header line, file:line */
            ssize_t n = first_line(fd, line, sizeof line);
            if (n < 0 && !f->empty_ok) {
                snprintf(err, errlen, "%s:1: empty: a run folder's %s starts with its header line (%s)", path, f->name, f->header);
                close(fd);
                return -1;
            }
            if (n >= 0 && !header_ok(f, line)) {
                snprintf(err, errlen, "%s:1: not the header of %s (%s)", path, f->name, f->header);
                close(fd);
                return -1;
            }
        }
        close(fd);
    }
    return 0;
}

int ts_run_folder_may_replace(const char *dir, int force, char *err, size_t errlen) {
    char path[4400], line[4096];
    struct stat sb;
    if (force || lstat(dir, &sb) || !S_ISDIR(sb.st_mode)) return 0;
    const char *found = NULL; /* a file of run's under its name */
    bool ours = false;
    for (const ts_run_file_t *f = ts_run_files; f->name && !ours; f++) {
        if (f->kind == RF_DIR || strncmp(f->writer, "run", 3)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, f->name);
        if (lstat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0) continue; /* the writer replaces the rest */
        if (!found) found = f->name;
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) continue;
        if (!strcmp(f->name, "trace.json")) { /* its format, in its first bytes */
            ssize_t n = pread(fd, line, sizeof line - 1, 0);
            line[n > 0 ? n : 0] = 0;
            ours = strstr(line, "\"format\": \"tracesim-trace-1\"") != NULL;
            close(fd);
            continue;
        }
        ssize_t n = first_line(fd, line, sizeof line);
        close(fd);
        if (n < 0) continue;
        if (f->header) ours = header_ok(f, line);
        else if (!strcmp(f->name, "stats.txt"))
            ours = !strncmp(line, "elf ", 4);
    }
    if (!found || ours) return 0;
    snprintf(err, errlen, "%s holds %s and is not a previous run folder of tracesim run (use --force to replace its files)",
             dir, found);
    return -1;
}

int ts_open_input(const char *path, char *err, size_t errlen) {
    /* a run-folder file (by its name, run_files.def) is the file itself: no link followed */
    const ts_run_file_t *rf = ts_run_file(path);
    /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (rf ? O_NOFOLLOW : 0));
    if (fd < 0) {
        struct stat lsb;
        if (rf && (errno == ELOOP || errno == EMLINK) && !lstat(path, &lsb) && S_ISLNK(lsb.st_mode))
            snprintf(err, errlen, "%s is a link: a run folder's %s must be the file itself (not followed)", path, rf->name);
        else
            snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file", path);
        close(fd);
        return -1;
    }
    if (rf && (unsigned long long)sb.st_size > rf->cap) {
        snprintf(err, errlen, "%s is %llu bytes: more than a run folder's %s can be (%s)", path,
                 (unsigned long long)sb.st_size, rf->name, rf->cap_text);
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

/* ---- outputs: a temporary file beside the name, renamed over it when complete ----------
 * The open outputs are listed (the one piece of process state of the writer besides the
 * SIGBUS handler's): ts_fclose_output finds its stream there, and an exit with outputs still
 * open removes their temporary files (nothing half-written under any name). */
typedef struct out_ent {
    FILE *f; /* the stream (NULL: a descriptor output) */
    int fd;
    unsigned mode;     /* the final mode, umask applied */
    char *tmp, *final; /* tmp NULL: written in place (a device the user named, or the test hook) */
    struct out_ent *next;
} out_ent_t;
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;
static out_ent_t *outs;
static int out_atexit;
static unsigned out_umask = ~0u;

static void outputs_at_exit(void) { ts_outputs_abort_all(); }

/* the entry of f (or of fd when f is NULL), taken off the list; NULL when it is not ours */
static out_ent_t *out_take(FILE *f, int fd) {
    pthread_mutex_lock(&out_mu);
    out_ent_t **pp = &outs, *e = NULL;
    for (; *pp; pp = &(*pp)->next)
        if (f ? (*pp)->f == f : (!(*pp)->f && (*pp)->fd == fd)) {
            e = *pp;
            *pp = e->next;
            break;
        }
    pthread_mutex_unlock(&out_mu);
    return e;
}

static void out_free(out_ent_t *e) {
    free(e->tmp);
    free(e->final);
    free(e);
}

/* creates the temporary file beside path: its descriptor, or -1 with the reason in err */
/* the final name written in place (no temporary file): a character device the user named as
 * an explicit output by a path under /dev/ or /proc/self/fd/ (--retire-log /dev/null,
 * /dev/stdout; a link elsewhere is replaced, whatever it points to), or TRACESIM_TEST_FULL
 * naming the output's file name (the tests' full disk: /dev/full instead of the temporary file) */
static int out_direct(const char *path, const char *base, bool user, out_ent_t **ent, char *err, size_t errlen) {
    const char *full = getenv("TRACESIM_TEST_FULL");
    struct stat sb;
    const char *open_path = NULL;
    if (full && *full && !strcmp(full, base)) open_path = "/dev/full";
    else if (user && (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/self/fd/", 14)) && !stat(path, &sb) &&
             S_ISCHR(sb.st_mode))
        open_path = path;
    if (!open_path) return -2;
    out_ent_t *e = calloc(1, sizeof *e);
    char *fin = strdup(path);
    int fd = e && fin ? open(open_path, O_WRONLY | O_CLOEXEC | O_NOCTTY) : -1;
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, e && fin ? strerror(errno) : "out of memory");
        free(e);
        free(fin);
        return -1;
    }
    e->fd = fd;
    e->final = fin;
    *ent = e;
    return fd;
}

static int out_create(const char *path, unsigned mode, bool user, out_ent_t **ent, char *err, size_t errlen) {
    *ent = NULL;
    size_t len = strlen(path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0; /* with the '/' */
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(EISDIR));
        return -1;
    }
    int dfd = out_direct(path, base, user, ent, err, errlen);
    if (dfd != -2) return dfd;
    out_ent_t *e = calloc(1, sizeof *e);
    char *tmp = malloc(dirlen + 256);
    char *fin = strdup(path);
    if (!e || !tmp || !fin) {
        free(e);
        free(tmp);
        free(fin);
        snprintf(err, errlen, "cannot create %s: out of memory", path);
        return -1;
    }
    pthread_mutex_lock(&out_mu);
    if (out_umask == ~0u) { /* the umask, once (reading it means setting it) */
        mode_t m = umask(022);
        umask(m);
        out_umask = (unsigned)m;
    }
    if (!out_atexit) {
        atexit(outputs_at_exit);
        out_atexit = 1;
    }
    pthread_mutex_unlock(&out_mu);
    static unsigned seq;
    int fd = -1, e_no = 0;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        unsigned r = (unsigned)getpid() * 2654435761u ^ (unsigned)ts.tv_nsec ^
                     __atomic_add_fetch(&seq, 0x9e3779b9u, __ATOMIC_RELAXED);
        char suf[16];
        static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < 6; i++, r /= 36) suf[i] = al[r % 36];
        suf[6] = 0;
        memcpy(tmp, path, dirlen);
        if (strlen(base) <= 200) snprintf(tmp + dirlen, 256, ".%s.%s.tmp", base, suf);
        else
            snprintf(tmp + dirlen, 256, ".tracesim.%s.tmp", suf);
        /* O_EXCL never follows a link; O_NOFOLLOW says so twice */
        fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600); /* RDWR: a writer may check what it wrote */
        e_no = errno;
        if (fd < 0 && e_no != EEXIST) break;
    }
    (void)len;
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(e_no));
        free(e);
        free(tmp);
        free(fin);
        errno = e_no;
        return -1;
    }
    e->fd = fd;
    e->mode = mode & ~out_umask & 07777;
    e->tmp = tmp;
    e->final = fin;
    *ent = e;
    return fd;
}

static void out_add(out_ent_t *e) {
    pthread_mutex_lock(&out_mu);
    e->next = outs;
    outs = e;
    pthread_mutex_unlock(&out_mu);
}

FILE *ts_fopen_output(const char *path, const char *mode, char *err, size_t errlen) {
    out_ent_t *e;
    int fd = out_create(path, mode && strchr(mode, 'x') ? 0777 : 0666, mode && strchr(mode, 'u'), &e, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, mode && strchr(mode, 'b') ? "wb" : "w");
    if (!f) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        close(fd);
        if (e->tmp) unlink(e->tmp);
        out_free(e);
        return NULL;
    }
    e->f = f;
    out_add(e);
    return f;
}

int ts_open_output(const char *path, unsigned mode, char *err, size_t errlen) {
    out_ent_t *e;
    int fd = out_create(path, mode & 07777, (mode & TS_OUTPUT_USER) != 0, &e, err, errlen);
    if (fd < 0) return -1;
    out_add(e);
    return fd;
}

const char *ts_output_tmp_name(FILE *f) {
    const char *t = NULL;
    pthread_mutex_lock(&out_mu);
    for (out_ent_t *e = outs; e; e = e->next)
        if (e->f == f) t = e->tmp;
    pthread_mutex_unlock(&out_mu);
    return t;
}

/* the temporary file given its mode and renamed over the name: 0, or -1 with the reason */
static int out_commit(out_ent_t *e, const char *path, char *err, size_t errlen) {
    if (!e->tmp) return 0; /* written in place */
    if (fchmod(e->fd, e->mode) == 0 && rename(e->tmp, e->final) == 0) return 0;
    int en = errno;
    struct stat sb;
    errno = en;
    if (en == EISDIR || (!lstat(e->final, &sb) && S_ISDIR(sb.st_mode)))
        snprintf(err, errlen, "cannot write %s: it is a folder", path);
    else
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(en));
    return -1;
}

int ts_fclose_output(FILE *f, const char *path, char *err, size_t errlen) {
    out_ent_t *e = out_take(f, -1);
    int bad = ferror(f);
    errno = 0;
    if (fflush(f)) bad = 1;
    int en = errno;
    if (e && !bad && out_commit(e, path, err, errlen)) { /* before fclose: fchmod needs the fd */
        fclose(f);
        if (e->tmp) unlink(e->tmp);
        out_free(e);
        return -1;
    }
    if (fclose(f)) {
        bad = 1;
        if (!en) en = errno;
    }
    if (!bad) {
        if (e) out_free(e);
        return 0;
    }
    if (e) { /* nothing half-written under the name */
        if (e->tmp) unlink(e->tmp);
        out_free(e);
    }
    snprintf(err, errlen, "cannot write %s: %s", path, en ? strerror(en) : "write error");
    errno = en ? en : EIO;
    return -1;
}

int ts_close_output(int fd, const char *path, char *err, size_t errlen) {
    out_ent_t *e = out_take(NULL, fd);
    if (e && out_commit(e, path, err, errlen)) {
        close(fd);
        if (e->tmp) unlink(e->tmp);
        out_free(e);
        return -1;
    }
    int r = close(fd);
    int en = errno;
    if (e) out_free(e);
    if (r && en != EINTR) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(en));
        return -1;
    }
    return 0;
}

int ts_open_log(const char *path, char *err, size_t errlen) {
    struct stat sb;
    if (!lstat(path, &sb) && S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "cannot create %s: it is a folder", path);
        errno = EISDIR;
        return -1;
    }
    if (unlink(path) && errno != ENOENT) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
    return fd;
}

void ts_output_abort(FILE *f) {
    out_ent_t *e = out_take(f, -1);
    fclose(f);
    if (e) {
        if (e->tmp) unlink(e->tmp);
        out_free(e);
    }
}

void ts_output_abort_fd(int fd) {
    out_ent_t *e = out_take(NULL, fd);
    close(fd);
    if (e) {
        if (e->tmp) unlink(e->tmp);
        out_free(e);
    }
}

void ts_outputs_abort_all(void) {
    pthread_mutex_lock(&out_mu);
    out_ent_t *e = outs;
    outs = NULL;
    pthread_mutex_unlock(&out_mu);
    while (e) { /* the streams are left to exit's own flush: only the names */
        out_ent_t *n = e->next;
        if (e->tmp) unlink(e->tmp);
        out_free(e);
        e = n;
    }
}

int ts_is_waves_output(const unsigned char *b, size_t n) {
    static const unsigned char fst_hdr[9] = {0, 0, 0, 0, 0, 0, 0, 0x01, 0x49};
    if (n >= 9 && !memcmp(b, fst_hdr, sizeof fst_hdr)) return 1;
    size_t i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
    return i < n && b[i] == '$';
}

int ts_is_retire_log(const unsigned char *b, size_t n) {
    size_t i = 0;
    if (i < n && b[i] == 'h') { /* "hN " with several harts */
        i++;
        while (i < n && b[i] >= '0' && b[i] <= '9') i++;
        if (i >= n || b[i++] != ' ') return 0;
    }
    size_t d = i;
    while (i < n && b[i] >= '0' && b[i] <= '9') i++; /* the cycle */
    if (i == d || i >= n || b[i++] != ' ') return 0;
    for (int k = 0; k < 8; k++, i++) /* the pc */
        if (i >= n || !((b[i] >= '0' && b[i] <= '9') || (b[i] >= 'a' && b[i] <= 'f'))) return 0;
    return i < n && b[i] == ' ';
}

int ts_is_trace_bus_log(const unsigned char *b, size_t n) {
    static const char sig[] = "# tracesim-trace-bus-1";
    return n >= sizeof sig - 1 && !memcmp(b, sig, sizeof sig - 1);
}

int ts_output_may_replace(const char *path, const char *cmd, int force,
                          int (*is_ours)(const unsigned char *head, size_t n), char *err, size_t errlen) {
    struct stat sb;
    if (force || lstat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0) return 0;
    if (is_ours) {
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd >= 0) {
            unsigned char head[4096];
            ssize_t n = read(fd, head, sizeof head);
            close(fd);
            if (n > 0 && is_ours(head, (size_t)n)) return 0;
        }
    }
    snprintf(err, errlen, "%s exists and is not a previous output of tracesim %s (use --force to replace it)", path, cmd);
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
    uintptr_t lo, hi; /* the mapping */
    char msg[4200];   /* "tracesim: P was cut while it was being read\n" */
    size_t msglen;
    char rm[4200]; /* the output to remove ("": none) */
    struct sigaction old;
    int fired; /* a thread is reporting the cut */
} cut;

static void on_sigbus(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    if (cut.active && si->si_code > 0 && a >= cut.lo && a < cut.hi) { /* a fault in the mapping */
        /* the first thread to fault says it; any other waits for its _exit */
        if (__atomic_exchange_n(&cut.fired, 1, __ATOMIC_SEQ_CST))
            for (;;) pause();
        if (cut.rm[0]) unlink(cut.rm);           /* first: nothing half-written stays, whatever stderr is */
        if (write(2, cut.msg, cut.msglen) < 0) { /* nothing more to say */
        }
        _exit(TS_FILE_EXIT_CUT);
    }
    /* not ours (another fault, or a SIGBUS sent by kill): what was there before acts on it */
    sigaction(SIGBUS, &cut.old, NULL);
    if (si->si_code <= 0) raise(sig); /* a fault recurs by itself when the handler returns */
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
            cut.rm[0] = 0; /* named after the mapping (ts_input_remove_on_cut) */
            cut.fired = 0;
            cut.lo = (uintptr_t)m;
            cut.hi = cut.lo + ((size + 4095) & ~(size_t)4095);
            int n = snprintf(cut.msg, sizeof cut.msg, "tracesim: %s was cut while it was being read\n", path);
            cut.msglen = n < 0 ? 0 : (size_t)n < sizeof cut.msg ? (size_t)n :
                                                                  sizeof cut.msg - 1;
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = on_sigbus;
            sa.sa_flags = SA_SIGINFO;
            sigemptyset(&sa.sa_mask);
            sigaddset(&sa.sa_mask, SIGPIPE); /* stderr a closed pipe: still exit 121 */
            sigaction(SIGBUS, &sa, &cut.old);
            cut.active = 1;
            return 0;
        }
    }
    char *buf = malloc(size + 1); /* small, or not mappable: read */
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
        if (!r) break; /* cut since fstat: what is there */
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

int ts_open_lock_file(const char *path, int cloexec) {
    int f = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (cloexec ? O_CLOEXEC : 0), 0666);
    if (f < 0) return -1;
    struct stat sb;
    if (fstat(f, &sb) || !S_ISREG(sb.st_mode)) {
        close(f);
        errno = EINVAL;
        return -1;
    }
    return f;
}

/* ".NAME.<suffix>.tmp" (ts_fopen_output's temporary name for NAME) */
static int is_stale_tmp_of(const char *entry, const char *name) {
    size_t n = strlen(name), e = strlen(entry);
    return e > n + 6 && entry[0] == '.' && !strncmp(entry + 1, name, n) && entry[n + 1] == '.' &&
           !strcmp(entry + e - 4, ".tmp");
}

static int stale_tmp(const char *dir, const char *name, int remove_them) {
    if (strchr(name, '/')) return 0; /* names in the folder itself only */
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0, rc = 0;
    size_t dl = strlen(dir);
    for (struct dirent *de; (de = readdir(d));) {
        if (!is_stale_tmp_of(de->d_name, name)) continue;
        char *p = malloc(dl + strlen(de->d_name) + 2);
        if (!p) {
            rc = -1;
            break;
        }
        sprintf(p, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (!lstat(p, &sb) && S_ISREG(sb.st_mode)) {
            n++;
            if (remove_them && unlink(p) && errno != ENOENT) rc = -1;
        }
        free(p);
    }
    closedir(d);
    return remove_them ? rc : n;
}

int ts_stale_tmp_count(const char *dir, const char *name) { return stale_tmp(dir, name, 0); }
int ts_stale_tmp_remove(const char *dir, const char *name) { return stale_tmp(dir, name, 1); }
