/* test_trace.c - trace encoder, sink and funnel models at register level. Expected bytes are
 * the worked examples of trace-hw-facts.md 4.8 (checked there against SiFive's decoder) and
 * values computed by hand from the Nexus field rules. */
#include "funnel.h"
#include "te.h"
#include "ts_test.h"
#include "te_test_regs.h"

enum { CTRL = 0x000,
       IMPL = 0x004,
       WP = 0x01C,
       RP = 0x020,
       DATA = 0x024,
       BASE = 0x010,
       LIMIT = 0x018,
       TSC = 0x040,
       TSL = 0x044,
       ITCEN = 0x060,
       STMC = 0x070,
       STML = 0x074,
       STIM = 0x080 };
/* teControl as the perf library writes it: SRAM sink, stop-on-wrap, ITC mode 1, active+enable */
#define CTRL_SRAM 0x4FF04083u

static te_t make_te(unsigned sram, unsigned src_bits, unsigned depth) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.sram_size = sram;
    c.src_bits = src_bits;
    c.hart = src_bits ? 1 : 0;
    c.itc_depth = depth;
    te_t t;
    if (te_init(&t, &c)) TS_FAIL("te_init failed");
    return t;
}
static void ticks(te_t *t, unsigned n) {
    while (n--) te_tick(t);
}
/* starts ITC tracing with a frozen timestamp (tsCount = 0) at `time` */
static void start(te_t *t, uint32_t ctrl, uint64_t time) {
    wr(t, CTRL, 1);
    wr(t, CTRL, ctrl);
    wr(t, TSC, 0x000C8001u); /* active, tsEnable, tsInstrumentation, tsOwnership */
    wr(t, TSL, (uint32_t)time);
    wr(t, ITCEN, 0xFFFFFFFFu);
    wr(t, CTRL, ctrl | 4); /* teTracing */
}

TS_TEST(reset_values_and_warl) {
    te_t t = make_te(16384, 0, 8);
    TS_ASSERT_EQ_U(rd(&t, CTRL), 0x01000008u); /* in reset: slice format 1, empty */
    TS_ASSERT_EQ_U(rd(&t, IMPL), 0x00000090u); /* SRAM + SBA, 32-bit sink, hart 0 */
    wr(&t, ITCEN, 0xFF);                       /* ignored while in reset */
    TS_ASSERT_EQ_U(rd(&t, ITCEN), 0);
    wr(&t, CTRL, 1);
    wr(&t, CTRL, 0x50000071u);                 /* ATB sink: not implemented; teInstruction 7 */
    TS_ASSERT_EQ_U(rd(&t, CTRL), 0x01000079u); /* sink 0, instruction 7 (HTM, te_prog.c) */
    wr(&t, WP, 0xFFFFFFFCu);                   /* SRAM size probe */
    TS_ASSERT_EQ_U(rd(&t, WP) + 4, 16384);
    wr(&t, CTRL, 0x70000001u); /* SBA */
    wr(&t, BASE, 0x80001003u); /* trimmed to the 4-byte sink width */
    TS_ASSERT_EQ_U(rd(&t, BASE), 0x80001000u);
    wr(&t, LIMIT, 0x80001FFEu); /* base + size - 2, as the perf library does */
    TS_ASSERT_EQ_U(rd(&t, LIMIT), 0x80001FFCu);
    TS_ASSERT_EQ_U(rd(&t, TSC) >> 24, 40);     /* tsWidth */
    TS_ASSERT_EQ_U((rd(&t, TSC) >> 4) & 7, 3); /* internal core clock */
    TS_ASSERT_EQ_U(rd(&t, STIM + 4 * 6), 1);   /* disabled: reads "ready" */
    uint32_t v;
    TS_ASSERT_EQ_I(te_read(&t, CTRL, 2, &v), TE_ERR); /* registers are word-only */
    te_free(&t);
}

TS_TEST(worked_examples_byte_exact) {
    te_t t = make_te(16384, 0, 8);
    start(&t, CTRL_SRAM, 0x1000);
    ticks(&t, 4);
    wr(&t, TSL, 0x1025);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 6, 4, 0x12345678u), TE_OK);
    ticks(&t, 4);
    wr(&t, TSL, 0x1030);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 6 + 2, 2, 0xBEEFu), TE_OK);
    ticks(&t, 4);
    wr(&t, TSL, 0x1031);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 6 + 3, 1, 0x02u), TE_OK);
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 1000);
    static const uint8_t want[] = {
        0x8c, 0x00, 0x01, 0x00, 0x00, 0x07,             /* ICT-WS Control(0,0) @0x1000 */
        0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, /* DQM 0x18 0x12345678, TS 0x25 */
        0x1c, 0x69, 0xbc, 0xec, 0x2d, 0x57,             /* DQM 0x1A 0xBEEF, TS 0x15 */
        0x1c, 0x6d, 0x09, 0x07,                         /* DQM 0x1B 0x02, TS 0x01 */
        0x88, 0x00, 0x0d, 0x03};                        /* ICT Control(3) trace off, TS ^ 0 */
    /* 28 bytes: a whole number of 4-byte sink words, so the flush adds no padding */
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

TS_TEST(src_field_and_no_timestamp) {
    te_t t = make_te(16384, 2, 8); /* 2 SRC bits, srcID 1 */
    start(&t, CTRL_SRAM, 0x1000);
    ticks(&t, 4);
    wr(&t, TSL, 0x1025);
    te_write(&t, STIM + 4 * 6, 4, 0x12345678u);
    ticks(&t, 4);
    wr(&t, TSC, 0x00008001u);                 /* tsInstrumentation off */
    te_write(&t, STIM + 4 * 0 + 3, 1, 0x0Au); /* IDTAG 3, no timestamp */
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 1000);
    /* ICT-WS: TCODE 35 | SRC 01 + CKSRC 0000 -> 0x04 | CKDF 00 + CKDATA0 0 -> 0x01 | TS */
    static const uint8_t sync[] = {0x8c, 0x04, 0x01, 0x00, 0x00, 0x07};
    TS_ASSERT_MEM_EQ(got, sync, 6);
    static const uint8_t dqm[] = {0x1c, 0x84, 0x05, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97};
    TS_ASSERT_MEM_EQ(got + 6, dqm, 9);
    /* no timestamp: SRC 01 + IDTAG 0011 -> MDO 001101, MSEO 01 = 0x35; DATA 0x0A, MSEO 11 */
    static const uint8_t plain[] = {0x1c, 0x35, 0x2b};
    TS_ASSERT_MEM_EQ(got + 15, plain, 3);
    /* trace off: TCODE 34 | SRC 01 + CKSRC 0 -> 0x04 | CKDF 00 + CKDATA0 3 -> MDO 001100,
     * MSEO 01 = 0x31 | TS 0x1025 ^ 0x1025 = 0 -> 0x03; then 2 padding bytes */
    static const uint8_t stop[] = {0x88, 0x04, 0x31, 0x03, 0xff, 0xff};
    TS_ASSERT_MEM_EQ(got + 18, stop, 6);
    TS_ASSERT_EQ_U(n, 24);
    te_free(&t);
}

TS_TEST(idtag_folding_and_sizes) {
    te_t t = make_te(16384, 0, 8);
    start(&t, CTRL_SRAM, 0);
    wr(&t, TSC, 0x00008001u); /* no ITC timestamps: short messages */
    ticks(&t, 2);
    te_write(&t, STIM + 4 * 22, 4, 1); /* stimulus 22 -> IDTAG (22 & 15) << 2 = 0x18 */
    ticks(&t, 2);
    te_write(&t, STIM + 4 * 31 + 2, 2, 0x12345); /* half: value masked to 16 bits */
    uint8_t got[64];
    drain_sram(&t, got, sizeof got, 1000);
    /* sync at time 0: 8c 00 01 03 (TS 0 is one byte); then 1c | IDTAG 0x18 -> 0x61 |
     * DATA 1 -> 0x07 */
    static const uint8_t s0[] = {0x8c, 0x00, 0x01, 0x03};
    TS_ASSERT_MEM_EQ(got, s0, 4);
    static const uint8_t w1[] = {0x1c, 0x61, 0x07};
    TS_ASSERT_MEM_EQ(got + 4, w1, 3);
    /* IDTAG 0x3E (15 << 2 | 2): 0x3E << 2 | 1 = 0xF9; DATA 0x2345: 6-bit groups 5, 13, 2 */
    static const uint8_t w2[] = {0x1c, 0xf9, 0x14, 0x34, 0x0b};
    TS_ASSERT_MEM_EQ(got + 7, w2, 5);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 1, 4, 0), TE_ERR); /* misaligned word */
    te_free(&t);
}

TS_TEST(ownership_modes) {
    te_t t = make_te(16384, 0, 8);
    start(&t, 0x4FF04103u, 0); /* teInstrumentation 2: 15/31 only */
    wr(&t, TSC, 0x00008001u);
    ticks(&t, 2);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 5, 4, 7), TE_IGNORED); /* not traced in mode 2 */
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 15, 4, 0x2C), TE_OK);  /* Ownership, PROCESS 0x2C */
    uint8_t got[64];
    drain_sram(&t, got, sizeof got, 1000);
    /* TCODE 2; 0x2C << 2 | 3 (no timestamp); trace off with TS 0 ^ 0; padding */
    static const uint8_t w[] = {0x08, 0xb3, 0x88, 0x00, 0x0d, 0x03, 0xff, 0xff};
    TS_ASSERT_MEM_EQ(got + 4, w, 8);
    te_free(&t);
}

/* what became of a stimulus store is te_write's answer (te.h enum te_access): ignored in
 * reset, with teEnable or teTracing clear, on a channel outside itcTraceEnable and in
 * teInstrumentation 0; taken (TE_OK) with the FIFO's room; then dropped without
 * teStallEnable, held with it; the counters agree with the answers */
TS_TEST(stimulus_store_answers) {
    te_t t = make_te(16384, 0, 2);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_IGNORED); /* in reset */
    wr(&t, CTRL, 1);
    wr(&t, CTRL, CTRL_SRAM & ~(3u << 7)); /* teInstrumentation 0 */
    wr(&t, ITCEN, 0xFFFFFFFFu);
    wr(&t, CTRL, (CTRL_SRAM & ~(3u << 7)) | 4);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_IGNORED); /* ITC off */
    wr(&t, CTRL, CTRL_SRAM);                              /* teTracing 0 */
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_IGNORED);
    wr(&t, ITCEN, 0xFFFFFFFEu);
    wr(&t, CTRL, CTRL_SRAM | 4); /* tracing; channel 0 off */
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_IGNORED);
    TS_ASSERT_EQ_U(t.itc_accepted, 0);
    ticks(&t, 100); /* the start/stop messages out */
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4, 4, 1), TE_OK);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4, 4, 1), TE_OK); /* depth 2: full */
    TS_ASSERT_EQ_U(t.itc_accepted, 2);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4, 4, 2), TE_DROPPED);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 + 2, 2, 3), TE_DROPPED); /* any size */
    TS_ASSERT_EQ_U(t.lost, 2);
    TS_ASSERT_EQ_I(te_write(&t, STIM + 5, 4, 0), TE_ERR); /* misaligned: an error first */
    wr(&t, CTRL, CTRL_SRAM | 4 | (1u << 13));             /* teStallEnable */
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4, 4, 4), TE_WAIT);
    TS_ASSERT_EQ_U(t.lost, 2);
    TS_ASSERT_EQ_U(t.itc_accepted, 2);
    TS_ASSERT_EQ_I(te_write(&t, CTRL, 4, CTRL_SRAM | 4), TE_OK); /* other registers: OK */
    te_free(&t);
}

TS_TEST(fifo_full_stalls) {
    te_t t = make_te(16384, 0, 2);
    start(&t, CTRL_SRAM | (1u << 13), 0); /* teStallEnable */
    /* the sync takes the first slot until the packer runs */
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_OK);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 2), TE_WAIT);
    TS_ASSERT_EQ_U(rd(&t, STIM), 0); /* full */
    te_tick(&t);
    TS_ASSERT_EQ_U(rd(&t, STIM), 1);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 2), TE_OK);
    TS_ASSERT(rd(&t, CTRL) & (1u << 12));     /* teStallOrOverflow */
    wr(&t, CTRL, rd(&t, CTRL) & ~(1u << 12)); /* writing 0 clears it */
    TS_ASSERT(!(rd(&t, CTRL) & (1u << 12)));
    te_free(&t);
}

TS_TEST(fifo_overflow_error_and_resync) {
    te_t t = make_te(16384, 0, 2);
    start(&t, CTRL_SRAM, 0x40);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 1), TE_OK);      /* sync + this fill the FIFO */
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 2), TE_DROPPED); /* lost: the store's answer says so */
    TS_ASSERT(rd(&t, CTRL) & (1u << 12));
    ticks(&t, 20);
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 3), TE_OK);
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 1000);
    /* sync @0x40: 8c 00 01 | TS 0x40 = 6-bit groups 0, 1 -> 0x00, 0x07 */
    static const uint8_t s0[] = {0x8c, 0x00, 0x01, 0x00, 0x07};
    TS_ASSERT_MEM_EQ(got, s0, 5);
    /* DQM 1: IDTAG 0 -> 0x01, DATA 1 -> 0x05 (MSEO 01: a TS follows), TS 0x40 ^ 0x40 = 0 */
    static const uint8_t d1[] = {0x1c, 0x01, 0x05, 0x03};
    TS_ASSERT_MEM_EQ(got + 5, d1, 4);
    /* Error: TCODE 8 -> 0x20 | ETYPE 0 in bits 3:0 and ECODE 0 in the rest of the byte,
     * last field -> 0x03 */
    static const uint8_t e[] = {0x20, 0x03};
    TS_ASSERT_MEM_EQ(got + 9, e, 2);
    /* ICT-WS with full TS 0x40 again, then DQM 3 */
    TS_ASSERT_MEM_EQ(got + 11, s0, 5);
    static const uint8_t d3[] = {0x1c, 0x01, 0x0d, 0x03};
    TS_ASSERT_MEM_EQ(got + 16, d3, 4);
    static const uint8_t stop[] = {0x88, 0x00, 0x0d, 0x03}; /* trace off */
    TS_ASSERT_MEM_EQ(got + 20, stop, 4);
    TS_ASSERT_EQ_U(n, 24);
    te_free(&t);
}

TS_TEST(stop_on_wrap_at_exact_byte) {
    te_t t = make_te(32, 0, 8); /* 32-byte SRAM */
    start(&t, CTRL_SRAM, 0);
    wr(&t, TSC, 0x00008001u);
    unsigned ignored = 0;
    for (int i = 0; i < 10; i++) { /* 10 x 6 bytes: more than fits */
        bool enabled = rd(&t, CTRL) & 2;
        /* taken while teEnable is set; once the sink stopped (teEnable cleared) ignored */
        TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 0xFFFFFu), enabled ? TE_OK : TE_IGNORED);
        ignored += !enabled;
        ticks(&t, 4);
    }
    TS_ASSERT(ignored > 0);
    ticks(&t, 40);
    uint32_t c = rd(&t, CTRL);
    TS_ASSERT(!(c & 2));            /* teEnable cleared */
    TS_ASSERT(c & 8);               /* empty */
    TS_ASSERT_EQ_U(rd(&t, WP), 32); /* at the end, wrap flag clear */
    wr(&t, RP, 0);
    uint8_t got[32];
    for (int a = 0; a < 32; a += 4) {
        uint32_t w = rd(&t, DATA);
        for (int k = 0; k < 4; k++) got[a + k] = (uint8_t)(w >> (8 * k));
    }
    /* 4-byte sync, then DQMs of 6 bytes (DATA 0xFFFFF: groups 63 63 63 3): 4 whole ones,
     * and the first 4 bytes of the 5th cut at the buffer end */
    static const uint8_t dqm[] = {0x1c, 0x01, 0xfc, 0xfc, 0xfc, 0x0f};
    for (int k = 0; k < 4; k++) TS_ASSERT_MEM_EQ(got + 4 + 6 * k, dqm, 6);
    TS_ASSERT_MEM_EQ(got + 28, dqm, 4);
    TS_ASSERT(t.sink.discarded >= 2);
    te_free(&t);
}

TS_TEST(wrap_sets_flag) {
    te_t t = make_te(32, 0, 8);
    start(&t, CTRL_SRAM & ~(1u << 14), 0); /* no stop-on-wrap */
    wr(&t, TSC, 0x00008001u);
    for (int i = 0; i < 6; i++) {
        te_write(&t, STIM, 4, 0x3FFFFFFFu);
        ticks(&t, 4);
    }
    ticks(&t, 20);
    /* 4 + 6 x 7 = 46 bytes: 11 whole words written, the 12th pending; 11 words in an
     * 8-word buffer wrapped once: WP at word 3 (byte 12) with the wrap flag */
    TS_ASSERT_EQ_U(rd(&t, WP), 12 | 1);
    TS_ASSERT(rd(&t, CTRL) & 2);
    te_free(&t);
}

TS_TEST(sba_words_on_the_port) {
    te_t t = make_te(1024, 0, 8);
    wr(&t, CTRL, 1);
    wr(&t, CTRL, 0x7FF04083u); /* SBA */
    wr(&t, BASE, 0x80010000u);
    wr(&t, LIMIT, 0x80010000u + 16 - 2);
    wr(&t, WP, 0x80010000u);
    wr(&t, TSC, 0x00008001u);
    wr(&t, ITCEN, 1);
    wr(&t, CTRL, 0x7FF04087u);
    uint32_t addrs[8];
    unsigned n = 0;
    for (int i = 0; i < 30 && n < 8; i++) {
        te_tick(&t);
        if (t.sink.sba_valid) addrs[n++] = t.sink.sba_addr;
    }
    /* the 6-byte sync: one full word at base, the rest waits */
    TS_ASSERT_EQ_U(n, 1);
    TS_ASSERT_EQ_U(addrs[0], 0x80010000u);
    TS_ASSERT_EQ_U(t.sink.sba_data[0], 0x8c);
    TS_ASSERT_EQ_U(rd(&t, WP), 0x80010004u);
    te_free(&t);
}

TS_TEST(funnel_interleaves_whole_messages) {
    funnel_t f;
    TS_ASSERT_EQ_I(funnel_init(&f, 4, 1024, 40), 0);
    te_t a, b;
    te_cfg_t c;
    te_default_cfg(&c);
    c.src_bits = 1;
    c.has_funnel = true;
    c.hart = 0;
    TS_ASSERT_EQ_I(te_init(&a, &c), 0);
    c.hart = 1;
    TS_ASSERT_EQ_I(te_init(&b, &c), 0);
    funnel_attach(&f, &a);
    funnel_attach(&f, &b);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 1), TE_OK);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 0x40004003u), TE_OK); /* SRAM, stop-on-wrap */
    te_t *tes[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        wr(tes[i], CTRL, 1);
        wr(tes[i], CTRL, 0x8FF04083u);
        wr(tes[i], TSC, 0x00008001u);
        wr(tes[i], ITCEN, 1);
        wr(tes[i], CTRL, 0x8FF04087u);
    }
    for (int k = 0; k < 3; k++) {
        te_write(&a, STIM, 4, 0x0AAAAAAAu);
        te_write(&b, STIM, 4, 0x05555555u);
        for (int i = 0; i < 3; i++) {
            te_tick(&a);
            te_tick(&b);
            funnel_tick(&f);
        }
    }
    for (int i = 0; i < 60; i++) {
        te_tick(&a);
        te_tick(&b);
        funnel_tick(&f);
    }
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 0x40004001u), TE_OK); /* flush */
    for (int i = 0; i < 10; i++) funnel_tick(&f);
    uint32_t ctl;
    funnel_read(&f, 0, 4, &ctl);
    TS_ASSERT(ctl & 8);
    /* parse the sink: every message must be whole and carry the right SRC for its data */
    uint32_t wp = f.sink.wp;
    unsigned msgs = 0, from[2] = {0, 0};
    for (uint32_t p = 0; p < wp;) {
        if (f.sink.sram[p] == 0xFF) {
            p++;
            continue;
        } /* padding */
        uint32_t start = p;
        while (p < wp && (f.sink.sram[p] & 3) != 3) p++;
        TS_ASSERT(p < wp);
        p++;
        unsigned tcode = f.sink.sram[start] >> 2, src = (f.sink.sram[start + 1] >> 2) & 1;
        if (tcode == NX_DATA_ACQ) {
            /* IDTAG 0 ends in byte 1 (after TCODE and SRC); DATA bits 5:0 are byte 2 */
            unsigned d0 = (f.sink.sram[start + 2] >> 2) & 0x3F;
            TS_ASSERT_EQ_U(d0, src ? 0x15 : 0x2A);
        }
        from[src]++;
        msgs++;
    }
    TS_ASSERT_EQ_U(msgs, 8); /* 2 syncs + 6 DQMs */
    TS_ASSERT_EQ_U(from[0], 4);
    TS_ASSERT_EQ_U(from[1], 4);
    te_free(&a);
    te_free(&b);
    funnel_free(&f);
}

/* after the funnel's sink stops on wrap, the encoders are never held: the funnel takes and
 * discards their messages, so their ITC stays ready and every store is accepted */
TS_TEST(funnel_stopped_sink_drains_encoders) {
    funnel_t f;
    TS_ASSERT_EQ_I(funnel_init(&f, 4, 64, 40), 0); /* 64-byte SRAM */
    te_t a;
    te_cfg_t c;
    te_default_cfg(&c);
    c.has_funnel = true;
    TS_ASSERT_EQ_I(te_init(&a, &c), 0);
    funnel_attach(&f, &a);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 1), TE_OK);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 0x40004003u), TE_OK); /* SRAM, stop-on-wrap */
    wr(&a, CTRL, 1);
    wr(&a, CTRL, 0x8FF04083u);
    wr(&a, TSC, 0x00008001u);
    wr(&a, ITCEN, 1);
    wr(&a, CTRL, 0x8FF04087u);
    /* 100 stores of a 6-byte message: far more than 64 bytes; the writer polls first */
    unsigned accepted = 0;
    for (int k = 0; k < 100; k++) {
        for (int spin = 0; spin < 50 && !te_itc_ready(&a); spin++) {
            te_tick(&a);
            funnel_tick(&f);
        }
        TS_ASSERT(te_itc_ready(&a)); /* never stuck behind the stopped sink */
        uint64_t before = a.itc_accepted;
        TS_ASSERT_EQ_I(te_write(&a, STIM, 4, 0xFFFFFu), TE_OK);
        accepted += a.itc_accepted != before;
        for (int i = 0; i < 3; i++) {
            te_tick(&a);
            funnel_tick(&f);
        }
    }
    TS_ASSERT_EQ_U(accepted, 100);
    TS_ASSERT(f.sink.stopped);
    TS_ASSERT_EQ_U(f.sink.wp, 64);        /* the buffer holds its first 64 bytes */
    TS_ASSERT(f.sink.discarded > 6 * 50); /* the rest was discarded, not queued */
    TS_ASSERT_EQ_U(a.lost, 0);
    te_free(&a);
    funnel_free(&f);
}

TS_TEST(timestamp_prescale_and_reset) {
    te_t t = make_te(1024, 0, 8);
    wr(&t, CTRL, 1);
    wr(&t, TSC, 0x0203u); /* active, count, prescale 4^2 = 16 */
    ticks(&t, 160);
    TS_ASSERT_EQ_U(rd(&t, TSL), 10);
    wr(&t, TSC, 0x0207u); /* tsReset */
    TS_ASSERT_EQ_U(rd(&t, TSL), 0);
    wr(&t, TSC, 0x0001u); /* stopped */
    ticks(&t, 100);
    TS_ASSERT_EQ_U(rd(&t, TSL), 0);
    te_free(&t);
}

/* Software trace port events (docs/firmware/software-trace.md): id 6 -> Data Acquisition with
 * IDTAG 0x40001 + 4 * 6 = 0x40019, THREAD_SWITCH -> Ownership with PROCESS = value << 5 |
 * V 0 << 4 | PRV 3 << 2 | format 2 (the layout SiFive's dqr reads: pid from bit 5). */
TS_TEST(stm_messages_byte_exact) {
    te_t t = make_te(16384, 0, 8);
    start(&t, CTRL_SRAM, 0x1000);
    TS_ASSERT_EQ_I(te_stm_event(&t, 6, 1), TE_STMEV_OFF); /* stmEnable still 0 */
    wr(&t, STMC, 0xFFFFFFFFu);
    TS_ASSERT_EQ_U(rd(&t, STMC), 1);                      /* one writable bit */
    TS_ASSERT_EQ_I(te_stm_event(&t, 0, 1), TE_STMEV_OFF); /* id 0 is never emitted */
    ticks(&t, 4);
    wr(&t, TSL, 0x1025);
    TS_ASSERT_EQ_I(te_stm_event(&t, 6, 0x12345678u), TE_STMEV_TRACED);
    ticks(&t, 4);
    wr(&t, TSL, 0x1030);
    TS_ASSERT_EQ_I(te_stm_event(&t, 0x8000, 0x80001000u), TE_STMEV_TRACED);
    /* an ITC store in the same cycle gets the same timestamp: TS 0x1030 ^ 0x1030 = 0 */
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 6 + 3, 1, 0x02u), TE_OK);
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 1000);
    static const uint8_t want[] = {
        0x8c, 0x00, 0x01, 0x00, 0x00, 0x07, /* ICT-WS Control(0,0) @0x1000 */
        /* TCODE 7 | IDTAG 0x40019 in 6-bit groups 0x19, 0, 0, 1 -> 64 00 00 05 |
         * DATA 0x12345678 as in the worked example | TS 0x1025 ^ 0x1000 = 0x25 */
        0x1c, 0x64, 0x00, 0x00, 0x05, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97,
        /* TCODE 2 | PROCESS 0x80001000 << 5 | 0xe = 2^36 + 2^17 + 14 = 0x100002000e in groups
         * 14, 0, 32, 0, 0, 0, 1 -> 38 00 80 00 00 00 05 | TS 0x1030 ^ 0x1025 = 0x15 -> 0x57 */
        0x08, 0x38, 0x00, 0x80, 0x00, 0x00, 0x00, 0x05, 0x57,
        0x1c, 0x6d, 0x09, 0x03,  /* DQM 0x1B 0x02, TS 0 */
        0x88, 0x00, 0x0d, 0x03}; /* trace off, TS 0 */
    TS_ASSERT_EQ_U(n, 36);       /* 34 bytes + 2 padding */
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

TS_TEST(stm_dropped_on_full_fifo_never_stalls) {
    te_t t = make_te(16384, 0, 2);
    start(&t, CTRL_SRAM | (1u << 13), 0x40); /* teStallEnable: the port ignores it */
    wr(&t, STMC, 1);
    TS_ASSERT_EQ_I(te_stm_event(&t, 1, 1), TE_STMEV_TRACED); /* sync + this fill the FIFO */
    TS_ASSERT_EQ_I(te_stm_event(&t, 2, 2), TE_STMEV_LOST);
    TS_ASSERT_EQ_I(te_stm_event(&t, 3, 3), TE_STMEV_LOST);
    TS_ASSERT_EQ_U(rd(&t, STML), 2);
    TS_ASSERT(rd(&t, CTRL) & (1u << 12)); /* teStallOrOverflow */
    ticks(&t, 20);
    TS_ASSERT_EQ_I(te_stm_event(&t, 4, 4), TE_STMEV_TRACED);
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 1000);
    static const uint8_t want[] = {
        0x8c, 0x00, 0x01, 0x00, 0x07,             /* ICT-WS @0x40 */
        0x1c, 0x14, 0x00, 0x00, 0x05, 0x05, 0x03, /* id 1: IDTAG 0x40005, DATA 1, TS 0 */
        0x20, 0x03,                               /* Error: messages lost */
        0x8c, 0x00, 0x01, 0x00, 0x07,             /* ICT-WS @0x40 */
        0x1c, 0x44, 0x00, 0x00, 0x05, 0x11, 0x03, /* id 4: IDTAG 0x40011, DATA 4 */
        0x88, 0x00, 0x0d, 0x03};                  /* trace off */
    TS_ASSERT_EQ_U(n, 32);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    wr(&t, STML, 0);
    TS_ASSERT_EQ_U(rd(&t, STML), 0);
    te_free(&t);
}

TS_TEST(stm_off_unless_tracing) {
    te_t t = make_te(16384, 0, 8);
    wr(&t, CTRL, 1);
    wr(&t, STMC, 1);
    TS_ASSERT_EQ_I(te_stm_event(&t, 7, 7), TE_STMEV_OFF); /* active, not enabled */
    wr(&t, CTRL, CTRL_SRAM);
    TS_ASSERT_EQ_I(te_stm_event(&t, 7, 7), TE_STMEV_OFF); /* enabled, not tracing */
    wr(&t, CTRL, CTRL_SRAM | 4);
    TS_ASSERT_EQ_I(te_stm_event(&t, 7, 7), TE_STMEV_TRACED);
    wr(&t, CTRL, 0); /* teActive 0 resets stmControl */
    wr(&t, CTRL, 1);
    TS_ASSERT_EQ_U(rd(&t, STMC), 0);
    te_free(&t);
}

/* nx_var on a byte boundary (its fast path) and off one (the general path), bytes by hand
 * from the Nexus field rules: 6 data bits per byte above the 2 MSEO bits, least significant
 * first; MSEO 1 ends a variable field, 3 the message */
TS_TEST(nexus_var_bytes) {
    nx_msg_t m;
    nx_begin(&m);
    nx_fixed(&m, 2, 6); /* byte 0: 2 << 2 */
    nx_var(&m, 0x1234); /* 0x34 & 63 = 52, 8, 1: bytes 0xD0, 0x20, 0x04 | 1 */
    nx_var(&m, 0);      /* a zero: one byte, MSEO 1 */
    nx_fixed(&m, 1, 2); /* off the boundary: 2 bits of byte 5 */
    nx_var(&m, 0x3F);   /* 4 bits fill byte 5 (0x04 | 15 << 4), 2 start byte 6 (3 << 2, MSEO 1, then 3) */
    nx_end(&m);
    static const uint8_t want[] = {0x08, 0xD0, 0x20, 0x05, 0x01, 0xF4, 0x0F};
    TS_ASSERT_EQ_U(m.len, sizeof want);
    TS_ASSERT_MEM_EQ(m.b, want, sizeof want);
}

TS_TEST_MAIN()
