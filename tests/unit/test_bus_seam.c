/* test_bus_seam.c - the SoC's seam (sim/bus.h): targets registered as callbacks with their own
 * context, the RAM data path a platform may take over, the targets' ticks, and what became of
 * an ITC store told by the encoder's answer (rtl_model/trace/te.h enum te_access), not by its
 * counters. Expected values from the rules of sim/bus.h and the memory map (soc_map.def). */
#include "bus.h"
#include "soc_targets.h"
#include "ts_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a target that records its last access and answers what it is told */
typedef struct fake_tgt {
    unsigned reads, writes, ticks;
    unsigned hart;
    uint32_t pc, off, val;
    unsigned size;
    enum bus_answer answer;
    bool tick_changed;
} fake_tgt_t;

static enum bus_answer fk_rd(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    fake_tgt_t *f = ctx;
    f->reads++, f->hart = hart, f->pc = pc, f->off = off, f->size = size;
    *val = 0xA5A50000u | off;
    return f->answer;
}
static enum bus_answer fk_wr(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    fake_tgt_t *f = ctx;
    f->writes++, f->hart = hart, f->pc = pc, f->off = off, f->size = size, f->val = val;
    return f->answer;
}
static bool fk_tick(void *ctx) {
    fake_tgt_t *f = ctx;
    f->ticks++;
    return f->tick_changed;
}

typedef struct rig {
    bus_t bus;
    int guest_errors;
    unsigned itc_calls, lost_calls;
    int itc_status;
    unsigned itc_hart, itc_stim;
    uint32_t itc_value;
} rig_t;

static void rg_error(void *ctx, const char *msg) {
    (void)msg;
    ((rig_t *)ctx)->guest_errors++;
}
static void rg_itc(void *ctx, unsigned hart, unsigned stim, unsigned off, unsigned size, uint32_t value, int status) {
    rig_t *r = ctx;
    (void)off, (void)size;
    r->itc_calls++, r->itc_hart = hart, r->itc_stim = stim, r->itc_value = value, r->itc_status = status;
}
static void rg_lost(void *ctx, unsigned hart, unsigned stim) {
    (void)hart, (void)stim;
    ((rig_t *)ctx)->lost_calls++;
}

static rig_t *rig_new(te_t *te, unsigned n_te) {
    rig_t *r = calloc(1, sizeof *r);
    TS_ASSERT(r);
    bus_targets_t dev = {.n_te = n_te};
    for (unsigned i = 0; i < n_te; i++) dev.te[i] = &te[i];
    bus_hooks_t hooks = {.ctx = r, .guest_error = rg_error, .itc_store = rg_itc, .itc_lost = rg_lost};
    char err[128];
    TS_ASSERT_EQ_I(bus_init(&r->bus, 4096, 0, &dev, &hooks, err, sizeof err), 0);
    bus_reset(&r->bus);
    return r;
}
static void rig_free(rig_t *r) {
    bus_free(&r->bus);
    free(r);
}

/* a registered target gets its own context, the offset in its block, the hart and the pc */
TS_TEST(bus_target_callbacks_get_their_context_and_offset) {
    rig_t *r = rig_new(NULL, 0);
    fake_tgt_t uart = {.answer = BUS_A_OK}, sim = {.answer = BUS_A_ERR};
    bus_target_ops_t ou = {.ctx = &uart, .read = fk_rd, .write = fk_wr};
    bus_target_ops_t os = {.ctx = &sim, .read = fk_rd, .write = fk_wr};
    bus_set_target(&r->bus, BT_UART, &ou);
    bus_set_target(&r->bus, BT_SIMCTRL, &os);
    uint32_t v = 0x41;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 3, 0x80000010u, MAP_UART_BASE + 8, 1, true, &v), BUS_OK);
    TS_ASSERT_EQ_U(uart.writes, 1);
    TS_ASSERT_EQ_U(uart.off, 8);
    TS_ASSERT_EQ_U(uart.size, 1);
    TS_ASSERT_EQ_U(uart.hart, 3);
    TS_ASSERT_EQ_U(uart.pc, 0x80000010u);
    TS_ASSERT_EQ_U(uart.val, 0x41);
    TS_ASSERT_EQ_U(sim.writes + sim.reads, 0);
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_UART_BASE + 4, 4, false, &v), BUS_OK);
    TS_ASSERT_EQ_U(v, 0xA5A50004u);
    /* a target's "no" is a bus error */
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_SIMCTRL_BASE + 0x10, 4, false, &v), BUS_ERR);
    TS_ASSERT_EQ_U(sim.reads, 1);
    TS_ASSERT_EQ_U(sim.off, 0x10);
    /* no target registered at the CLINT: unmapped (a bus error), nothing called */
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_CLINT_BASE, 4, false, &v), BUS_ERR);
    TS_ASSERT_EQ_U(uart.reads + sim.reads, 2);
    rig_free(r);
}

/* the funnel page is mapped only when a funnel target is registered */
TS_TEST(bus_funnel_page_mapped_by_registration) {
    rig_t *r = rig_new(NULL, 0);
    TS_ASSERT_EQ_I(bus_target(&r->bus, MAP_FUNNEL_BASE, 4), BT_NONE);
    fake_tgt_t f = {.answer = BUS_A_OK};
    bus_target_ops_t o = {.ctx = &f, .read = fk_rd, .write = fk_wr};
    bus_set_target(&r->bus, BT_FUNNEL, &o);
    TS_ASSERT_EQ_I(bus_target(&r->bus, MAP_FUNNEL_BASE, 4), BT_FUNNEL);
    uint32_t v;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_FUNNEL_BASE + 0x20, 4, false, &v), BUS_OK);
    TS_ASSERT_EQ_U(f.off, 0x20);
    TS_ASSERT(r->bus.trace_touched); /* a trace page: the trace tick runs again */
    rig_free(r);
}

/* bus_tick: every registered tick once, in target order; true if any target changed */
TS_TEST(bus_tick_calls_registered_ticks) {
    rig_t *r = rig_new(NULL, 0);
    TS_ASSERT(!bus_tick(&r->bus)); /* none registered */
    fake_tgt_t a = {.answer = BUS_A_OK}, b = {.answer = BUS_A_OK};
    bus_target_ops_t oa = {.ctx = &a, .read = fk_rd, .write = fk_wr, .tick = fk_tick};
    bus_target_ops_t ob = {.ctx = &b, .read = fk_rd, .write = fk_wr, .tick = fk_tick};
    bus_set_target(&r->bus, BT_CLINT, &oa);
    bus_set_target(&r->bus, BT_UART, &ob);
    TS_ASSERT(!bus_tick(&r->bus));
    b.tick_changed = true;
    TS_ASSERT(bus_tick(&r->bus));
    TS_ASSERT_EQ_U(a.ticks, 2);
    TS_ASSERT_EQ_U(b.ticks, 2);
    bus_target_ops_t nb = {.ctx = &b, .read = fk_rd, .write = fk_wr}; /* replaced without a tick */
    bus_set_target(&r->bus, BT_UART, &nb);
    bus_tick(&r->bus);
    TS_ASSERT_EQ_U(a.ticks, 3);
    TS_ASSERT_EQ_U(b.ticks, 2);
    rig_free(r);
}

/* what became of an ITC store comes from the target's answer: a target that says "dropped"
 * without touching any encoder counter is a dropped store (and an itc_lost), "ignored" an
 * encoder that was off, "ok" traced; "wait" is held (no ground-truth row yet) */
TS_TEST(bus_itc_status_from_the_answer) {
    te_cfg_t c;
    te_default_cfg(&c);
    te_t te;
    TS_ASSERT_EQ_I(te_init(&te, &c), 0); /* only its sink state is looked at (stopped: no) */
    rig_t *r = rig_new(&te, 1);
    fake_tgt_t f = {.answer = BUS_A_DROPPED};
    bus_target_ops_t o = {.ctx = &f, .read = fk_rd, .write = fk_wr};
    bus_set_target(&r->bus, BT_TRACE0, &o);
    uint32_t v = 0x1234;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80 + 4 * 5, 4, true, &v), BUS_OK);
    TS_ASSERT_EQ_U(f.off, 0x80 + 4 * 5);
    TS_ASSERT_EQ_U(r->itc_calls, 1);
    TS_ASSERT_EQ_U(r->itc_stim, 5);
    TS_ASSERT_EQ_U(r->itc_value, 0x1234);
    TS_ASSERT_EQ_I(r->itc_status, BUS_ITC_DROPPED_FIFO);
    TS_ASSERT_EQ_U(r->lost_calls, 1);
    f.answer = BUS_A_IGNORED;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_OK);
    TS_ASSERT_EQ_I(r->itc_status, BUS_ITC_ENCODER_OFF);
    f.answer = BUS_A_OK;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_OK);
    TS_ASSERT_EQ_I(r->itc_status, BUS_ITC_TRACED);
    TS_ASSERT_EQ_U(r->itc_calls, 3);
    TS_ASSERT_EQ_U(r->lost_calls, 1);
    f.answer = BUS_A_WAIT;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_WAIT);
    TS_ASSERT_EQ_U(r->itc_calls, 3);
    f.answer = BUS_A_ERR;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_ERR);
    TS_ASSERT_EQ_U(r->itc_calls, 3);
    /* after the encoder's own sink stopped on wrap, a store it ignored is "after stop" */
    te.sink.stopped = true;
    f.answer = BUS_A_IGNORED;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_OK);
    TS_ASSERT_EQ_I(r->itc_status, BUS_ITC_AFTER_STOP);
    te_free(&te);
    rig_free(r);
}

/* the same with the real encoder behind the page (soc_target_te): its answers end as the
 * ground truth's statuses: off before tracing starts, traced, then dropped on a full FIFO */
TS_TEST(bus_itc_status_with_the_encoder) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.itc_depth = 2;
    te_t te;
    TS_ASSERT_EQ_I(te_init(&te, &c), 0);
    rig_t *r = rig_new(&te, 1);
    bus_target_ops_t o = soc_target_te(&te);
    bus_set_target(&r->bus, BT_TRACE0, &o);
    uint32_t v = 7;
    TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_OK);
    TS_ASSERT_EQ_I(r->itc_status, BUS_ITC_ENCODER_OFF); /* in reset */
    /* as tests/unit/test_trace.c starts it: teActive, then SRAM sink, teEnable, ITC mode 1
     * (0x4FF04083), every channel enabled, then teTracing (no tick: the FIFO fills) */
    const uint32_t setup[][2] = {{0x000, 1}, {0x000, 0x4FF04083u}, {0x060, 0xFFFFFFFFu}, {0x000, 0x4FF04087u}};
    for (int i = 0; i < 4; i++) {
        uint32_t w = setup[i][1];
        TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + setup[i][0], 4, true, &w), BUS_OK);
    }
    unsigned traced = 0, dropped = 0;
    for (int i = 0; i < 8; i++) {
        TS_ASSERT_EQ_I(bus_dev_access(&r->bus, 0, 0, MAP_TRACE_BASE + 0x80, 4, true, &v), BUS_OK);
        traced += r->itc_status == BUS_ITC_TRACED;
        dropped += r->itc_status == BUS_ITC_DROPPED_FIFO;
    }
    TS_ASSERT(traced >= 1);
    TS_ASSERT(dropped >= 1);
    TS_ASSERT_EQ_U(traced + dropped, 8);
    TS_ASSERT_EQ_U(te.itc_accepted, traced); /* the model's own counts agree */
    TS_ASSERT_EQ_U(te.lost, dropped);
    TS_ASSERT_EQ_U(r->lost_calls, dropped);
    te_free(&te);
    rig_free(r);
}

/* the RAM data path: a platform's hook sees every core data access to RAM (offset, size,
 * direction) instead of the bus; NULL again: the bus's own RAM */
typedef struct ram_hook {
    unsigned calls;
    uint32_t off, val;
    unsigned size;
    bool we;
} ram_hook_t;
static void rh(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, bool we, uint32_t *val) {
    ram_hook_t *h = ctx;
    (void)hart, (void)pc;
    h->calls++, h->off = off, h->size = size, h->we = we;
    if (we) h->val = *val;
    else
        *val = 0xCAFEF00Du;
}

TS_TEST(bus_ram_access_hook) {
    rig_t *r = rig_new(NULL, 0);
    uint32_t addr = MAP_RAM_BASE + 0x40, wdata = 0x11223344u, pc = 0, rdata = 0;
    uint8_t req = 1, we = 1, size = 2, rdy = 0, err = 0;
    uint64_t ctrl = 0;
    vcore_ports_t p = {.data_req = &req, .data_we = &we, .data_size = &size, .mem_ctrl = &ctrl, .data_addr = &addr, .data_wdata = &wdata, .data_pc = &pc, .data_rdy = &rdy, .data_err = &err, .data_rdata = &rdata};
    bus_port_t port;
    char e[64];
    cache_cfg_t none = {0};
    TS_ASSERT_EQ_I(bus_port_init(&port, &p, 0, &none, &none, e, sizeof e), 0);
    ram_hook_t h = {0};
    bus_set_ram_access(&r->bus, rh, &h);
    bus_service_data(&r->bus, &port);
    TS_ASSERT_EQ_U(rdy, 1);
    TS_ASSERT_EQ_U(h.calls, 1);
    TS_ASSERT(h.we);
    TS_ASSERT_EQ_U(h.off, 0x40);
    TS_ASSERT_EQ_U(h.size, 4);
    TS_ASSERT_EQ_U(h.val, 0x11223344u);
    TS_ASSERT_EQ_U(r->bus.ram[0x40], 0); /* the bus's own RAM untouched */
    we = 0;
    bus_service_data(&r->bus, &port);
    TS_ASSERT_EQ_U(h.calls, 2);
    TS_ASSERT_EQ_U(rdata, 0xCAFEF00Du);
    bus_set_ram_access(&r->bus, NULL, NULL);
    we = 1;
    bus_service_data(&r->bus, &port);
    TS_ASSERT_EQ_U(h.calls, 2);
    TS_ASSERT_EQ_U(r->bus.ram[0x40], 0x44);
    bus_port_free(&port);
    rig_free(r);
}

/* simctrl's hooks for the run hooks (soc_run_hooks_t): a MARK and a FILE_CMD are told to the
 * host after the model did them, with the hart, the value, the name and FILE_STATUS */
typedef struct sc_host {
    uint8_t ram[64];
    unsigned marks, ios, exits;
    unsigned mark_hart, io_hart;
    uint32_t mark_value, io_cmd, io_len, io_status;
    char io_name[64];
    bool io_named;
} sc_host_t;
static uint64_t sh_cycle(void *ctx) {
    (void)ctx;
    return 1000;
}
static uint64_t sh_instret(void *ctx, unsigned hart) {
    (void)ctx, (void)hart;
    return 10;
}
static uint8_t *sh_ram(void *ctx, uint32_t addr, uint32_t len) {
    sc_host_t *h = ctx;
    return addr <= sizeof h->ram && len <= sizeof h->ram - addr ? h->ram + addr : NULL;
}
static void sh_exit(void *ctx, int code) {
    (void)code;
    ((sc_host_t *)ctx)->exits++;
}
static void sh_waves(void *ctx, bool on) { (void)ctx, (void)on; }
static void sh_mark(void *ctx, unsigned hart, uint32_t value) {
    sc_host_t *h = ctx;
    h->marks++, h->mark_hart = hart, h->mark_value = value;
}
static void sh_io(void *ctx, unsigned hart, uint32_t cmd, const char *name, uint32_t len, uint32_t status) {
    sc_host_t *h = ctx;
    h->ios++, h->io_hart = hart, h->io_cmd = cmd, h->io_len = len, h->io_status = status;
    h->io_named = name != NULL;
    snprintf(h->io_name, sizeof h->io_name, "%s", name ? name : "");
}

TS_TEST(simctrl_tells_marks_and_host_io) {
    sc_host_t h = {0};
    memcpy(h.ram, "out.txt\0hello", 14);
    char dir[] = "/tmp/ts_seam_XXXXXX";
    TS_ASSERT(mkdtemp(dir));
    FILE *marks = tmpfile();
    TS_ASSERT(marks);
    simctrl_t m;
    simctrl_host_t host = {.ctx = &h, .cycle = sh_cycle, .instret = sh_instret, .ram = sh_ram, .exit = sh_exit, .waves = sh_waves, .harts = 2, .mark = sh_mark, .host_io = sh_io};
    simctrl_init(&m, &host, dir, marks);
    simctrl_reset(&m);
    TS_ASSERT(simctrl_write(&m, 1, 0x04, 4, 77)); /* MARK 77 by hart 1 */
    TS_ASSERT_EQ_U(h.marks, 1);
    TS_ASSERT_EQ_U(h.mark_hart, 1);
    TS_ASSERT_EQ_U(h.mark_value, 77);
    TS_ASSERT(simctrl_write(&m, 0, 0x20, 4, 0)); /* FILE_NAME "out.txt" */
    TS_ASSERT(simctrl_write(&m, 0, 0x24, 4, 8)); /* FILE_ADDR: "hello" */
    TS_ASSERT(simctrl_write(&m, 0, 0x28, 4, 5));
    TS_ASSERT(simctrl_write(&m, 0, 0x2C, 4, 1)); /* create and write */
    TS_ASSERT_EQ_U(h.ios, 1);
    TS_ASSERT(h.io_named);
    TS_ASSERT_STR_EQ(h.io_name, "out.txt");
    TS_ASSERT_EQ_U(h.io_cmd, 1);
    TS_ASSERT_EQ_U(h.io_len, 5);
    TS_ASSERT_EQ_U(h.io_status, 0);
    TS_ASSERT(simctrl_write(&m, 0, 0x20, 4, 60)); /* an empty name */
    TS_ASSERT(simctrl_write(&m, 0, 0x2C, 4, 2));
    TS_ASSERT_EQ_U(h.ios, 2);
    TS_ASSERT(!h.io_named);
    TS_ASSERT_EQ_U(h.io_status, 1); /* FILE_STATUS 1: bad name */
    uint32_t v;
    TS_ASSERT(simctrl_read(&m, 0, 0x30, 4, &v));
    TS_ASSERT_EQ_U(v, h.io_status);
    TS_ASSERT(simctrl_write(&m, 0, 0x00, 4, 3)); /* EXIT: the host's exit as before */
    TS_ASSERT_EQ_U(h.exits, 1);
    simctrl_free(&m);
    fclose(marks);
    char path[64];
    snprintf(path, sizeof path, "%s/host/out.txt", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/host", dir);
    rmdir(path);
    rmdir(dir);
}

TS_TEST_MAIN()
