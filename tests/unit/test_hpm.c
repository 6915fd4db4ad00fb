/* test_hpm.c - HPM model: reset values, WARL probing, widths and wrap, write truncation,
 * mcountinhibit, event selection by class/mask, write-suppresses-tick rule. Expected values
 * are computed by hand from the counter widths and the event table. */
#include "hpm.h"
#include "ts_test.h"

#define EV(idx) (1u << (idx))
enum { EV_CYC = 0,
       EV_RET = 1,
       EV_LOAD = 3,
       EV_STORE = 4,
       EV_BR_MISS = 18 };

static hpm_t make(unsigned n_hpm, unsigned width) {
    hpm_cfg_t c;
    hpm_default_cfg(&c);
    c.n_hpm = n_hpm;
    c.width_hpm = width;
    hpm_t h;
    if (hpm_init(&h, &c)) TS_FAIL("hpm_init failed");
    return h;
}
static uint32_t rd(hpm_t *h, unsigned csr) {
    uint32_t v = 0xdeadbeef;
    if (!hpm_csr_read(h, csr, &v)) TS_FAIL("csr 0x%x not handled", csr);
    return v;
}

TS_TEST(reset_values) {
    hpm_t h = make(29, 40);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB80), 0);
    TS_ASSERT_EQ_U(rd(&h, 0x320), 0);
    TS_ASSERT_EQ_U(rd(&h, 0x323), 0);
    TS_ASSERT(!hpm_csr_read(&h, 0x300, &(uint32_t){0})); /* mstatus is not a counter CSR */
}

TS_TEST(cycle_and_instret_count) {
    hpm_t h = make(29, 40);
    for (int i = 0; i < 10; i++) hpm_tick(&h, EV(EV_CYC) | (i & 1 ? EV(EV_RET) : 0));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 10);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 5);
    TS_ASSERT_EQ_U(rd(&h, 0xC00), 10); /* user alias */
    TS_ASSERT_EQ_U(rd(&h, 0xC02), 5);
}

TS_TEST(probe_implemented_counters) {
    hpm_t h = make(4, 40);                /* counters 3..6 exist */
    hpm_csr_write(&h, 0x306, 0xFFFFFFFF); /* mcounteren: WARL mask of implemented */
    TS_ASSERT_EQ_U(rd(&h, 0x306), 0x7F);
    hpm_csr_write(&h, 0xB07, 0xFFFFFFFF); /* mhpmcounter7 does not exist: reads 0 */
    TS_ASSERT_EQ_U(rd(&h, 0xB07), 0);
    hpm_csr_write(&h, 0x327, 0x1234); /* nor does mhpmevent7 */
    TS_ASSERT_EQ_U(rd(&h, 0x327), 0);
    hpm_csr_write(&h, 0x320, 0xFFFFFFFF); /* mcountinhibit: bit 1 (time) is read-only 0 */
    TS_ASSERT_EQ_U(rd(&h, 0x320), 0x7D);
}

TS_TEST(width_probe_by_all_ones) {
    hpm_t h = make(29, 40);
    hpm_csr_write(&h, 0xB03, 0xFFFFFFFF);
    hpm_csr_write(&h, 0xB83, 0xFFFFFFFF);
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 0xFFFFFFFF);
    TS_ASSERT_EQ_U(rd(&h, 0xB83), 0xFF); /* 40 bits: 8 high bits */
    TS_ASSERT_EQ_U(hpm_width(&h, 3), 40);
    TS_ASSERT_EQ_U(hpm_width(&h, 0), 64);
}

TS_TEST(narrow_counter_wraps) {
    hpm_t h = make(29, 12);          /* 12-bit counters wrap at 4096 */
    hpm_csr_write(&h, 0x323, 0x200); /* class 0, bit 9: loads */
    hpm_csr_write(&h, 0xB03, 4090);
    hpm_tick(&h, EV(EV_LOAD)); /* the write's own cycle does not count */
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 4090);
    for (int i = 0; i < 10; i++) hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(rd(&h, 0xB03), (4090 + 10) % 4096);
    hpm_csr_write(&h, 0xB03, 0x12345); /* a write is truncated to the width */
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 0x345);
}

TS_TEST(event_mask_or_within_class) {
    hpm_t h = make(29, 40);
    hpm_csr_write(&h, 0x324, 0x600);  /* class 0, bits 9|10: loads or stores */
    hpm_csr_write(&h, 0x325, 0x2001); /* class 1, bit 13: branch mispredicts */
    TS_ASSERT_EQ_U(hpm_event_select(0x600), EV(EV_LOAD) | EV(EV_STORE));
    hpm_tick(&h, EV(EV_LOAD));
    hpm_tick(&h, EV(EV_STORE));
    hpm_tick(&h, EV(EV_LOAD) | EV(EV_STORE)); /* one increment per cycle */
    hpm_tick(&h, EV(EV_BR_MISS));
    TS_ASSERT_EQ_U(rd(&h, 0xB04), 3);
    TS_ASSERT_EQ_U(rd(&h, 0xB05), 1);
    hpm_csr_write(&h, 0x326, 0x0201); /* class 1 bit 9 is not class 0 bit 9 */
    hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(rd(&h, 0xB06), 0);
}

TS_TEST(inhibit_stops_counting) {
    hpm_t h = make(29, 40);
    hpm_csr_write(&h, 0x320, 0x1); /* stop mcycle */
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 1);
    hpm_csr_write(&h, 0x320, 0);
    hpm_tick(&h, EV(EV_CYC));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 1);
}

/* minstret (counted outside the loop of the programmable counters): inhibited, suppressed in
 * the cycle it is written, wrapping at its width without an OF bit or overflow request */
TS_TEST(minstret_inhibit_write_wrap) {
    hpm_cfg_t c;
    hpm_default_cfg(&c);
    c.width_instret = 3;
    hpm_t h;
    if (hpm_init(&h, &c)) TS_FAIL("hpm_init failed");
    hpm_csr_write(&h, 0x320, 0x4); /* stop minstret */
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET));
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 1);
    hpm_csr_write(&h, 0x320, 0);
    hpm_csr_write(&h, 0xB02, 6);
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET)); /* suppressed: written this cycle */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 6);
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET));
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 7);
    hpm_tick(&h, EV(EV_CYC)); /* no retirement */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 7);
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET)); /* 3 bits: 7 + 1 wraps to 0 */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 0);
    TS_ASSERT_EQ_U(h.lcof, 0);
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 5);
}

TS_TEST(rv32_halves_across_carry) {
    hpm_t h = make(29, 40);
    hpm_csr_write(&h, 0xB00, 0xFFFFFFFE);
    hpm_tick(&h, EV(EV_CYC)); /* suppressed: written this cycle */
    hpm_tick(&h, EV(EV_CYC));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 0xFFFFFFFF);
    TS_ASSERT_EQ_U(rd(&h, 0xB80), 0);
    hpm_tick(&h, EV(EV_CYC));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB80), 1);
    TS_ASSERT_EQ_U(hpm_counter(&h, 0), 0x100000000ull);
}

TS_TEST(time_is_mtime) {
    hpm_t h = make(29, 40);
    hpm_set_time(&h, 0x123456789ull);
    TS_ASSERT_EQ_U(rd(&h, 0xC01), 0x23456789);
    TS_ASSERT_EQ_U(rd(&h, 0xC81), 0x1);
    hpm_csr_write(&h, 0xC01, 0); /* read-only alias: write ignored */
    TS_ASSERT_EQ_U(rd(&h, 0xC01), 0x23456789);
}

TS_TEST(bad_config_rejected) {
    hpm_cfg_t c;
    hpm_t h;
    hpm_default_cfg(&c);
    c.n_hpm = 30;
    TS_ASSERT_EQ_I(hpm_init(&h, &c), -1);
    hpm_default_cfg(&c);
    c.width_hpm = 0;
    TS_ASSERT_EQ_I(hpm_init(&h, &c), -1);
}

/* every raw value in the OpenSBI table selects exactly the events its comment names */
static uint64_t ev_bit(const char *csv) {
    for (unsigned i = 0; i < hpm_n_events; i++)
        if (!strcmp(hpm_events[i].csv, csv)) return 1ull << hpm_events[i].index;
    TS_FAIL("no event %s", csv);
}
TS_TEST(sbi_table_selects_named_events) {
    struct {
        uint32_t raw;
        const char *ev[3];
    } t[] = {
        {0x600, {"load", "store"}},
        {0x402, {"dcache_miss"}},
        {0x1C000, {"cond_branch", "jal", "jalr"}},
        {0x6001, {"br_mispredict", "jmp_mispredict"}},
        {0x801, {"i_busy"}},
        {0x1301, {"load_use", "long_latency", "d_busy"}},
        {0x200, {"load"}},
        {0x400, {"store"}},
        {0x1003, {"icache_access"}},
        {0x102, {"icache_miss"}},
        {0x4000, {"cond_branch"}},
        {0x2001, {"br_mispredict"}},
    };
    unsigned checked = 0;
#define TS_SBI_GENERAL(code, name, counter, ev)                                                 \
    if (ev) {                                                                                   \
        for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)                                   \
            if (t[i].raw == (ev)) goto found_g##code;                                           \
        TS_FAIL("SBI general %s: raw 0x%x not in the expectation list", #name, (unsigned)(ev)); \
        found_g##code : checked++;                                                              \
    }
#include "sbi_events.def"
    TS_ASSERT_EQ_U(checked, 6);
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint64_t want = 0;
        for (int k = 0; k < 3 && t[i].ev[k]; k++) want |= ev_bit(t[i].ev[k]);
        TS_ASSERT_EQ_U(hpm_event_select(t[i].raw), want);
    }
}

/* ---- Sscofpmf (RV32: mhpmeventNh) ------------------------------------------------------ */
enum { OF = 1u << 31,
       MINH = 1u << 30,
       SINH = 1u << 29,
       UINH = 1u << 28 };

TS_TEST(sscof_eventh_bits) {
    hpm_t h = make(4, 40);                /* counters 3..6 */
    hpm_csr_write(&h, 0x723, 0xFFFFFFFF); /* VSINH, VUINH, event bits 25:0: read 0 */
    TS_ASSERT_EQ_U(rd(&h, 0x723), OF | MINH | SINH | UINH);
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 1u << 3);
    TS_ASSERT_EQ_U(rd(&h, 0x323), 0);     /* the low half is separate */
    hpm_csr_write(&h, 0x727, 0xFFFFFFFF); /* counter 7 does not exist */
    TS_ASSERT_EQ_U(rd(&h, 0x727), 0);
    hpm_csr_write(&h, 0xDA0, 0xFFFFFFFF); /* scountovf is read-only */
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 1u << 3);
    hpm_csr_write(&h, 0x723, MINH); /* software clears OF */
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 0);
    hpm_reset(&h);
    TS_ASSERT_EQ_U(rd(&h, 0x723), 0);
}

/* a mode change reported during cycle c takes effect from cycle c + 1 on */
TS_TEST(sscof_inhibit_per_mode) {
    hpm_t h = make(29, 40);
    hpm_csr_write(&h, 0x323, 0x200); /* loads */
    hpm_csr_write(&h, 0x324, 0x200);
    hpm_csr_write(&h, 0x325, 0x200);
    hpm_csr_write(&h, 0x723, SINH | UINH); /* 3: M only */
    hpm_csr_write(&h, 0x724, MINH | UINH); /* 4: S only */
    hpm_csr_write(&h, 0x725, MINH | SINH); /* 5: U only */
    uint32_t ev = EV(EV_CYC) | EV(EV_RET) | EV(EV_LOAD);
    hpm_tick(&h, ev); /* M (reset) */
    hpm_set_priv(&h, 1);
    hpm_tick(&h, ev); /* still M: the change is for the next cycle */
    hpm_tick(&h, ev); /* S */
    hpm_tick(&h, ev); /* S */
    hpm_set_priv(&h, 0);
    hpm_tick(&h, ev);                             /* S */
    for (int i = 0; i < 3; i++) hpm_tick(&h, ev); /* U x3 */
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 2);
    TS_ASSERT_EQ_U(rd(&h, 0xB04), 3);
    TS_ASSERT_EQ_U(rd(&h, 0xB05), 3);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 8); /* mcycle/minstret have no inhibit bits */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 8);
}

TS_TEST(sscof_overflow_once) {
    hpm_t h = make(29, 12);
    hpm_csr_write(&h, 0x323, 0x200);
    hpm_csr_write(&h, 0xB03, 4094);
    hpm_tick(&h, EV(EV_LOAD)); /* the write's own tick does not count */
    hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(h.lcof, 0);
    hpm_tick(&h, EV(EV_LOAD)); /* 4095 -> 0: overflow */
    TS_ASSERT_EQ_U(h.lcof, 1);
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 0);
    TS_ASSERT_EQ_U(rd(&h, 0x723), OF);
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 1u << 3);
    hpm_tick(&h, 0); /* the request lasts one tick */
    TS_ASSERT_EQ_U(h.lcof, 0);
    hpm_csr_write(&h, 0xB03, 4095); /* OF still set: no second request */
    hpm_tick(&h, 0);                /* (the write's own tick does not count) */
    hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 0);
    TS_ASSERT_EQ_U(h.lcof, 0);
    TS_ASSERT_EQ_U(rd(&h, 0xDA0), 1u << 3);
    hpm_csr_write(&h, 0x723, 0); /* OF cleared: requests again */
    hpm_csr_write(&h, 0xB03, 4095);
    hpm_tick(&h, 0);
    hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(h.lcof, 1);
    /* an inhibited mode does not count, so it does not overflow either */
    hpm_csr_write(&h, 0x723, MINH);
    hpm_csr_write(&h, 0xB03, 4095);
    hpm_tick(&h, 0);
    hpm_tick(&h, EV(EV_LOAD));
    TS_ASSERT_EQ_U(h.lcof, 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 4095);
    /* mcycle wrapping sets no OF bit and raises nothing */
    hpm_cfg_t c;
    hpm_default_cfg(&c);
    c.width_cycle = 4;
    hpm_t g;
    hpm_init(&g, &c);
    for (int i = 0; i < 16; i++) hpm_tick(&g, EV(EV_CYC));
    TS_ASSERT_EQ_U(rd(&g, 0xB00), 0);
    TS_ASSERT_EQ_U(g.lcof, 0);
    TS_ASSERT_EQ_U(rd(&g, 0xDA0), 0);
}

/* a cycle the hart was held (teStallEnable, sim/soc.c): mcycle counts, minstret and a counter
 * of loads do not, a counter of the event passed (the SoC's ITC stall) does, and a pending
 * overflow request stays up until the hart runs again */
TS_TEST(held_cycle_counts_mcycle_only) {
    hpm_t h = make(29, 12);
    hpm_csr_write(&h, 0x323, 0x200); /* mhpmcounter3: loads */
    hpm_csr_write(&h, 0x324, 0x400); /* mhpmcounter4: stores */
    hpm_tick(&h, 0);                 /* the writes' own tick */
    hpm_tick(&h, EV(EV_CYC) | EV(EV_RET) | EV(EV_LOAD));
    hpm_tick_held(&h, 0);
    hpm_tick_held(&h, EV(EV_STORE));
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 3); /* one tick with the cycle event + 2 held cycles */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 1); /* minstret: the one retirement */
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 1);
    TS_ASSERT_EQ_U(rd(&h, 0xB04), 1);
    hpm_csr_write(&h, 0xB03, 4095);
    hpm_tick(&h, 0);
    hpm_tick(&h, EV(EV_LOAD)); /* 4095 -> 0: the request */
    TS_ASSERT_EQ_U(h.lcof, 1);
    hpm_tick_held(&h, 0);
    TS_ASSERT_EQ_U(h.lcof, 1); /* kept for the held hart */
    hpm_tick(&h, 0);
    TS_ASSERT_EQ_U(h.lcof, 0); /* it ran: one cycle, as without holding */
}

/* Once only mcycle and minstret can count, the model takes a quiet path (h.quiet) that
 * updates those two alone; every change must take it off that path in time: a counter write,
 * an event selection, mcountinhibit, a mode change with xINH bits, an overflow request kept
 * by a held cycle. Expected counts by hand, as in the tests above. */
TS_TEST(quiet_ticks_follow_every_change) {
    hpm_t h = make(29, 12);
    uint32_t cr = EV(EV_CYC) | EV(EV_RET);
    for (int i = 0; i < 3; i++) hpm_tick(&h, cr);
    TS_ASSERT(h.quiet);       /* the path the rest of this test leaves */
    hpm_tick(&h, EV(EV_CYC)); /* no retirement */
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 4);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 3);
    hpm_csr_write(&h, 0xB00, 100); /* the write's own tick does not count */
    hpm_tick(&h, cr);
    hpm_tick(&h, cr);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 101);
    TS_ASSERT(h.quiet);
    hpm_csr_write(&h, 0x320, 0x4); /* mcountinhibit: minstret stops */
    hpm_tick(&h, cr);
    hpm_tick(&h, cr);
    TS_ASSERT(h.quiet);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 5); /* 3 + the 2 ticks after the mcycle write */
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 103);
    hpm_csr_write(&h, 0x320, 0x1); /* now mcycle stops, minstret runs */
    hpm_tick(&h, cr);
    hpm_tick(&h, cr);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 103);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 7);
    hpm_csr_write(&h, 0x320, 0);
    hpm_csr_write(&h, 0x323, 0x200); /* mhpmcounter3: loads, from this tick on */
    hpm_tick(&h, cr | EV(EV_LOAD));
    TS_ASSERT(!h.quiet); /* a programmable counter may count */
    hpm_tick(&h, cr | EV(EV_LOAD));
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 2);
    hpm_csr_write(&h, 0x723, UINH); /* not in U */
    hpm_tick(&h, cr | EV(EV_LOAD)); /* M: counts */
    hpm_set_priv(&h, 0);
    hpm_tick(&h, cr | EV(EV_LOAD)); /* still M: counts */
    hpm_tick(&h, cr | EV(EV_LOAD)); /* U */
    TS_ASSERT(h.quiet);             /* in U, counter 3 cannot count */
    hpm_tick(&h, cr | EV(EV_LOAD));
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 4);
    hpm_set_priv(&h, 3);
    hpm_tick(&h, cr | EV(EV_LOAD)); /* still U */
    hpm_tick(&h, cr | EV(EV_LOAD)); /* M: counts */
    TS_ASSERT_EQ_U(rd(&h, 0xB03), 5);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 103 + 8); /* the 8 ticks since mcountinhibit 0 */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 7 + 8);
    /* an overflow request kept up by a held cycle must be dropped after the next tick */
    hpm_csr_write(&h, 0x723, MINH);  /* counter 3 stops in M */
    hpm_csr_write(&h, 0x324, 0x200); /* counter 4: loads, 4095 -> 0 next */
    hpm_csr_write(&h, 0xB04, 4095);
    hpm_tick(&h, 0);           /* the write's own tick (no cycle event) */
    hpm_tick(&h, EV(EV_LOAD)); /* (no cycle event either) */
    TS_ASSERT_EQ_U(h.lcof, 1);
    hpm_csr_write(&h, 0x324, 0); /* nothing left to count but mcycle, minstret */
    hpm_tick_held(&h, 0);
    TS_ASSERT_EQ_U(h.lcof, 1); /* kept for the held hart */
    hpm_tick(&h, cr);
    TS_ASSERT_EQ_U(h.lcof, 0);
    TS_ASSERT(h.quiet);
    hpm_tick(&h, cr);
    TS_ASSERT_EQ_U(h.lcof, 0);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 111 + 1 + 2); /* the held cycle counts */
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 15 + 2);
}

/* mcycle or minstret narrower than 64 bits wraps, so those ticks never take the quiet path */
TS_TEST(quiet_needs_full_width_counters) {
    hpm_cfg_t c;
    hpm_default_cfg(&c);
    c.width_cycle = 3;
    hpm_t h;
    if (hpm_init(&h, &c)) TS_FAIL("hpm_init failed");
    for (int i = 0; i < 10; i++) hpm_tick(&h, EV(EV_CYC) | EV(EV_RET));
    TS_ASSERT(!h.quiet);
    TS_ASSERT_EQ_U(rd(&h, 0xB00), 10 % 8);
    TS_ASSERT_EQ_U(rd(&h, 0xB02), 10);
}

TS_TEST_MAIN()
