/* simctrl.c - simulation-control block; see simctrl.h.
 *
 * Host file I/O is a sandbox for firmware nobody reviewed (docs/internals.md "Untrusted input", threat model):
 * FILE_CMD writes only inside RUN/host/, a folder the simulator itself never writes, opened
 * once with O_NOFOLLOW and then used as a directory descriptor (openat), so no name can reach
 * another folder and a symlink planted for RUN/host is refused. The name must be in RAM byte
 * by byte up to its NUL, 1 to 255 bytes, without '/' or control characters, and not "." or
 * ".."; the whole buffer must be in RAM. A file this run did not create is never opened: its
 * name is unlinked (the link, never what a symlink points to) and the file made anew with
 * O_CREAT|O_EXCL|O_NOFOLLOW; a file it created is reopened with O_NOFOLLOW and must still be
 * a regular file. O_NONBLOCK keeps a planted FIFO from blocking the run. Every write counts
 * against the run's byte budget; a write that would pass it is refused whole (status 5) and
 * the first refusal is one guest error. */
#include "simctrl.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TS_REG(block, name, off, acc, desc) enum { block##_##name = off };
#include "soc_map.def"

void simctrl_init(simctrl_t *m, const simctrl_host_t *host, const char *run_dir, FILE *marks) {
    memset(m, 0, sizeof *m);
    m->host = *host;
    m->run_dir = run_dir;
    m->marks = marks;
    m->host_budget = SIMCTRL_HOST_BUDGET_DEFAULT;
    if (!m->host.harts) m->host.harts = 1;
    if (marks) fputs("value,cycle,instret,hart\n", marks);
}

void simctrl_reset(simctrl_t *m) {
    m->file_name = m->file_addr = m->file_len = m->file_status = 0;
}

void simctrl_set_host_budget(simctrl_t *m, uint64_t bytes) { m->host_budget = bytes; }

void simctrl_free(simctrl_t *m) {
    if (m->host_dir_open) close(m->host_dir);
    m->host_dir_open = false;
    for (size_t i = 0; i < m->n_own; i++) free(m->own[i]);
    free(m->own);
    m->own = NULL;
    m->n_own = m->cap_own = 0;
}

static void guest_error(simctrl_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void guest_error(simctrl_t *m, const char *fmt, ...) {
    if (!m->host.guest_error) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    m->host.guest_error(m->host.ctx, msg);
}

static bool is_own(const simctrl_t *m, const char *name) {
    for (size_t i = 0; i < m->n_own; i++)
        if (!strcmp(m->own[i], name)) return true;
    return false;
}

static bool add_own(simctrl_t *m, const char *name) {
    if (m->n_own == m->cap_own) {
        size_t cap = m->cap_own ? 2 * m->cap_own : 16;
        char **o = realloc(m->own, cap * sizeof *o);
        if (!o) return false;
        m->own = o;
        m->cap_own = cap;
    }
    if (!(m->own[m->n_own] = strdup(name))) return false;
    m->n_own++;
    return true;
}

/* RUN/host as a directory descriptor (made at the first FILE_CMD); false if it cannot be */
static bool host_dir(simctrl_t *m) {
    if (m->host_dir_open) return true;
    char path[4200];
    snprintf(path, sizeof path, "%s/host", m->run_dir);
    if (mkdir(path, 0755) && errno != EEXIST) {
        guest_error(m, "simctrl: cannot create the host file folder %s: %s", path, strerror(errno));
        return false;
    }
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        guest_error(m, "simctrl: %s is not a folder (a symlink?): no host file is written", path);
        return false;
    }
    m->host_dir = fd;
    m->host_dir_open = true;
    return true;
}

/* name: room for 256 bytes, the file's name when it is a valid one, else "" */
static uint32_t file_cmd(simctrl_t *m, uint32_t cmd, char *name) {
    name[0] = 0;
    if (cmd != 1 && cmd != 2) return 4;
    size_t n = 0;
    for (;; n++) {
        const uint8_t *c = n < 256 ? m->host.ram(m->host.ctx, m->file_name + (uint32_t)n, 1) : NULL;
        if (!c) {
            name[0] = 0;
            return 1;
        }
        name[n] = (char)*c;
        if (!name[n]) break;
        if (*c < 0x20 || *c == 0x7f || *c == '/') {
            name[0] = 0;
            return 1;
        }
    }
    if (n == 0 || !strcmp(name, ".") || !strcmp(name, "..")) {
        name[0] = 0;
        return 1;
    }
    const uint8_t *buf = m->host.ram(m->host.ctx, m->file_addr, m->file_len);
    if (!buf) return 2;
    if (!m->run_dir || !host_dir(m)) return 3;
    if (m->budget_reported || m->file_len > m->host_budget - m->host_written) {
        if (!m->budget_reported)
            guest_error(m, "simctrl: host file %s: %" PRIu32 " bytes refused, the run's host I/O budget of %" PRIu64 " bytes is used up (tracesim run --host-io-limit); later writes fail too", name,
                        m->file_len, m->host_budget);
        m->budget_reported = true;
        return 5;
    }
    int fl = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, fd;
    if (is_own(m, name)) {
        fd = openat(m->host_dir, name, fl | (cmd == 1 ? O_TRUNC : O_APPEND));
    } else {
        if (unlinkat(m->host_dir, name, 0) && errno != ENOENT) return 3;
        fd = openat(m->host_dir, name, fl | O_CREAT | O_EXCL, 0644);
        if (fd >= 0 && !add_own(m, name)) {
            close(fd);
            return 3;
        }
    }
    if (fd < 0) return 3;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return 3;
    }
    size_t done = 0;
    while (done < m->file_len) {
        ssize_t w = write(fd, buf + done, m->file_len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += (size_t)w;
    }
    m->host_written += done;
    if (close(fd) || done != m->file_len) return 3;
    return 0;
}

bool simctrl_write(simctrl_t *m, unsigned hart, uint32_t off, unsigned size, uint32_t val) {
    if (size != 4) return false;
    switch (off) {
    case SIMCTRL_EXIT: m->host.exit(m->host.ctx, (int)(int32_t)val); return true; /* the whole value, signed */
    case SIMCTRL_MARK:
        if (m->marks)
            fprintf(m->marks, "%u,%llu,%llu,%u\n", val, (unsigned long long)m->host.cycle(m->host.ctx),
                    (unsigned long long)m->host.instret(m->host.ctx, hart), hart);
        if (m->host.mark) m->host.mark(m->host.ctx, hart, val);
        return true;
    case SIMCTRL_WAVES: m->host.waves(m->host.ctx, (val & 1) != 0); return true;
    case SIMCTRL_FILE_NAME: m->file_name = val; return true;
    case SIMCTRL_FILE_ADDR: m->file_addr = val; return true;
    case SIMCTRL_FILE_LEN: m->file_len = val; return true;
    case SIMCTRL_FILE_CMD: {
        char name[256];
        m->file_status = file_cmd(m, val, name);
        if (m->host.host_io) m->host.host_io(m->host.ctx, hart, val, name[0] ? name : NULL, m->file_len, m->file_status);
        return true;
    }
    default: return false;
    }
}

bool simctrl_read(simctrl_t *m, unsigned hart, uint32_t off, unsigned size, uint32_t *val) {
    if (size != 4) return false;
    switch (off) {
    case SIMCTRL_CYCLE_LO: *val = (uint32_t)m->host.cycle(m->host.ctx); return true;
    case SIMCTRL_CYCLE_HI: *val = (uint32_t)(m->host.cycle(m->host.ctx) >> 32); return true;
    case SIMCTRL_INSTRET_LO: *val = (uint32_t)m->host.instret(m->host.ctx, hart); return true;
    case SIMCTRL_INSTRET_HI: *val = (uint32_t)(m->host.instret(m->host.ctx, hart) >> 32); return true;
    case SIMCTRL_HARTS: *val = m->host.harts; return true;
    case SIMCTRL_FILE_NAME: *val = m->file_name; return true;
    case SIMCTRL_FILE_ADDR: *val = m->file_addr; return true;
    case SIMCTRL_FILE_LEN: *val = m->file_len; return true;
    case SIMCTRL_FILE_STATUS: *val = m->file_status; return true;
    default: return false;
    }
}
