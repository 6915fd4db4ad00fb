/* test_wire_defs.c - the one definition of the Nexus messages (rtl_model/regs/nexus.def),
 * the perf library's wire format (perf_wire.def) and the exit statuses (exit_status.def).
 * Expected values are typed here from ../shared/spec/trace-hw-facts.md (4.4 TCODEs and
 * fields, 4.5 timestamps, 5.4/5.5 header and record stores) and from the documented exit
 * statuses (docs/commands/run.md, sweep.md), not taken from the tables under test. */
#include "nexus.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "ts_exit_status.h"
#include "ts_nexus_codes.h"
#include "ts_perf_wire.h"
#include "ts_test.h"
#include <string.h>

/* trace-hw-facts.md 4.4: the TCODEs dqr supports, their names, and (4.5) which carry a full
 * timestamp */
static const struct {
    unsigned tcode;
    const char *text;
    int full;
} facts_tcodes[] = {
    {2, "OWNERSHIP TRACE", 0},
    {3, "DIRECT BRANCH", 0},
    {4, "INDIRECT BRANCH", 0},
    {7, "DATA ACQUISITION", 0},
    {8, "ERROR", 0},
    {9, "SYNC", 1},
    {11, "DIRECT BRANCH WS", 1},
    {12, "INDIRECT BRANCH WS", 1},
    {23, "AUX ACCESS WRITE", 0},
    {27, "RESOURCE FULL", 0},
    {28, "INDIRECT BRANCH HISTORY", 0},
    {29, "INDIRECT BRANCH HISTORY WS", 1},
    {33, "CORRELATION", 0},
    {34, "INCIRCUITTRACE", 0},
    {35, "INCIRCUITTRACE WS", 1},
};
#define N_FACTS (sizeof facts_tcodes / sizeof facts_tcodes[0])

TS_TEST(nexus_tcodes_are_the_facts) {
    unsigned n = 0;
#define TS_NX_TCODE(name, tc, txt, ts, prog, fields)                                     \
    do {                                                                                 \
        n++;                                                                             \
        size_t i = 0;                                                                    \
        while (i < N_FACTS && facts_tcodes[i].tcode != (tc)) i++;                        \
        TS_ASSERT(i < N_FACTS);                                                          \
        if (i < N_FACTS) {                                                               \
            TS_ASSERT_STR_EQ(txt, facts_tcodes[i].text);                                 \
            TS_ASSERT_EQ_I(ts, facts_tcodes[i].full);                                    \
        }                                                                                \
        /* a program-trace message reports an I-CNT or a history (its fields say so) */  \
        TS_ASSERT_EQ_I(prog, strstr(fields, "I-CNT") || strstr(fields, "HIST") ? 1 : 0); \
        /* a full timestamp goes with a full address (F-ADDR) */                         \
        TS_ASSERT_EQ_I(ts, strstr(fields, "F-ADDR") ? 1 : 0);                            \
    } while (0);
#include "nexus.def"
    TS_ASSERT_EQ_U(n, N_FACTS);
    /* the names the encoder and the decoder use */
    TS_ASSERT_EQ_U(NX_OWNERSHIP, 2);
    TS_ASSERT_EQ_U(NX_DATA_ACQ, 7);
    TS_ASSERT_EQ_U(NX_ERROR, 8);
    TS_ASSERT_EQ_U(NX_SYNC, 9);
    TS_ASSERT_EQ_U(NX_RESOURCE_FULL, 27);
    TS_ASSERT_EQ_U(NX_INDIRECT_BRANCH_HIST_WS, 29);
    TS_ASSERT_EQ_U(NX_CORRELATION, 33);
    TS_ASSERT_EQ_U(NX_ICT, 34);
    TS_ASSERT_EQ_U(NX_ICT_WS, 35);
}

TS_TEST(nexus_tcode_lookups) {
    /* every TCODE a 6-bit field can hold: dqr's name or UNKNOWN, the full-timestamp set of
     * 4.5, the program-trace set (messages with an I-CNT or HIST in 4.4) */
    static const unsigned prog[] = {3, 4, 9, 11, 12, 27, 28, 29, 33};
    for (unsigned t = 0; t < 64; t++) {
        const char *want = "UNKNOWN";
        int full = 0, is_prog = 0;
        for (size_t i = 0; i < N_FACTS; i++)
            if (facts_tcodes[i].tcode == t) {
                want = facts_tcodes[i].text;
                full = facts_tcodes[i].full;
            }
        for (size_t i = 0; i < sizeof prog / sizeof prog[0]; i++) is_prog |= prog[i] == t;
        TS_ASSERT_STR_EQ(nxd_tcode_name(t), want);
        TS_ASSERT_EQ_I(nx_tcode_full_ts(t), full);
        TS_ASSERT_EQ_I(nx_tcode_prog(t), is_prog);
    }
}

TS_TEST(nexus_fixed_field_widths) {
    /* 4.4: TCODE[6] then SYNC[4], B-TYPE[2], ETYPE[4], RCODE[4], EVCODE[4], CDF[2], CKSRC[4], CKDF[2] */
    TS_ASSERT_EQ_U(NX_W_TCODE, 6);
    TS_ASSERT_EQ_U(NX_W_SYNC, 4);
    TS_ASSERT_EQ_U(NX_W_B_TYPE, 2);
    TS_ASSERT_EQ_U(NX_W_ETYPE, 4);
    TS_ASSERT_EQ_U(NX_W_RCODE, 4);
    TS_ASSERT_EQ_U(NX_W_EVCODE, 4);
    TS_ASSERT_EQ_U(NX_W_CDF, 2);
    TS_ASSERT_EQ_U(NX_W_CKSRC, 4);
    TS_ASSERT_EQ_U(NX_W_CKDF, 2);
    /* the code tables of 4.4 */
    TS_ASSERT_EQ_U(NX_SYNC_PERIODIC, 2);
    TS_ASSERT_EQ_U(NX_SYNC_ICNT_OVF, 4);
    TS_ASSERT_EQ_U(NX_SYNC_TRACE_ENABLE, 5);
    TS_ASSERT_EQ_U(NX_SYNC_FIFO_OVERRUN, 7);
    TS_ASSERT_EQ_U(NX_B_TYPE_TRAP, 1);
    TS_ASSERT_EQ_U(NX_RCODE_ICNT, 0);
    TS_ASSERT_EQ_U(NX_RCODE_HIST, 1);
    TS_ASSERT_EQ_U(NX_RCODE_NOT_TAKEN, 8);
    TS_ASSERT_EQ_U(NX_RCODE_TAKEN, 9);
    TS_ASSERT_EQ_U(NX_EVCODE_TRACE_OFF, 4);
    TS_ASSERT_EQ_U(NX_CKSRC_CONTROL, 0);
    TS_ASSERT_EQ_U(NX_CKSRC_CALL, 9);
    TS_ASSERT_EQ_U(NX_CKSRC_EXCEPTION, 10);
    TS_ASSERT_EQ_U(NX_CKSRC_INTERRUPT, 11);
    TS_ASSERT_EQ_U(NX_CKSRC_CONTEXT, 13);
    TS_ASSERT_EQ_U(NX_CKSRC_PC_SAMPLE, 15);
    TS_ASSERT_EQ_U(NX_CONTROL_TRACE_ON, 2);
    TS_ASSERT_EQ_U(NX_CONTROL_TRACE_OFF, 3);
    /* every code fits its field */
#define TS_NX_CODE(field, name, value, desc) TS_ASSERT((value) >= 0 && (value) < (1ll << NX_W_##field));
#define NX_W_CONTROL 62 /* CONTROL is a variable field (CKDATA0 or CKDATA1) */
#include "nexus.def"
#undef NX_W_CONTROL
}

/* 4.8's worked example, packed by the encoder model with the names and read back by the
 * decoder: store 0x12345678 to stimulus 6, timestamp XOR 0x25 */
TS_TEST(nexus_names_pack_the_worked_example) {
    nx_msg_t m;
    nx_begin(&m);
    nx_fixed(&m, NX_DATA_ACQ, NX_W_TCODE);
    nx_var(&m, 0x18);
    nx_var(&m, 0x12345678);
    nx_var(&m, 0x25);
    nx_end(&m);
    nxd_t d;
    nxd_cfg_t cfg = {0, 40};
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), 0);
    nxd_msg_t out[2];
    size_t n = nxd_parse(&d, m.b, m.len, m.len, out);
    TS_ASSERT_EQ_U(n, 1);
    TS_ASSERT_EQ_U(out[0].tcode, 7);
    TS_ASSERT_EQ_U(out[0].f[NXF_IDTAG], 0x18);
    TS_ASSERT_EQ_U(out[0].f[NXF_DATA], 0x12345678);
    TS_ASSERT_EQ_U(out[0].ts_field, 0x25);
}

TS_TEST(perf_wire_is_the_facts) {
    /* 5.4: the marker is "perf" as one 32-bit word, 'p' in the top byte */
    TS_ASSERT_EQ_U(TS_PW_MARKER, ((unsigned)'p' << 24) | ((unsigned)'e' << 16) | ((unsigned)'r' << 8) | 'f');
    TS_ASSERT_EQ_U(TS_PW_MARKER, 0x70657266u);
    /* count types 0/1/2, record types 0 enter, 1 exit, 2 manual, 3 ISR, event types 0/1/2 */
    TS_ASSERT_EQ_U(TS_PW_COUNT_RAW, 0);
    TS_ASSERT_EQ_U(TS_PW_COUNT_DELTA, 1);
    TS_ASSERT_EQ_U(TS_PW_COUNT_DELTA_XOR, 2);
    TS_ASSERT_EQ_U(TS_PW_COUNT_TYPES, 3);
    TS_ASSERT_EQ_U(TS_PW_REC_FUNC_ENTER, 0);
    TS_ASSERT_EQ_U(TS_PW_REC_FUNC_EXIT, 1);
    TS_ASSERT_EQ_U(TS_PW_REC_MANUAL, 2);
    TS_ASSERT_EQ_U(TS_PW_REC_ISR, 3);
    TS_ASSERT_EQ_U(TS_PW_RECORD_TYPES, 4);
    TS_ASSERT_EQ_U(TS_PW_EV_HW_GENERAL, 0);
    TS_ASSERT_EQ_U(TS_PW_EV_HW_CACHE, 1);
    TS_ASSERT_EQ_U(TS_PW_EV_HW_RAW, 2);
    /* the counts (TS_PW_*_TYPES) are upper bounds: every value is below them */
#define TS_PW_COUNT(name, value, sifive, desc) TS_ASSERT((value) < TS_PW_COUNT_TYPES);
#define TS_PW_RECORD(name, value, sifive, addrs, desc) TS_ASSERT((value) < TS_PW_RECORD_TYPES);
#include "perf_wire.def"
    /* enter/exit records carry two addresses (function, call site), the others one */
#define TS_PW_RECORD(name, value, sifive, addrs, desc) \
    TS_ASSERT_EQ_I(addrs, (value) == TS_PW_REC_FUNC_ENTER || (value) == TS_PW_REC_FUNC_EXIT ? 2 : 1);
#include "perf_wire.def"
    /* the stores: 32-bit marker, 8-bit count type, 32-bit mask; 32-bit definition words;
     * 8-bit record type, 32-bit address words and value words, 16-bit value bits 47:32 */
    TS_ASSERT_EQ_U(TS_PW_BYTES_HEADER_MARKER, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_HEADER_COUNT_TYPE, 1);
    TS_ASSERT_EQ_U(TS_PW_BYTES_HEADER_MASK, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_DEF_TYPE, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_DEF_INFO, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_RECORD_TYPE, 1);
    TS_ASSERT_EQ_U(TS_PW_BYTES_RECORD_ADDR, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_RECORD_VALUE, 4);
    TS_ASSERT_EQ_U(TS_PW_BYTES_RECORD_VALUE_HI, 2);
    TS_ASSERT_EQ_U(TS_PW_VALUE_HI_BITS, 16);
    TS_ASSERT_EQ_U(TS_PW_ADDR_HI, 1);
    /* counter_info: CSR in 11:0, width - 1 in 17:12 */
    TS_ASSERT_EQ_U((0xC00u | (63u << TS_PW_INFO_WIDTH_SHIFT)) & TS_PW_INFO_CSR_MASK, 0xC00u);
    TS_ASSERT_EQ_U(((0xC00u | (63u << 12)) >> TS_PW_INFO_WIDTH_SHIFT) & TS_PW_INFO_WIDTH_MASK, 63u);
    /* the decoder's names are the same values */
    TS_ASSERT_EQ_U(PERF_MANUAL, 2);
    TS_ASSERT_EQ_U(PERF_ISR, 3);
    TS_ASSERT_EQ_U(PERF_DELTA_XOR, 2);
    TS_ASSERT_EQ_U(PERF_MAX_COUNTERS, 32);
}

TS_TEST(exit_statuses_are_the_documented_ones) {
    /* docs/commands/run.md: 0..118 the firmware's code, 119 any other, 120 usage, 121 no
     * file, 122 bad ELF, 123 wrong architecture, 124 cycle limit, 125 outside RAM, 126 host,
     * 127 hang, 128 + the signal; sweep.md: 1 a point failed, 3 busy, 130 interrupted */
    TS_ASSERT_EQ_I(TS_EXIT_OK, 0);
    TS_ASSERT_EQ_I(TS_EXIT_FAILED, 1);
    TS_ASSERT_EQ_I(TS_EXIT_BUSY, 3);
    TS_ASSERT_EQ_I(TS_EXIT_FW_MAX, 118);
    TS_ASSERT_EQ_I(TS_EXIT_FW_OTHER, 119);
    TS_ASSERT_EQ_I(TS_EXIT_USAGE, 120);
    TS_ASSERT_EQ_I(TS_EXIT_NO_FILE, 121);
    TS_ASSERT_EQ_I(TS_EXIT_BAD_ELF, 122);
    TS_ASSERT_EQ_I(TS_EXIT_WRONG_ARCH, 123);
    TS_ASSERT_EQ_I(TS_EXIT_CYCLE_LIMIT, 124);
    TS_ASSERT_EQ_I(TS_EXIT_OUTSIDE_RAM, 125);
    TS_ASSERT_EQ_I(TS_EXIT_HOST, 126);
    TS_ASSERT_EQ_I(TS_EXIT_HANG, 127);
    TS_ASSERT_EQ_I(TS_EXIT_SIGNAL_BASE, 128);
    TS_ASSERT_EQ_I(TS_EXIT_INTERRUPTED, 130);
    TS_ASSERT_EQ_I(TS_EXIT_TERMINATED, 143);
    /* one name per status */
    int seen[256] = {0};
#define TS_EXIT(name, status, cmds, meaning) TS_ASSERT((status) >= 0 && (status) < 256 && !seen[status]++);
#include "exit_status.def"
    TS_ASSERT_STR_EQ(ts_exit_name(126), "HOST");
    TS_ASSERT_STR_EQ(ts_exit_name(120), "USAGE");
    TS_ASSERT(ts_exit_name(2) == NULL);
}

TS_TEST_MAIN()
