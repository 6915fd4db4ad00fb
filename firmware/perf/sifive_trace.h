/* sifive_trace.h - the SiFive v0 trace encoder and funnel register blocks as C structs, with
 * the structure and field names SiFive's software uses (`struct TraceRegMemMap`,
 * `struct TfTraceRegMemMap`, `te_control_register`, `itc_stimulus_register[n].reg_size_32`,
 * ...), so that programs written for SiFive's perf library compile unchanged.
 *
 * Written for tracesim from the register map in rtl_model/regs/trace_regs.def; the static
 * assertions at the end keep the two in step (the .def table is the single source).
 *
 * A program defines the block addresses itself, as SiFive's manual shows:
 *
 *     struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
 *     struct TfTraceRegMemMap volatile *fmm = NULL;        (or the funnel's address)
 */
#ifndef SIFIVE_TRACE_H_
#define SIFIVE_TRACE_H_
#include <stddef.h>
#include <stdint.h>

/* one ITC stimulus register: 32-bit store at +0, 16-bit at +2, 8-bit at +3 */
union ITC_Stimulus {
    uint32_t reg_size_32;
    struct {
        uint16_t reserved16;
        uint16_t reg_size_16;
    };
    struct {
        uint8_t reserved8[3];
        uint8_t reg_size_8;
    };
};

struct TraceRegMemMap {
    uint32_t te_control_register;                 /* 0x000 teControl */
    uint32_t te_impl_register;                    /* 0x004 teImpl */
    uint32_t reserved_08;                         /* 0x008 */
    uint32_t ev_control_register;                 /* 0x00C evControl */
    uint32_t te_sinkbase_register;                /* 0x010 teSinkBase */
    uint32_t te_sinkbasehigh_register;            /* 0x014 teSinkBaseHigh */
    uint32_t te_sinklimit_register;               /* 0x018 teSinkLimit (last word address) */
    uint32_t te_sink_wp_register;                 /* 0x01C teSinkWP (bit 0: wrap) */
    uint32_t te_sink_rp_register;                 /* 0x020 teSinkRP */
    uint32_t te_sink_data_register;               /* 0x024 teSinkData */
    uint32_t reserved_28_2c[2];                   /* 0x028 */
    uint32_t te_fifo_register;                    /* 0x030 teFifo */
    uint32_t te_btmcount_register;                /* 0x034 teBtmCount */
    uint32_t te_wordcount_register;               /* 0x038 teWordCount */
    uint32_t reserved_3c;                         /* 0x03C */
    uint32_t ts_control_register;                 /* 0x040 tsControl */
    uint32_t ts_lower_register;                   /* 0x044 tsLower */
    uint32_t ts_upper_register;                   /* 0x048 tsUpper */
    uint32_t reserved_4c;                         /* 0x04C */
    uint32_t xti_control_register;                /* 0x050 xtiControl */
    uint32_t xto_control_register;                /* 0x054 xtoControl */
    uint32_t wp_control_register;                 /* 0x058 wpControl */
    uint32_t reserved_5c;                         /* 0x05C */
    uint32_t itc_traceenable_register;            /* 0x060 itcTraceEnable */
    uint32_t itc_trigenable_register;             /* 0x064 itcTrigEnable */
    uint32_t reserved_68_7c[6];                   /* 0x068 */
    union ITC_Stimulus itc_stimulus_register[32]; /* 0x080 itcStimulus[0..31] */
    uint32_t pc_sampling_register[32];            /* 0x100 */
    uint32_t reserved_180_dfc[800];               /* 0x180 */
    uint32_t atb_control_register;                /* 0xE00 */
    uint32_t reserved_e04_efc[63];                /* 0xE04 */
    uint32_t pib_control_register;                /* 0xF00 */
};

struct TfTraceRegMemMap {
    uint32_t tf_control_register;      /* 0x000 tfControl */
    uint32_t tf_impl_register;         /* 0x004 tfImpl */
    uint32_t reserved_08;              /* 0x008 */
    uint32_t reserved_0c;              /* 0x00C */
    uint32_t tf_sinkbase_register;     /* 0x010 */
    uint32_t tf_sinkbasehigh_register; /* 0x014 */
    uint32_t tf_sinklimit_register;    /* 0x018 */
    uint32_t tf_sink_wp_register;      /* 0x01C */
    uint32_t tf_sink_rp_register;      /* 0x020 */
    uint32_t tf_sink_data_register;    /* 0x024 */
    uint32_t reserved_28_3c[6];        /* 0x028 */
    uint32_t ts_control_register;      /* 0x040 funnel timestamp unit (master) */
    uint32_t ts_lower_register;        /* 0x044 */
    uint32_t ts_upper_register;        /* 0x048 */
    uint32_t reserved_4c_dfc[877];     /* 0x04C */
    uint32_t atb_control_register;     /* 0xE00 */
    uint32_t reserved_e04_efc[63];     /* 0xE04 */
    uint32_t pib_control_register;     /* 0xF00 */
};

/* The layout must equal the single register table. */
#define TS_TREG(block, name, off, acc, desc) enum { SIFIVE_TRACE_##block##_##name = off };
#include "trace_regs.def"
#define SIFIVE_TRACE_CHECK(s, field, block, name) \
    _Static_assert(offsetof(struct s, field) == SIFIVE_TRACE_##block##_##name, #field " offset");
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_control_register, TE, CONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_impl_register, TE, IMPL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, ev_control_register, TE, EVCONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sinkbase_register, TE, SINK_BASE)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sinkbasehigh_register, TE, SINK_BASE_HIGH)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sinklimit_register, TE, SINK_LIMIT)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sink_wp_register, TE, SINK_WP)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sink_rp_register, TE, SINK_RP)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_sink_data_register, TE, SINK_DATA)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_fifo_register, TE, FIFO)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_btmcount_register, TE, BTM_COUNT)
SIFIVE_TRACE_CHECK(TraceRegMemMap, te_wordcount_register, TE, WORD_COUNT)
SIFIVE_TRACE_CHECK(TraceRegMemMap, ts_control_register, TE, TS_CONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, ts_lower_register, TE, TS_LOWER)
SIFIVE_TRACE_CHECK(TraceRegMemMap, ts_upper_register, TE, TS_UPPER)
SIFIVE_TRACE_CHECK(TraceRegMemMap, xti_control_register, TE, XTI_CONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, xto_control_register, TE, XTO_CONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, wp_control_register, TE, WP_CONTROL)
SIFIVE_TRACE_CHECK(TraceRegMemMap, itc_traceenable_register, TE, ITC_TRACE_ENABLE)
SIFIVE_TRACE_CHECK(TraceRegMemMap, itc_trigenable_register, TE, ITC_TRIG_ENABLE)
SIFIVE_TRACE_CHECK(TraceRegMemMap, itc_stimulus_register, TE, ITC_STIMULUS)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_control_register, TF, CONTROL)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_impl_register, TF, IMPL)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sinkbase_register, TF, SINK_BASE)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sinkbasehigh_register, TF, SINK_BASE_HIGH)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sinklimit_register, TF, SINK_LIMIT)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sink_wp_register, TF, SINK_WP)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sink_rp_register, TF, SINK_RP)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, tf_sink_data_register, TF, SINK_DATA)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, ts_control_register, TF, TS_CONTROL)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, ts_lower_register, TF, TS_LOWER)
SIFIVE_TRACE_CHECK(TfTraceRegMemMap, ts_upper_register, TF, TS_UPPER)
_Static_assert(offsetof(struct TraceRegMemMap, pib_control_register) == 0xF00, "pibControl offset");
_Static_assert(offsetof(struct TfTraceRegMemMap, pib_control_register) == 0xF00, "funnel pibControl offset");
#undef SIFIVE_TRACE_CHECK

/* The application defines these (see the top of this file); the perf library uses them. */
extern struct TraceRegMemMap volatile *tmm[];
extern struct TfTraceRegMemMap volatile *fmm;

#endif
