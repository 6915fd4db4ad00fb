#define _XOPEN_SOURCE 700 /* nftw */
/* test_soc_devices.c - the SoC's passive models without the cycle loop: UART, simctrl (with a
 * fake host), and the interconnect (decode, RAM wait states, SBA-sink-wins arbitration, bus
 * errors) driven through a fake core port. Two instances of each work side by side. */
#include "bus.h"
#include "soc_targets.h"
#include "simctrl.h"
#include "uart.h"
#include "ts_test.h"
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- UART ------------------------------------------------------------------------------- */

static void read_back(FILE *f, char *buf, size_t len) {
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
}

TS_TEST(uart_sends_to_both_streams_and_reads_ready) {
    FILE *echo = tmpfile(), *log = tmpfile();
    TS_ASSERT(echo && log);
    uart_t u;
    uart_init(&u, echo, log);
    TS_ASSERT(uart_write(&u, 0, 1, 'h'));
    TS_ASSERT(uart_write(&u, 0, 4, 0x1234569)); /* low 8 bits: 'i' */
    uint32_t v = 7;
    TS_ASSERT(uart_read(&u, 0, 4, &v));
    TS_ASSERT_EQ_U(v, 0);
    TS_ASSERT(!uart_write(&u, 4, 4, 'x')); /* no register there */
    TS_ASSERT(!uart_read(&u, 0x10, 4, &v));
    TS_ASSERT_EQ_U(u.tx_bytes, 2);
    char buf[16];
    read_back(echo, buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "hi");
    read_back(log, buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "hi");
    fclose(echo);
    fclose(log);
}

TS_TEST(uart_two_instances_and_no_streams) {
    FILE *a = tmpfile(), *b = tmpfile();
    uart_t ua, ub, quiet;
    uart_init(&ua, NULL, a);
    uart_init(&ub, NULL, b);
    uart_init(&quiet, NULL, NULL);
    TS_ASSERT(uart_write(&ua, 0, 1, 'A'));
    TS_ASSERT(uart_write(&ub, 0, 1, 'B'));
    TS_ASSERT(uart_write(&quiet, 0, 1, 'Q')); /* goes nowhere, still accepted */
    char buf[8];
    read_back(a, buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "A");
    read_back(b, buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "B");
    uart_reset(&ua);
    TS_ASSERT_EQ_U(ua.tx_bytes, 0);
    TS_ASSERT_EQ_U(ub.tx_bytes, 1);
    fclose(a);
    fclose(b);
}

/* ---- simctrl ---------------------------------------------------------------------------- */

enum { FAKE_RAM_BASE = 0x1000,
       FAKE_RAM_SIZE = 1024 };

typedef struct fake_host {
    uint64_t cycle, instret[2];
    uint8_t ram[FAKE_RAM_SIZE];
    int exits, exit_code, waves_calls, guest_errors;
    bool waves;
    char last_error[512];
} fake_host_t;

static uint64_t fh_cycle(void *ctx) { return ((fake_host_t *)ctx)->cycle; }
static uint64_t fh_instret(void *ctx, unsigned hart) { return ((fake_host_t *)ctx)->instret[hart & 1]; }
static uint8_t *fh_ram(void *ctx, uint32_t addr, uint32_t len) {
    fake_host_t *h = ctx;
    if (addr < FAKE_RAM_BASE || (uint64_t)addr - FAKE_RAM_BASE + len > FAKE_RAM_SIZE) return NULL;
    return h->ram + (addr - FAKE_RAM_BASE);
}
static void fh_exit(void *ctx, int code) {
    fake_host_t *h = ctx;
    h->exits++;
    h->exit_code = code;
}
static void fh_waves(void *ctx, bool on) {
    fake_host_t *h = ctx;
    h->waves_calls++;
    h->waves = on;
}
static void fh_guest_error(void *ctx, const char *msg) {
    fake_host_t *h = ctx;
    h->guest_errors++;
    snprintf(h->last_error, sizeof h->last_error, "%s", msg);
}

static void simctrl_fake(simctrl_t *m, fake_host_t *h, const char *dir, FILE *marks) {
    memset(h, 0, sizeof *h);
    simctrl_host_t host = {.ctx = h, .cycle = fh_cycle, .instret = fh_instret, .ram = fh_ram, .exit = fh_exit, .waves = fh_waves, .harts = 2, .guest_error = fh_guest_error};
    simctrl_init(m, &host, dir, marks);
    simctrl_reset(m);
}

TS_TEST(simctrl_counts_exit_waves_marks) {
    FILE *marks = tmpfile();
    fake_host_t h;
    simctrl_t m;
    simctrl_fake(&m, &h, NULL, marks);
    h.cycle = 0x123456789ull;
    h.instret[0] = 0xABCDEF01234ull;
    h.instret[1] = 77;
    uint32_t v;
    TS_ASSERT(simctrl_read(&m, 0, 0x08, 4, &v));
    TS_ASSERT_EQ_U(v, 0x23456789);
    TS_ASSERT(simctrl_read(&m, 0, 0x0C, 4, &v));
    TS_ASSERT_EQ_U(v, 0x1);
    TS_ASSERT(simctrl_read(&m, 0, 0x14, 4, &v));
    TS_ASSERT_EQ_U(v, 0xDEF01234);
    TS_ASSERT(simctrl_read(&m, 0, 0x18, 4, &v));
    TS_ASSERT_EQ_U(v, 0xABC);
    TS_ASSERT(simctrl_read(&m, 1, 0x14, 4, &v));
    TS_ASSERT_EQ_U(v, 77); /* the accessing hart's */
    TS_ASSERT(simctrl_read(&m, 1, 0x1C, 4, &v));
    TS_ASSERT_EQ_U(v, 2);                           /* HARTS */
    TS_ASSERT(simctrl_write(&m, 0, 0x04, 4, 4660)); /* MARK */
    TS_ASSERT(simctrl_write(&m, 1, 0x04, 4, 5));    /* MARK by hart 1 */
    TS_ASSERT(simctrl_write(&m, 0, 0x10, 4, 3));    /* WAVES: bit 0 */
    TS_ASSERT_EQ_I(h.waves_calls, 1);
    TS_ASSERT(h.waves);
    TS_ASSERT_EQ_I(h.exits, 0);
    TS_ASSERT(simctrl_write(&m, 0, 0x00, 4, 0x1FF)); /* EXIT: the whole value (511, not 255) */
    TS_ASSERT_EQ_I(h.exits, 1);
    TS_ASSERT_EQ_I(h.exit_code, 0x1FF);
    TS_ASSERT(simctrl_write(&m, 0, 0x00, 4, 0xFFFFFFFFu)); /* exit(-1): signed */
    TS_ASSERT_EQ_I(h.exit_code, -1);
    char buf[128];
    read_back(marks, buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "value,cycle,instret,hart\n4660,4886718345,11806310404660,0\n5,4886718345,77,1\n");
    fclose(marks);
}

TS_TEST(simctrl_access_rules) {
    fake_host_t h;
    simctrl_t m;
    simctrl_fake(&m, &h, NULL, NULL);
    uint32_t v;
    TS_ASSERT(!simctrl_write(&m, 0, 0x00, 1, 1)); /* word only */
    TS_ASSERT(!simctrl_read(&m, 0, 0x08, 2, &v));
    TS_ASSERT(!simctrl_read(&m, 0, 0x00, 4, &v)); /* EXIT is write-only */
    TS_ASSERT(!simctrl_write(&m, 0, 0x08, 4, 1)); /* CYCLE_LO is read-only */
    TS_ASSERT(!simctrl_write(&m, 0, 0x30, 4, 1)); /* FILE_STATUS is read-only */
    TS_ASSERT(!simctrl_read(&m, 0, 0x34, 4, &v)); /* hole */
    TS_ASSERT(!simctrl_write(&m, 0, 0x1C, 4, 1)); /* HARTS is read-only */
    TS_ASSERT(simctrl_write(&m, 0, 0x04, 4, 1));  /* MARK without a marks stream */
    TS_ASSERT_EQ_I(h.exits, 0);
    TS_ASSERT(simctrl_write(&m, 0, 0x20, 4, 0x1234));
    TS_ASSERT(simctrl_read(&m, 0, 0x20, 4, &v));
    TS_ASSERT_EQ_U(v, 0x1234);
}

static uint32_t file_cmd(simctrl_t *m, uint32_t name, uint32_t addr, uint32_t len, uint32_t cmd) {
    uint32_t st = 99;
    TS_ASSERT(simctrl_write(m, 0, 0x20, 4, name));
    TS_ASSERT(simctrl_write(m, 0, 0x24, 4, addr));
    TS_ASSERT(simctrl_write(m, 0, 0x28, 4, len));
    TS_ASSERT(simctrl_write(m, 0, 0x2C, 4, cmd));
    TS_ASSERT(simctrl_read(m, 0, 0x30, 4, &st));
    return st;
}

TS_TEST(simctrl_host_files) {
    char dir[] = "/tmp/ts_simctrl_XXXXXX";
    TS_ASSERT(mkdtemp(dir));
    fake_host_t h;
    simctrl_t m;
    simctrl_fake(&m, &h, dir, NULL);
    memcpy(h.ram, "out.txt", 8);
    memcpy(h.ram + 16, "../x", 5);
    memcpy(h.ram + 32, "..", 3);
    memcpy(h.ram + 64, "hello\n", 6);
    h.ram[FAKE_RAM_SIZE - 1] = 'z'; /* a name without its NUL in RAM */
    const uint32_t R = FAKE_RAM_BASE;
    TS_ASSERT_EQ_U(file_cmd(&m, R, R + 64, 6, 1), 0);
    TS_ASSERT_EQ_U(file_cmd(&m, R, R + 64, 3, 2), 0);                     /* append */
    TS_ASSERT_EQ_U(file_cmd(&m, R + 16, R + 64, 6, 1), 1);                /* a '/' in the name */
    TS_ASSERT_EQ_U(file_cmd(&m, R + 32, R + 64, 6, 1), 1);                /* ".." */
    TS_ASSERT_EQ_U(file_cmd(&m, R + 8, R + 64, 6, 1), 1);                 /* empty name */
    TS_ASSERT_EQ_U(file_cmd(&m, R + FAKE_RAM_SIZE - 1, R + 64, 6, 1), 1); /* name runs out of RAM */
    TS_ASSERT_EQ_U(file_cmd(&m, R, R + FAKE_RAM_SIZE - 2, 6, 1), 2);      /* buffer outside RAM */
    TS_ASSERT_EQ_U(file_cmd(&m, R, R + 64, 6, 3), 4);                     /* bad command */
    char path[256], buf[32];
    snprintf(path, sizeof path, "%s/host/out.txt", dir); /* in RUN/host */
    FILE *f = fopen(path, "rb");
    TS_ASSERT(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    TS_ASSERT_STR_EQ(buf, "hello\nhel");
    simctrl_free(&m);
    unlink(path);
    snprintf(path, sizeof path, "%s/host", dir);
    rmdir(path);
    rmdir(dir);
    simctrl_t nodir; /* no run folder */
    fake_host_t h2;
    simctrl_fake(&nodir, &h2, NULL, NULL);
    memcpy(h2.ram, "a", 2);
    TS_ASSERT_EQ_U(file_cmd(&nodir, R, R, 1, 1), 3);
}

/* the whole of a small file ("" if it cannot be read) */
static const char *slurp_small(const char *dir, const char *name) {
    static char buf[4][256];
    static int k;
    char *b = buf[k++ & 3], path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    b[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return b;
    size_t n = fread(b, 1, 255, f);
    b[n] = 0;
    fclose(f);
    return b;
}

static void put_file(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}
static void rm_rf(const char *dir) { TS_ASSERT_EQ_I(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0); }

/* Firmware writes only new or its own files in RUN/host: the simulator's files, a symlink, a
 * hard link or a FIFO planted there, a file of its own swapped for a symlink, RUN/host itself a
 * symlink; names with control characters, 255 and 256 bytes */
TS_TEST(simctrl_host_sandbox) {
    char dir[] = "/tmp/ts_simctrl_XXXXXX", host[64], other[64], victim[64];
    TS_ASSERT(mkdtemp(dir));
    snprintf(host, sizeof host, "%s/host", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    static const char *const sim_files[] = {"flow.csv", "itc.csv", "counters.csv", "stats.txt"};
    for (int i = 0; i < 4; i++) put_file(dir, sim_files[i], "truth\n");
    put_file(dir, "victim.txt", "keep\n");
    TS_ASSERT_EQ_I(mkdir(host, 0755), 0);
    char lpath[128];
    snprintf(lpath, sizeof lpath, "%s/link", host);
    TS_ASSERT_EQ_I(symlink(victim, lpath), 0); /* -> RUN/victim.txt */
    snprintf(lpath, sizeof lpath, "%s/dangling", host);
    TS_ASSERT_EQ_I(symlink("../made_by_firmware", lpath), 0);
    snprintf(lpath, sizeof lpath, "%s/hard", host);
    TS_ASSERT_EQ_I(link(victim, lpath), 0);
    snprintf(lpath, sizeof lpath, "%s/fifo", host);
    TS_ASSERT_EQ_I(mkfifo(lpath, 0644), 0);
    snprintf(lpath, sizeof lpath, "%s/sub", host);
    TS_ASSERT_EQ_I(mkdir(lpath, 0755), 0);

    fake_host_t h;
    simctrl_t m;
    simctrl_fake(&m, &h, dir, NULL);
    const uint32_t R = FAKE_RAM_BASE, D = R + 512;
    memcpy(h.ram + 512, "fw!", 4);
    for (int i = 0; i < 4; i++) { /* the simulator's files */
        memcpy(h.ram, sim_files[i], strlen(sim_files[i]) + 1);
        TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 0);                 /* RUN/host/NAME */
        TS_ASSERT_STR_EQ(slurp_small(dir, sim_files[i]), "truth\n"); /* RUN/NAME intact */
    }
    static const char *const planted[] = {"link", "dangling", "hard", "fifo"};
    for (int i = 0; i < 4; i++) {
        memcpy(h.ram, planted[i], strlen(planted[i]) + 1);
        TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 2), 0); /* a new file instead */
        char name[64];
        snprintf(name, sizeof name, "host/%s", planted[i]);
        TS_ASSERT_STR_EQ(slurp_small(dir, name), "fw!");
        struct stat st;
        snprintf(lpath, sizeof lpath, "%s/%s", host, planted[i]);
        TS_ASSERT(lstat(lpath, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1);
    }
    TS_ASSERT_STR_EQ(slurp_small(dir, "victim.txt"), "keep\n");
    TS_ASSERT(access(other, F_OK) != 0);
    snprintf(lpath, sizeof lpath, "%s/made_by_firmware", dir);
    TS_ASSERT(access(lpath, F_OK) != 0);
    memcpy(h.ram, "sub", 4);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 3); /* a folder: refused */
    /* its own file swapped for a symlink: not followed */
    memcpy(h.ram, "mine", 5);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 0);
    snprintf(lpath, sizeof lpath, "%s/mine", host);
    TS_ASSERT_EQ_I(unlink(lpath), 0);
    TS_ASSERT_EQ_I(symlink(victim, lpath), 0);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 2), 3);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 3);
    TS_ASSERT_STR_EQ(slurp_small(dir, "victim.txt"), "keep\n");
    /* names: control characters, 255 bytes (ok), 256 (refused), "." */
    memcpy(h.ram, "a\nb", 4);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 1);
    memset(h.ram, 'n', 255);
    h.ram[255] = 0;
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 0);
    memset(h.ram, 'n', 256);
    h.ram[256] = 0;
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 1);
    memcpy(h.ram, ".", 2);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 1);
    TS_ASSERT_EQ_I(h.guest_errors, 0);
    simctrl_free(&m);
    /* RUN/host a symlink to another folder: nothing is written, one guest error */
    rm_rf(host);
    TS_ASSERT_EQ_I(mkdir(other, 0755), 0);
    TS_ASSERT_EQ_I(symlink(other, host), 0);
    simctrl_fake(&m, &h, dir, NULL);
    memcpy(h.ram, "x.txt", 6);
    memcpy(h.ram + 512, "fw!", 4);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 3);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 3, 1), 3);
    snprintf(lpath, sizeof lpath, "%s/x.txt", other);
    TS_ASSERT(access(lpath, F_OK) != 0);
    TS_ASSERT(h.guest_errors >= 1);
    simctrl_free(&m);
    rm_rf(dir);
}

/* the byte budget: a write that would pass it is refused whole (status 5), and so is every
 * later one; one guest error */
TS_TEST(simctrl_host_budget) {
    char dir[] = "/tmp/ts_simctrl_XXXXXX";
    TS_ASSERT(mkdtemp(dir));
    fake_host_t h;
    simctrl_t m;
    simctrl_fake(&m, &h, dir, NULL);
    TS_ASSERT_EQ_U(m.host_budget, 64ull << 20); /* the documented default */
    simctrl_set_host_budget(&m, 10);
    const uint32_t R = FAKE_RAM_BASE, D = R + 512;
    memcpy(h.ram, "b.bin", 6);
    memcpy(h.ram + 512, "0123456789", 10);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 6, 1), 0);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 6, 2), 5); /* 12 > 10 */
    TS_ASSERT_EQ_I(h.guest_errors, 1);
    TS_ASSERT(strstr(h.last_error, "host I/O budget of 10 bytes is used up"));
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 1, 2), 5); /* fits, but later: refused */
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 6, 1), 5);
    TS_ASSERT_EQ_I(h.guest_errors, 1);
    TS_ASSERT_STR_EQ(slurp_small(dir, "host/b.bin"), "012345");
    simctrl_free(&m);
    simctrl_fake(&m, &h, dir, NULL); /* budget 0: nothing */
    simctrl_set_host_budget(&m, 0);
    memcpy(h.ram, "c.bin", 6);
    TS_ASSERT_EQ_U(file_cmd(&m, R, D, 1, 1), 5);
    simctrl_free(&m);
    rm_rf(dir);
}

/* ---- bus -------------------------------------------------------------------------------- */

/* the pins of one fake core */
typedef struct fake_core {
    uint32_t instr_addr, instr_rdata, data_addr, data_wdata, data_pc, data_rdata;
    uint8_t instr_rdy, instr_err, data_req, data_we, data_size, data_rdy, data_err;
    uint64_t mem_ctrl; /* the MEM register: bits 29:24 the A extension's op code */
    vcore_ports_t p;
} fake_core_t;

static void fake_core_init(fake_core_t *c) {
    memset(c, 0, sizeof *c);
    c->p.instr_addr = &c->instr_addr;
    c->p.instr_rdy = &c->instr_rdy;
    c->p.instr_err = &c->instr_err;
    c->p.instr_rdata = &c->instr_rdata;
    c->p.data_req = &c->data_req;
    c->p.data_we = &c->data_we;
    c->p.data_size = &c->data_size;
    c->p.mem_ctrl = &c->mem_ctrl;
    c->p.data_addr = &c->data_addr;
    c->p.data_wdata = &c->data_wdata;
    c->p.data_pc = &c->data_pc;
    c->p.data_rdy = &c->data_rdy;
    c->p.data_err = &c->data_err;
    c->p.data_rdata = &c->data_rdata;
}

typedef struct bus_rig {
    bus_t bus;
    bus_port_t port;
    fake_core_t core;
    clint_t clint;
    uart_t uart;
    simctrl_t simctrl;
    fake_host_t host;
    int guest_errors;
    char last_error[256];
} bus_rig_t;

static void rig_guest_error(void *ctx, const char *msg) {
    bus_rig_t *r = ctx;
    r->guest_errors++;
    snprintf(r->last_error, sizeof r->last_error, "%s", msg);
}

static bus_rig_t *rig_new(unsigned ram_wait, unsigned dcache_size) {
    bus_rig_t *r = calloc(1, sizeof *r);
    TS_ASSERT(r);
    fake_core_init(&r->core);
    TS_ASSERT_EQ_I(clint_init(&r->clint, 1, 1), 0);
    uart_init(&r->uart, NULL, NULL);
    simctrl_fake(&r->simctrl, &r->host, NULL, NULL);
    bus_targets_t dev = {0};
    bus_hooks_t hooks = {.ctx = r, .guest_error = rig_guest_error};
    char err[128];
    TS_ASSERT_EQ_I(bus_init(&r->bus, 4096, ram_wait, &dev, &hooks, err, sizeof err), 0);
    bus_target_ops_t clint = soc_target_clint(&r->clint), uart = soc_target_uart(&r->uart),
                     simctrl = soc_target_simctrl(&r->simctrl);
    bus_set_target(&r->bus, BT_CLINT, &clint);
    bus_set_target(&r->bus, BT_UART, &uart);
    bus_set_target(&r->bus, BT_SIMCTRL, &simctrl);
    cache_cfg_t none = {0}, dc = {.size = dcache_size, .line = 16, .ways = 1, .miss_latency = 3};
    TS_ASSERT_EQ_I(bus_port_init(&r->port, &r->core.p, 0, &none, &dc, err, sizeof err), 0);
    bus_reset(&r->bus);
    bus_port_reset(&r->port);
    return r;
}

static void rig_free(bus_rig_t *r) {
    bus_port_free(&r->port);
    bus_free(&r->bus);
    free(r);
}

/* one data request held until answered; returns the cycles it took (1 = no wait) */
static unsigned data_access(bus_rig_t *r, uint32_t addr, unsigned size_log2, bool we, uint32_t wdata) {
    r->core.data_req = 1;
    r->core.data_addr = addr;
    r->core.data_size = (uint8_t)size_log2;
    r->core.data_we = we;
    r->core.data_wdata = wdata;
    for (unsigned n = 1; n <= 100; n++) {
        bus_sba_write(&r->bus, &(sink_t){0}); /* an idle SBA sink */
        bus_service_data(&r->bus, &r->port);
        if (r->core.data_rdy) {
            r->core.data_req = 0;
            return n;
        }
    }
    TS_FAIL("data access to 0x%08x never answered", addr);
    return 0;
}

TS_TEST(bus_ram_sizes_and_wait_states) {
    bus_rig_t *r = rig_new(2, 0);
    const uint32_t R = MAP_RAM_BASE;
    TS_ASSERT_EQ_U(data_access(r, R + 8, 2, true, 0x11223344), 3); /* 2 wait states */
    TS_ASSERT_EQ_U(data_access(r, R + 9, 0, true, 0xAA), 3);
    TS_ASSERT_EQ_U(data_access(r, R + 8, 2, false, 0), 3);
    TS_ASSERT_EQ_U(r->core.data_rdata, 0x1122AA44);
    TS_ASSERT_EQ_U(r->core.data_err, 0);
    TS_ASSERT_EQ_U(data_access(r, R + 10, 1, false, 0), 3);
    TS_ASSERT_EQ_U(r->core.data_rdata, 0x1122);
    TS_ASSERT_EQ_U(r->port.ev, 0); /* no cache, no events */
    uint8_t *m = bus_ram(&r->bus, R + 8, 4);
    TS_ASSERT(m && m[1] == 0xAA);
    TS_ASSERT(!bus_ram(&r->bus, R + 4094, 4)); /* runs past the end of RAM */
    TS_ASSERT(bus_load(&r->bus, R, "\x13\x00\x00\x00", 4, 4));
    TS_ASSERT(!bus_load(&r->bus, R + 4092, "abcd", 4, 1));
    rig_free(r);
}

TS_TEST(bus_dcache_hit_miss_and_events) {
    bus_rig_t *r = rig_new(5, 256);
    const uint32_t R = MAP_RAM_BASE;
    r->port.ev = 0;
    TS_ASSERT_EQ_U(data_access(r, R + 32, 2, false, 0), 4); /* miss: 3 cycles of latency */
    TS_ASSERT(r->port.ev & EVB_D_CACHE_MISS);
    r->port.ev = 0;
    TS_ASSERT_EQ_U(data_access(r, R + 36, 2, false, 0), 1); /* same line: hit */
    TS_ASSERT_EQ_U(r->port.ev, EVB_D_CACHE_ACCESS);
    TS_ASSERT_EQ_U(data_access(r, R + 96, 2, true, 1), 1); /* stores never miss */
    rig_free(r);
}

/* two harts on one bus: round robin per target, wait states keep the RAM, different targets
 * in the same cycle (bus.h "Arbitration") */
TS_TEST(bus_arbitration_between_harts) {
    bus_rig_t *r = rig_new(1, 0); /* RAM: 1 wait state */
    fake_core_t c1;
    bus_port_t p1;
    cache_cfg_t none = {0};
    char err[128];
    fake_core_init(&c1);
    TS_ASSERT_EQ_I(bus_port_init(&p1, &c1.p, 1, &none, &none, err, sizeof err), 0);
    TS_ASSERT_EQ_I(bus_attach_port(&r->bus, &r->port), 0);
    TS_ASSERT_EQ_I(bus_attach_port(&r->bus, &p1), 0);
    bus_reset(&r->bus);
    const uint32_t R = MAP_RAM_BASE;
    fake_core_t *c0 = &r->core;
    /* both load from RAM: hart 0 first after reset; it keeps the RAM through its wait state */
    c0->data_req = 1;
    c0->data_addr = R;
    c0->data_size = 2;
    c1.data_req = 1;
    c1.data_addr = R + 4;
    c1.data_size = 2;
    unsigned done0 = 0, done1 = 0;
    for (unsigned cyc = 1; cyc <= 8 && (!done0 || !done1); cyc++) {
        bus_sba_write(&r->bus, &(sink_t){0});
        bus_service_data_all(&r->bus);
        if (c0->data_rdy && !done0) {
            done0 = cyc;
            c0->data_req = 0;
        }
        if (c1.data_rdy && !done1) {
            done1 = cyc;
            c1.data_req = 0;
        }
        if (cyc == 1) {
            TS_ASSERT(p1.ev & EVB_BUS_ARB);
            TS_ASSERT(!(r->port.ev & EVB_BUS_ARB));
        }
    }
    TS_ASSERT_EQ_U(done0, 2); /* cycles 1-2: hart 0 (1 wait state) */
    TS_ASSERT_EQ_U(done1, 4); /* cycles 3-4: hart 1 */
    /* next contest: hart 1 won RAM last, so hart 0 goes first again; then hart 1 */
    r->port.ev = p1.ev = 0;
    c0->data_req = c1.data_req = 1;
    bus_sba_write(&r->bus, &(sink_t){0});
    bus_service_data_all(&r->bus);
    TS_ASSERT(p1.ev & EVB_BUS_ARB);
    TS_ASSERT_EQ_U(r->port.ev, 0);
    /* different targets are served in the same cycle: CLINT mtime and the UART */
    c0->data_req = 1;
    c0->data_addr = MAP_CLINT_BASE + 0xBFF8;
    c0->data_we = 0;
    c1.data_req = 1;
    c1.data_addr = MAP_UART_BASE;
    c1.data_we = 0;
    r->port.ev = p1.ev = 0;
    bus_sba_write(&r->bus, &(sink_t){0});
    bus_service_data_all(&r->bus);
    TS_ASSERT_EQ_U(c0->data_rdy, 1);
    TS_ASSERT_EQ_U(c1.data_rdy, 1);
    TS_ASSERT_EQ_U(r->port.ev | p1.ev, 0);
    /* an unmapped address is a bus error at once, whatever the other hart does */
    c0->data_addr = MAP_UART_BASE;
    c1.data_addr = 0x30000000;
    bus_sba_write(&r->bus, &(sink_t){0});
    bus_service_data_all(&r->bus);
    TS_ASSERT_EQ_U(c1.data_rdy, 1);
    TS_ASSERT_EQ_U(c1.data_err, 1);
    TS_ASSERT_EQ_U(c0->data_rdy, 1);
    TS_ASSERT_EQ_I(r->guest_errors, 1);
    bus_port_free(&p1);
    rig_free(r);
}

/* one LR/SC/AMO (funct5 op) held until answered: the cycles it took; rdata the answer */
static unsigned amo_access(bus_rig_t *r, uint32_t addr, unsigned op, uint32_t wdata) {
    r->core.mem_ctrl = (uint64_t)(BUS_AMO_VALID | op) << 24;
    unsigned n = data_access(r, addr, 2, op != BUS_AMO_LR, wdata);
    r->core.mem_ctrl = 0;
    return n;
}

static uint32_t ram_word(bus_rig_t *r, uint32_t addr) {
    uint32_t v;
    bus_ram_read(&r->bus, addr - MAP_RAM_BASE, 4, &v);
    return v;
}

/* the A extension's read-modify-write in one access (expected values from the spec's
 * definitions of each AMO) and its wait states */
TS_TEST(bus_amo_ops) {
    bus_rig_t *r = rig_new(2, 0);
    const uint32_t A = MAP_RAM_BASE + 0x40;
    static const struct {
        unsigned op;
        uint32_t mem, src, res;
    } c[] = {
        {BUS_AMO_SWAP, 0x11111111, 0x22222222, 0x22222222},
        {BUS_AMO_ADD, 0xfffffffe, 3, 1},
        {BUS_AMO_XOR, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0},
        {BUS_AMO_AND, 0xff00ff00, 0x0ff00ff0, 0x0f000f00},
        {BUS_AMO_OR, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0},
        {BUS_AMO_MIN, 0xfffffffb, 3, 0xfffffffb},
        {BUS_AMO_MAX, 0xfffffffb, 3, 3},
        {BUS_AMO_MINU, 0xfffffffb, 3, 3},
        {BUS_AMO_MAXU, 0xfffffffb, 3, 0xfffffffb},
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        data_access(r, A, 2, true, c[i].mem);
        TS_ASSERT_EQ_U(amo_access(r, A, c[i].op, c[i].src), 3); /* the RAM's 2 wait states, once */
        TS_ASSERT_EQ_U(r->core.data_rdata, c[i].mem);           /* rd: the old value */
        TS_ASSERT_EQ_U(ram_word(r, A), c[i].res);
        TS_ASSERT_EQ_U(r->core.data_err, 0);
    }
    TS_ASSERT_EQ_I(r->guest_errors, 0);
    rig_free(r);
}

/* LR/SC on one hart: SC succeeds (0) only on its LR's word, once; the hart's own stores keep
 * the reservation; an AMO to a device is a bus error with one guest error line */
TS_TEST(bus_lr_sc_one_hart) {
    bus_rig_t *r = rig_new(0, 0);
    const uint32_t A = MAP_RAM_BASE + 0x80;
    data_access(r, A, 2, true, 5);
    amo_access(r, A, BUS_AMO_LR, 0);
    TS_ASSERT_EQ_U(r->core.data_rdata, 5);
    data_access(r, A, 2, true, 6); /* its own store */
    amo_access(r, A, BUS_AMO_SC, 7);
    TS_ASSERT_EQ_U(r->core.data_rdata, 0);
    TS_ASSERT_EQ_U(ram_word(r, A), 7);
    amo_access(r, A, BUS_AMO_SC, 8); /* no reservation left */
    TS_ASSERT_EQ_U(r->core.data_rdata, 1);
    TS_ASSERT_EQ_U(ram_word(r, A), 7);
    amo_access(r, A, BUS_AMO_LR, 0);
    amo_access(r, A + 4, BUS_AMO_SC, 9); /* another word: fails and clears */
    TS_ASSERT_EQ_U(r->core.data_rdata, 1);
    TS_ASSERT_EQ_U(ram_word(r, A + 4), 0);
    amo_access(r, A, BUS_AMO_SC, 9);
    TS_ASSERT_EQ_U(r->core.data_rdata, 1);
    TS_ASSERT_EQ_U(r->bus.resv_harts, 0);
    /* devices: an access fault, nothing written */
    r->core.data_pc = 0x80000200;
    amo_access(r, MAP_CLINT_BASE, BUS_AMO_OR, 1);
    TS_ASSERT_EQ_U(r->core.data_err, 1);
    TS_ASSERT_EQ_U(r->clint.msip, 0);
    TS_ASSERT_EQ_I(r->guest_errors, 1);
    TS_ASSERT(strstr(r->last_error, "store/AMO access fault: amoor.w at 0x02000000 (pc 0x80000200)"));
    amo_access(r, MAP_UART_BASE, BUS_AMO_LR, 0);
    TS_ASSERT_EQ_U(r->core.data_err, 1);
    TS_ASSERT(strstr(r->last_error, "load access fault: lr.w at 0x"));
    rig_free(r);
}

/* another hart's store, AMO or SC over the reserved word clears the reservation, one to the
 * next word does not; an SBA sink word written over it clears it too */
TS_TEST(bus_reservation_cleared_by_others) {
    bus_rig_t *r = rig_new(0, 0);
    fake_core_t c1;
    bus_port_t p1;
    cache_cfg_t none = {0};
    char err[128];
    fake_core_init(&c1);
    TS_ASSERT_EQ_I(bus_port_init(&p1, &c1.p, 1, &none, &none, err, sizeof err), 0);
    TS_ASSERT_EQ_I(bus_attach_port(&r->bus, &r->port), 0);
    TS_ASSERT_EQ_I(bus_attach_port(&r->bus, &p1), 0);
    bus_reset(&r->bus);
    const uint32_t A = MAP_RAM_BASE + 0x100;
    /* hart 1's access, alone on the bus */
#define H1(addr_, size_, we_, amo_, val_)                                                 \
    do {                                                                                  \
        c1.data_req = 1, c1.data_addr = (addr_), c1.data_size = (size_);                  \
        c1.data_we = (we_), c1.mem_ctrl = (uint64_t)(amo_) << 24, c1.data_wdata = (val_); \
        bus_sba_write(&r->bus, &(sink_t){0});                                             \
        bus_service_data_all(&r->bus);                                                    \
        TS_ASSERT_EQ_U(c1.data_rdy, 1);                                                   \
        c1.data_req = 0, c1.mem_ctrl = 0;                                                 \
    } while (0)
    static const struct {
        uint32_t off;
        unsigned size;
        bool we;
        unsigned amo;
        int keeps;
    } c[] = {
        {0, 2, true, 0, 0},                           /* a word store over it */
        {3, 0, true, 0, 0},                           /* a byte store into it */
        {2, 1, true, 0, 0},                           /* a halfword store */
        {0, 2, true, BUS_AMO_VALID | BUS_AMO_ADD, 0}, /* an AMO */
        {4, 2, true, 0, 1},                           /* the next word */
        {(uint32_t)-1, 0, true, 0, 1},                /* the byte before */
        {0, 2, false, 0, 1},                          /* a load */
        {0, 2, false, BUS_AMO_VALID | BUS_AMO_LR, 1}, /* hart 1's own LR */
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        r->core.mem_ctrl = (uint64_t)(BUS_AMO_VALID | BUS_AMO_LR) << 24;
        r->core.data_req = 1, r->core.data_addr = A, r->core.data_size = 2, r->core.data_we = 0;
        bus_sba_write(&r->bus, &(sink_t){0});
        bus_service_data_all(&r->bus);
        TS_ASSERT_EQ_U(r->core.data_rdy, 1);
        r->core.data_req = 0;
        H1(A + c[i].off, c[i].size, c[i].we, c[i].amo, 0x1234);
        TS_ASSERT_EQ_U((r->bus.resv_harts & 1u) != 0, (unsigned)c[i].keeps);
        r->bus.resv_harts = 0;
    }
    /* hart 1's successful SC clears hart 0's reservation */
    amo_access(r, A, BUS_AMO_LR, 0);
    H1(A, 2, false, BUS_AMO_VALID | BUS_AMO_LR, 0);
    H1(A, 2, true, BUS_AMO_VALID | BUS_AMO_SC, 0x99);
    TS_ASSERT_EQ_U(c1.data_rdata, 0);
    TS_ASSERT_EQ_U(r->bus.resv_harts, 0);
    /* ... a failing one (no reservation) does not */
    amo_access(r, A, BUS_AMO_LR, 0);
    H1(A, 2, true, BUS_AMO_VALID | BUS_AMO_SC, 0x98);
    TS_ASSERT_EQ_U(c1.data_rdata, 1);
    TS_ASSERT_EQ_U(r->bus.resv_harts, 1);
    TS_ASSERT_EQ_U(ram_word(r, A), 0x99);
    /* an SBA word over it clears it; over the next word it does not */
    sink_t k = {.width = 4, .sba_valid = true, .sba_addr = A + 4};
    TS_ASSERT(bus_sba_write(&r->bus, &k));
    TS_ASSERT_EQ_U(r->bus.resv_harts, 1);
    k.sba_addr = A;
    TS_ASSERT(bus_sba_write(&r->bus, &k));
    TS_ASSERT_EQ_U(r->bus.resv_harts, 0);
    amo_access(r, A, BUS_AMO_SC, 1);
    TS_ASSERT_EQ_U(r->core.data_rdata, 1);
#undef H1
    bus_port_free(&p1);
    rig_free(r);
}

TS_TEST(bus_sba_sink_wins_the_ram_port) {
    bus_rig_t *r = rig_new(0, 0);
    const uint32_t R = MAP_RAM_BASE;
    sink_t k = {.width = 4, .sba_valid = true, .sba_addr = R + 0x100, .sba_data = {1, 2, 3, 4}};
    r->core.data_req = 1;
    r->core.data_addr = R;
    r->core.data_size = 2;
    TS_ASSERT(bus_sba_write(&r->bus, &k));
    bus_service_data(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.data_rdy, 0); /* the core waits this cycle */
    TS_ASSERT(r->port.ev & EVB_SBA_CONFLICT);
    uint8_t *m = bus_ram(&r->bus, R + 0x100, 4);
    TS_ASSERT(m && m[0] == 1 && m[3] == 4);
    k.sba_valid = false; /* next cycle: the sink is idle */
    TS_ASSERT(bus_sba_write(&r->bus, &k));
    bus_service_data(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.data_rdy, 1);
    k.sba_valid = true; /* an SBA word outside RAM: bus error */
    k.sba_addr = 0x40000000;
    TS_ASSERT(!bus_sba_write(&r->bus, &k));
    TS_ASSERT(!r->bus.sba_busy);
    TS_ASSERT_EQ_I(r->guest_errors, 1);
    TS_ASSERT(strstr(r->last_error, "SBA sink write to 0x40000000"));
    rig_free(r);
}

TS_TEST(bus_device_decode_and_errors) {
    bus_rig_t *r = rig_new(0, 0);
    r->core.data_pc = 0x80000100;
    TS_ASSERT_EQ_U(data_access(r, MAP_CLINT_BASE + 0x4000, 2, true, 77), 1);
    TS_ASSERT_EQ_U(r->clint.mtimecmp[0] & 0xFFFFFFFF, 77);
    TS_ASSERT_EQ_U(data_access(r, MAP_SIMCTRL_BASE, 2, true, 5), 1); /* EXIT */
    TS_ASSERT_EQ_I(r->host.exit_code, 5);
    TS_ASSERT_EQ_U(r->core.data_err, 0);
    TS_ASSERT_EQ_U(data_access(r, MAP_UART_BASE, 0, true, 'x'), 1);
    TS_ASSERT_EQ_U(r->uart.tx_bytes, 1);
    TS_ASSERT_EQ_I(r->guest_errors, 0);
    TS_ASSERT_EQ_U(data_access(r, 0x30000000, 2, false, 0), 1); /* unmapped */
    TS_ASSERT_EQ_U(r->core.data_err, 1);
    TS_ASSERT_EQ_I(r->guest_errors, 1);
    TS_ASSERT_STR_EQ(r->last_error, "load access fault: word load at 0x30000000 (pc 0x80000100)");
    TS_ASSERT_EQ_U(data_access(r, MAP_SIMCTRL_BASE + 8, 0, false, 0), 1); /* byte to a word register */
    TS_ASSERT_EQ_U(r->core.data_err, 1);
    TS_ASSERT_EQ_U(data_access(r, MAP_FUNNEL_BASE, 2, false, 0), 1); /* no funnel */
    TS_ASSERT_EQ_U(r->core.data_err, 1);
    TS_ASSERT_EQ_I(r->guest_errors, 3);
    rig_free(r);
}

TS_TEST(bus_fetch_edges_of_ram_and_two_ports) {
    bus_rig_t *a = rig_new(1, 0), *b = rig_new(0, 0);
    TS_ASSERT(bus_load(&a->bus, MAP_RAM_BASE, "\x13\x05\x10\x00", 4, 0));
    a->core.instr_addr = MAP_RAM_BASE;
    bus_service_fetch(&a->bus, &a->port);
    TS_ASSERT_EQ_U(a->core.instr_rdy, 0); /* one wait state */
    bus_service_fetch(&a->bus, &a->port);
    TS_ASSERT_EQ_U(a->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(a->core.instr_rdata, 0x00100513);
    b->core.instr_addr = MAP_RAM_BASE + 4094; /* upper halfword outside RAM */
    bus_service_fetch(&b->bus, &b->port);
    TS_ASSERT_EQ_U(b->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(b->core.instr_err, 2);
    b->core.instr_addr = 0x1000; /* outside RAM */
    bus_service_fetch(&b->bus, &b->port);
    TS_ASSERT_EQ_U(b->core.instr_err, 3);
    TS_ASSERT_EQ_U(b->core.instr_rdata, 0);
    TS_ASSERT_EQ_I(a->guest_errors + b->guest_errors, 0); /* the core reports fetch faults */
    rig_free(a);
    rig_free(b);
}

/* with no wait states and no I-cache (fetch_end, set by bus_attach_port) a fetch of a whole
 * word in RAM is answered in its own cycle without the full decode; the edges of RAM answer
 * as with wait states, and with wait states the fetch still waits */
TS_TEST(bus_fetch_at_once_without_wait_states) {
    bus_rig_t *r = rig_new(0, 0);
    TS_ASSERT_EQ_I(bus_attach_port(&r->bus, &r->port), 0);
    TS_ASSERT_EQ_U(r->port.fetch_end, 4096 - 3);
    TS_ASSERT(bus_load(&r->bus, MAP_RAM_BASE + 4088, "\x13\x05\x10\x00\x6f\x00\x00\x00", 8, 0));
    r->core.instr_addr = MAP_RAM_BASE + 4092; /* the last whole word */
    bus_service_fetch(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(r->core.instr_err, 0);
    TS_ASSERT_EQ_U(r->core.instr_rdata, 0x0000006f);
    r->core.instr_addr = MAP_RAM_BASE + 4094; /* upper halfword outside RAM */
    bus_service_fetch(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(r->core.instr_err, 2);
    r->core.instr_addr = MAP_RAM_BASE - 4; /* below RAM */
    bus_service_fetch(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.instr_err, 3);
    TS_ASSERT_EQ_U(r->core.instr_rdata, 0);
    r->core.instr_addr = MAP_RAM_BASE + 4088;
    bus_service_fetch(&r->bus, &r->port);
    TS_ASSERT_EQ_U(r->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(r->core.instr_err, 0);
    TS_ASSERT_EQ_U(r->core.instr_rdata, 0x00100513);
    TS_ASSERT(!r->port.i_busy);
    bus_rig_t *w = rig_new(1, 0); /* one wait state: no fetch at once */
    TS_ASSERT_EQ_I(bus_attach_port(&w->bus, &w->port), 0);
    TS_ASSERT_EQ_U(w->port.fetch_end, 0);
    TS_ASSERT(bus_load(&w->bus, MAP_RAM_BASE, "\x13\x05\x10\x00", 4, 0));
    w->core.instr_addr = MAP_RAM_BASE;
    bus_service_fetch(&w->bus, &w->port);
    TS_ASSERT_EQ_U(w->core.instr_rdy, 0);
    bus_service_fetch(&w->bus, &w->port);
    TS_ASSERT_EQ_U(w->core.instr_rdy, 1);
    TS_ASSERT_EQ_U(w->core.instr_rdata, 0x00100513);
    TS_ASSERT_EQ_I(r->guest_errors + w->guest_errors, 0);
    rig_free(r);
    rig_free(w);
}

/* an access to a trace page (an encoder's or the funnel's) marks the bus trace_touched: the
 * simulator's trace tick, skipped while the trace subsystem is idle, runs again */
TS_TEST(bus_trace_page_access_marks_trace_touched) {
    bus_rig_t *r = rig_new(0, 0);
    te_cfg_t c;
    te_default_cfg(&c);
    te_t t;
    TS_ASSERT_EQ_I(te_init(&t, &c), 0);
    r->bus.dev.te[0] = &t;
    r->bus.dev.n_te = 1;
    bus_target_ops_t te = soc_target_te(&t);
    bus_set_target(&r->bus, BT_TRACE0, &te);
    TS_ASSERT(!r->bus.trace_touched);
    TS_ASSERT_EQ_U(data_access(r, MAP_UART_BASE, 0, true, 'x'), 1);
    TS_ASSERT_EQ_U(data_access(r, MAP_RAM_BASE, 2, false, 0), 1);
    TS_ASSERT(!r->bus.trace_touched);                               /* other targets do not */
    TS_ASSERT_EQ_U(data_access(r, MAP_TRACE_BASE, 2, false, 0), 1); /* teControl read */
    TS_ASSERT(r->bus.trace_touched);
    r->bus.trace_touched = false;
    TS_ASSERT_EQ_U(data_access(r, MAP_TRACE_BASE, 2, true, 1), 1); /* teActive */
    TS_ASSERT(r->bus.trace_touched);
    bus_reset(&r->bus);
    TS_ASSERT(!r->bus.trace_touched);
    te_free(&t);
    rig_free(r);
}

TS_TEST_MAIN()
