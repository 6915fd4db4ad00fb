#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* test_stm_dec.c - software trace port events from hand-encoded Nexus bytes: the generic
 * element (elements.h TS_ELEM_STM), corrupt and edge IDTAGs, the perf decoder ignoring the
 * events, and the text of `tracesim decode --format stm` (stm_decode.h).
 *
 * How the bytes are built (../shared/spec/trace-hw-facts.md 4.1, 4.4, 4.8): each byte is
 * MDO (6 bits, 7:2) | MSEO (2 bits, 1:0); the first byte holds the 6-bit TCODE with MSEO 00;
 * a variable field is cut into 6-bit groups from its LSB, one a byte, MSEO 00 on all but its
 * last byte, which has MSEO 01 (more fields follow) or 11 (end of the message). Fixed values:
 *   Data Acquisition (TCODE 7 -> 0x1C): IDTAG, DATA [, TSTAMP];
 *   Ownership (TCODE 2 -> 0x08): PROCESS [, TSTAMP];
 *   ICT-WS Control `8c 00 01 00 00 07`: full timestamp 0x1000 (4.8).
 * A software event (docs/firmware/software-trace.md, stm.def): IDTAG = 0x40001 + 4 * id (bits
 * 1:0 = 01), THREAD_SWITCH: PROCESS = value << 5 | V 0 << 4 | PRV 3 << 2 | format 2, the
 * RISC-V Ownership layout (trace-hw-facts 4.7: context from bit 5). */
#include "elements.h"
#include "perf_decode.h"
#include "stm_decode.h"
#include "ts_test.h"
#include <stdlib.h>

typedef struct col {
    ts_elem_t e[32];
    unsigned n;
} col_t;
static int put(void *c, const ts_elem_t *e) {
    col_t *o = c;
    if (o->n < 32) o->e[o->n++] = *e;
    return 0;
}

static col_t run(const uint8_t *b, size_t n) {
    col_t c;
    memset(&c, 0, sizeof c);
    nxd_cfg_t cfg = {0, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    ts_elem_stage_t s;
    ts_elem_init(&s, put, &c);
    nxd_decode(&d, b, n, ts_elem_from_msg, &s);
    ts_elem_eot(&s, n);
    return c;
}

/* id 0x12 = 18, value 5, no timestamp:
 *   IDTAG 0x40001 + 4*18 = 0x40049 = 262217; groups from the LSB: 262217 % 64 = 9,
 *   (262217 >> 6) % 64 = 4097 % 64 = 1, (>> 12) % 64 = 64 % 64 = 0, >> 18 = 1
 *   -> 9<<2 = 0x24, 1<<2 = 0x04, 0x00, 1<<2|01 = 0x05;
 *   DATA 5 ends the message: 5<<2|11 = 0x17. */
static const uint8_t user12[] = {0x1c, 0x24, 0x04, 0x00, 0x05, 0x17};

TS_TEST(user_event_element) {
    col_t c = run(user12, sizeof user12);
    TS_ASSERT_EQ_U(c.n, 3); /* NO_SYNC, STM, EOT */
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_STM);
    TS_ASSERT_EQ_U(c.e[1].u.stm.id, 0x12);
    TS_ASSERT_EQ_U(c.e[1].u.stm.value, 5);
    TS_ASSERT_STR_EQ(c.e[1].u.stm.group, "USER");
    TS_ASSERT(c.e[1].u.stm.event == NULL);
    TS_ASSERT(!c.e[1].has_time);
    TS_ASSERT_EQ_U(c.e[1].src, 0);
}

/* THREAD_NAME (id 0x4000) "main" at time 0x1025 after the ICT-WS full timestamp 0x1000:
 *   IDTAG 0x40001 + 4*0x4000 = 0x50001 = 327681: groups 1, 0, (327681 >> 12) % 64 = 80 % 64 = 16,
 *   327681 >> 18 = 1 -> 0x04, 0x00, 16<<2 = 0x40, 1<<2|01 = 0x05;
 *   DATA "main" little-endian = 0x6e69616d: groups 0x2d (45), 0x05, 0x16 (22), 0x1a (26),
 *   0x2e (46), 0x01 -> 0xb4, 0x14, 0x58, 0x68, 0xb8, 0x05 (last with 01: a TSTAMP follows);
 *   TSTAMP 0x1000 ^ 0x1025 = 0x25 = 37 -> 37<<2|11 = 0x97. */
static const uint8_t name_main[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07,
                                    0x1c, 0x04, 0x00, 0x40, 0x05, 0xb4, 0x14, 0x58, 0x68, 0xb8, 0x05, 0x97};

TS_TEST(thread_name_with_timestamp) {
    col_t c = run(name_main, sizeof name_main);
    TS_ASSERT_EQ_U(c.n, 3); /* TIMESTAMP, STM, EOT */
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_TIMESTAMP);
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_STM);
    TS_ASSERT_EQ_U(c.e[1].u.stm.id, 0x4000);
    TS_ASSERT_EQ_U(c.e[1].u.stm.value, 0x6e69616d);
    TS_ASSERT_STR_EQ(c.e[1].u.stm.group, "COM");
    TS_ASSERT_STR_EQ(c.e[1].u.stm.event, "THREAD_NAME");
    TS_ASSERT(c.e[1].has_time);
    TS_ASSERT_EQ_U(c.e[1].time, 0x1025);
}

/* THREAD_SWITCH to tp 0x80001000: PROCESS = 0x80001000 << 5 | 3 << 2 | 2 = 2^36 + 2^17 + 14
 * = 0x100002000e (37 bits); groups: 14, 0, (>> 12) % 64 = 32 (2^17 = 2^12 * 32), 0, 0, 0,
 * >> 36 = 1 -> 14<<2 = 0x38, 0x00, 32<<2 = 0x80, 0x00, 0x00, 0x00, 1<<2|11 = 0x07.
 * Then Ownership PROCESS 0x1234 (format 0, an ITC ownership value): groups 0x34 (52), 0x08, 0x01
 * -> 0xd0, 0x20, 0x07. */
static const uint8_t switches[] = {0x08, 0x38, 0x00, 0x80, 0x00, 0x00, 0x00, 0x07,
                                   0x08, 0xd0, 0x20, 0x07};

TS_TEST(thread_switch_37_bit_process) {
    col_t c = run(switches, sizeof switches);
    TS_ASSERT_EQ_U(c.n, 4); /* NO_SYNC, STM, OWNERSHIP, EOT */
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_STM);
    TS_ASSERT_EQ_U(c.e[1].u.stm.id, 0x8000);
    TS_ASSERT_EQ_U(c.e[1].u.stm.value, 0x80001000u);
    TS_ASSERT_STR_EQ(c.e[1].u.stm.group, "SYS");
    TS_ASSERT_STR_EQ(c.e[1].u.stm.event, "THREAD_SWITCH");
    TS_ASSERT_EQ_I(c.e[2].type, TS_ELEM_OWNERSHIP); /* format 0: not a software event */
    TS_ASSERT_EQ_U(c.e[2].u.own.process, 0x1234);
}

/* edge and corrupt IDTAGs, each DATA 7 (7<<2|11 = 0x1f) unless said:
 *   0x40000 (the old encoding of id 0, lane bits 00, which makes dqr 0.18.0 index its 32-entry
 *     no-load-string table with 0x10000): groups 0, 0, 0, 1 -> 0x00, 0x00, 0x00, 0x05: corrupt;
 *   0x80001 = 0x40001 + 4*0x10000 (one above the last id): groups 1, 0, 0, 2 -> 0x04 0x00 0x00 0x09:
 *     corrupt;
 *   0x7fffd = 0x40001 + 4*0xffff (the last id), DATA 0xffffffff: groups 61, 63, 63, 1 ->
 *     0xf4, 0xfc, 0xfc, 0x05; DATA groups 63 x5 then 3 -> 0xfc x5, 3<<2|11 = 0x0f: SYS 0xffff;
 *   0x40001 (id 0, which the port never emits): groups 1, 0, 0, 1 -> 0x04 0x00 0x00 0x05, DATA 0
 *     (0x03): group NONE;
 *   0x3c (ITC stimulus 15, lane 0): one group 60 -> 0xf1; DATA 9 -> 0x27: ITC, not an event;
 *   0x40003 (lane bits 11): groups 3, 0, 0, 1 -> 0x0c 0x00 0x00 0x05: corrupt. */
static const uint8_t edges[] = {0x1c, 0x00, 0x00, 0x00, 0x05, 0x1f,
                                0x1c, 0x04, 0x00, 0x00, 0x09, 0x1f,
                                0x1c, 0xf4, 0xfc, 0xfc, 0x05, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x0f,
                                0x1c, 0x04, 0x00, 0x00, 0x05, 0x03,
                                0x1c, 0xf1, 0x27,
                                0x1c, 0x0c, 0x00, 0x00, 0x05, 0x1f};

TS_TEST(corrupt_and_edge_idtags) {
    col_t c = run(edges, sizeof edges);
    TS_ASSERT_EQ_U(c.n, 8); /* NO_SYNC, 6 messages, EOT */
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_CORRUPT);
    TS_ASSERT(strstr(c.e[1].u.err.what, "IDTAG & 3 not 1") != NULL);
    TS_ASSERT_EQ_I(c.e[2].type, TS_ELEM_CORRUPT);
    TS_ASSERT(strstr(c.e[2].u.err.what, "0xffff") != NULL);
    TS_ASSERT_EQ_I(c.e[3].type, TS_ELEM_STM);
    TS_ASSERT_EQ_U(c.e[3].u.stm.id, 0xffff);
    TS_ASSERT_EQ_U(c.e[3].u.stm.value, 0xffffffffu);
    TS_ASSERT_STR_EQ(c.e[3].u.stm.group, "SYS");
    TS_ASSERT_EQ_I(c.e[4].type, TS_ELEM_STM);
    TS_ASSERT_EQ_U(c.e[4].u.stm.id, 0);
    TS_ASSERT_STR_EQ(c.e[4].u.stm.group, "NONE");
    TS_ASSERT_EQ_I(c.e[5].type, TS_ELEM_SWTRACE);
    TS_ASSERT_EQ_U(c.e[5].u.sw.channel, 15);
    TS_ASSERT_EQ_U(c.e[5].u.sw.value, 9);
    TS_ASSERT_EQ_I(c.e[6].type, TS_ELEM_CORRUPT);
    TS_ASSERT(strstr(c.e[6].u.err.what, "IDTAG & 3 not 1") != NULL);
    TS_ASSERT_EQ_I(c.e[7].type, TS_ELEM_EOT);
}

TS_TEST(group_names_from_stm_def) {
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x0000), "NONE");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x0001), "USER");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x3fff), "USER");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x4000), "COM");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x7fff), "COM");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x8000), "SYS");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0x8001), "RSVD");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0xbfff), "RSVD");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0xc000), "SYS");
    TS_ASSERT_STR_EQ(ts_stm_group_name(0xffff), "SYS");
    TS_ASSERT(ts_stm_event_name(0x0012) == NULL);
}

/* the perf decoder on every perf channel sees none of the events as perf data */
typedef struct pcount {
    unsigned headers, records, errors;
} pcount_t;
static void p_h(void *c, const perf_header_t *h) {
    (void)h;
    ((pcount_t *)c)->headers++;
}
static void p_r(void *c, const perf_record_t *r) {
    (void)r;
    ((pcount_t *)c)->records++;
}
static void p_e(void *c, unsigned core, uint64_t off, const char *w) {
    (void)core;
    (void)off;
    (void)w;
    ((pcount_t *)c)->errors++;
}

TS_TEST(perf_decoder_ignores_events) {
    col_t all[3] = {run(user12, sizeof user12), run(name_main, sizeof name_main), run(switches, sizeof switches)};
    for (unsigned ch = 0; ch < 32; ch++) {
        pcount_t pc = {0, 0, 0};
        perf_dec_cb_t cb = {&pc, p_h, p_r, p_e};
        perf_dec_t *pd = calloc(1, sizeof *pd);
        TS_ASSERT(pd != NULL);
        perf_dec_init(pd, ch, &cb);
        for (unsigned k = 0; k < 3; k++)
            for (unsigned i = 0; i < all[k].n; i++) perf_dec_feed_elem(pd, &all[k].e[i]);
        perf_dec_finish(pd);
        free(pd);
        TS_ASSERT_EQ_U(pc.headers + pc.records + pc.errors, 0);
    }
}

/* --format stm: the user event, THREAD_NAME "ab" (0x00006261: 'a' in bits 7:0, a NUL in the
 * same word ends it), an Error message, the corrupt IDTAG 0x40004 (lane bits 00:
 * groups 4, 0, 0, 1 -> 0x10 0x00 0x00 0x05). Bytes of the name event: IDTAG
 * 0x50001 as above (0x04 0x00 0x40 0x05), DATA 0x6261 = 25185 = 64*393 + 33, 393 = 64*6 + 9:
 * groups 33, 9, 6 -> 0x84, 0x24, 6<<2|11 = 0x1b. Error message: TCODE 8 (0x20), ETYPE 4 bits 0 and ECODE 0 in the next byte,
 * which ends the message: 0x03 (trace-hw-facts 4.4). */
TS_TEST(text_lines) {
    static const uint8_t b[] = {0x1c, 0x24, 0x04, 0x00, 0x05, 0x17,
                                0x1c, 0x04, 0x00, 0x40, 0x05, 0x84, 0x24, 0x1b,
                                0x20, 0x03,
                                0x1c, 0x10, 0x00, 0x00, 0x05, 0x1f};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    TS_ASSERT(f != NULL);
    stm_text_t t;
    stm_text_init(&t, f);
    nxd_cfg_t cfg = {0, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    ts_elem_stage_t s;
    ts_elem_init(&s, stm_text_elem, &t);
    nxd_decode(&d, b, sizeof b, ts_elem_from_msg, &s);
    ts_elem_eot(&s, sizeof b);
    stm_text_free(&t);
    fclose(f);
    TS_ASSERT_STR_EQ(text,
                     "- 0 USER 0x0012 - 0x00000005\n"
                     "- 0 COM 0x4000 THREAD_NAME 0x00006261\n"
                     "- 0 name \"ab\"\n"
                     "- 0 ERROR messages lost (Error message at offset 14: the FIFO overran, software events or ITC stores were dropped here)\n"
                     "- 0 CORRUPT offset 16: software event IDTAG & 3 not 1\n");
    TS_ASSERT_EQ_U(t.events, 2);
    TS_ASSERT_EQ_U(t.names, 1);
    TS_ASSERT_EQ_U(t.lost, 1);
    TS_ASSERT_EQ_U(t.corrupt, 1);
    free(text);
}

TS_TEST_MAIN()
