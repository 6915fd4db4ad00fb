/* simctrl.c - simulation-control block; see simctrl.h.
 *
 * FILE_CMD checks before it touches the host: the name must be in RAM byte by byte up to
 * its NUL, non-empty, without '/', and not "." or ".." (firmware cannot write outside the
 * run folder); the whole buffer must be in RAM. */
#include "simctrl.h"
#include <string.h>

#define TS_REG(block, name, off, acc, desc) enum { block##_##name = off };
#include "soc_map.def"

void simctrl_init(simctrl_t *m, const simctrl_host_t *host, const char *run_dir, FILE *marks) {
    memset(m, 0, sizeof *m);
    m->host = *host;
    m->run_dir = run_dir;
    m->marks = marks;
    if (!m->host.harts) m->host.harts = 1;
    if (marks) fputs("value,cycle,instret,hart\n", marks);
}

void simctrl_reset(simctrl_t *m) {
    m->file_name = m->file_addr = m->file_len = m->file_status = 0;
}

static uint32_t file_cmd(simctrl_t *m, uint32_t cmd) {
    if (cmd != 1 && cmd != 2) return 4;
    char name[256];
    size_t n = 0;
    for (;; n++) {
        const uint8_t *c = n < sizeof name ? m->host.ram(m->host.ctx, m->file_name + (uint32_t)n, 1) : NULL;
        if (!c) return 1;
        name[n] = (char)*c;
        if (!name[n]) break;
    }
    if (n == 0 || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) return 1;
    const uint8_t *buf = m->host.ram(m->host.ctx, m->file_addr, m->file_len);
    if (!buf) return 2;
    if (!m->run_dir) return 3;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", m->run_dir, name);
    FILE *f = fopen(path, cmd == 1 ? "wb" : "ab");
    if (!f) return 3;
    size_t w = fwrite(buf, 1, m->file_len, f);
    if (fclose(f) || w != m->file_len) return 3;
    return 0;
}

bool simctrl_write(simctrl_t *m, unsigned hart, uint32_t off, unsigned size, uint32_t val) {
    if (size != 4) return false;
    switch (off) {
    case SIMCTRL_EXIT: m->host.exit(m->host.ctx, (int)(val & 0xFF)); return true;
    case SIMCTRL_MARK:
        if (m->marks)
            fprintf(m->marks, "%u,%llu,%llu,%u\n", val, (unsigned long long)m->host.cycle(m->host.ctx),
                    (unsigned long long)m->host.instret(m->host.ctx, hart), hart);
        return true;
    case SIMCTRL_WAVES: m->host.waves(m->host.ctx, (val & 1) != 0); return true;
    case SIMCTRL_FILE_NAME: m->file_name = val; return true;
    case SIMCTRL_FILE_ADDR: m->file_addr = val; return true;
    case SIMCTRL_FILE_LEN: m->file_len = val; return true;
    case SIMCTRL_FILE_CMD: m->file_status = file_cmd(m, val); return true;
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
