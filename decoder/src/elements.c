/* elements.c - Nexus messages to generic trace elements; see elements.h. */
#include "elements.h"
#include <string.h>

const char *ts_elem_name(enum ts_elem_type t) {
    static const char *const n[] = {"NO_SYNC", "TRACE_ON", "TRACE_OFF", "TIMESTAMP", "SWTRACE",
                                    "OWNERSHIP", "OVERFLOW", "RESOURCE_FULL", "SYNC", "BRANCH",
                                    "CORRELATION", "ICT_EVENT", "CORRUPT", "TRUNCATED", "EOT", "STM",
                                    "PRIVILEGE"};
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

void ts_elem_init(ts_elem_stage_t *s, ts_elem_cb cb, void *ctx) {
    memset(s, 0, sizeof *s);
    s->cb = cb;
    s->ctx = ctx;
}

static int emit(ts_elem_stage_t *s, ts_elem_t *e) { return s->cb(s->ctx, e); }

/* ---- software trace port (rtl_model/regs/stm.def) ------------------------------------- */
#define TS_STM_CONST(name, value, desc) enum { STM_##name = value };
#include "stm.def"
#define TS_STM_EVENT(name, id, desc) enum { STM_ID_##name = id };
#include "stm.def"

const char *ts_stm_group_name(unsigned id) {
#define TS_STM_GROUP(name, first, last, desc) \
    if (id - (unsigned)(first) <= (unsigned)(last) - (first)) return #name;
#include "stm.def"
    return "?";
}

const char *ts_stm_event_name(unsigned id) {
#define TS_STM_EVENT(name, num, desc) \
    if (id == (num)) return #name;
#include "stm.def"
    return NULL;
}

int ts_stm_from_msg(const nxd_msg_t *m, ts_stm_ev_t *ev, const char **why) {
    if (m->status != NXD_OK) return 0;
    if (m->tcode == NX_DATA_ACQ) {
        uint64_t tag = m->f[NXF_IDTAG];
        if (tag < (STM_IDTAG_BASE & ~3u)) return 0; /* ITC */
        if ((tag & 3) != (STM_IDTAG_BASE & 3)) {
            *why = "software event IDTAG & 3 not 1";
            return -1;
        }
        if (tag > STM_IDTAG_BASE + 4ull * 0xffff) {
            *why = "software event IDTAG above the last id 0xffff";
            return -1;
        }
        ev->id = (unsigned)((tag - STM_IDTAG_BASE) >> 2);
        ev->value = m->f[NXF_DATA];
    } else if (m->tcode == NX_OWNERSHIP && (m->f[NXF_PROCESS] & 3) == STM_OWN_FORMAT) {
        ev->id = STM_ID_THREAD_SWITCH;
        ev->value = m->f[NXF_PROCESS] >> STM_OWN_SHIFT;
    } else {
        return 0;
    }
    ev->group = ts_stm_group_name(ev->id);
    ev->event = ts_stm_event_name(ev->id);
    return 1;
}

int ts_elem_from_msg(void *vs, const nxd_msg_t *m) {
    ts_elem_stage_t *s = vs;
    unsigned src = m->src % NXD_MAX_SRC;
    ts_elem_t e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.offset = m->offset;
    e.has_time = m->tics_valid;
    e.time = m->tics;
    e.msg = m;
    if (m->status == NXD_TRUNCATED) {
        e.type = TS_ELEM_TRUNCATED;
        e.u.err.what = m->error;
        return emit(s, &e);
    }
    if (m->status == NXD_BAD) {
        memset(s->synced, 0, sizeof s->synced); /* the decoder resynchronises */
        e.type = TS_ELEM_CORRUPT;
        e.u.err.what = m->error;
        return emit(s, &e);
    }
    bool sync_msg = nx_tcode_full_ts(m->tcode); /* SYNC, the WS types and ICT WS: a full address and time */
    if (!s->seen[src]) {
        s->seen[src] = true;
        if (!sync_msg) { /* data before any synchronisation */
            ts_elem_t ns = e;
            ns.type = TS_ELEM_NO_SYNC;
            int rc = emit(s, &ns);
            if (rc) return rc;
        }
    }
    const uint64_t *f = m->f;
    unsigned t = m->tcode;
    if (nx_tcode_prog(t)) s->prog[src] = true;
    if (t == NX_OWNERSHIP && s->prog[src] && !(f[NXF_PROCESS] & ~(uint64_t)0x1C)) {
        e.type = TS_ELEM_PRIVILEGE;
        e.u.own.process = f[NXF_PROCESS];
        return emit(s, &e);
    }
    ts_stm_ev_t ev;
    const char *why = NULL;
    int stm = ts_stm_from_msg(m, &ev, &why);
    if (stm > 0) {
        e.type = TS_ELEM_STM;
        e.u.stm = ev;
        return emit(s, &e);
    }
    if (stm < 0) {
        e.type = TS_ELEM_CORRUPT;
        e.u.err.what = why;
        return emit(s, &e);
    }
    switch (m->tcode) {
    case NX_DATA_ACQ:
    case NX_AUX_ACCESS_WRITE: { /* IDTAG (or ADDR of Aux Access Write): channel and lane */
        uint64_t tag = f[m->tcode == NX_DATA_ACQ ? NXF_IDTAG : NXF_ADDR];
        e.type = TS_ELEM_SWTRACE;
        e.u.sw.channel = (unsigned)(tag >> 2);
        e.u.sw.lane = (unsigned)(tag & 3);
        e.u.sw.size = e.u.sw.lane == 3 ? 1 : e.u.sw.lane == 2 ? 2 :
                                                                4;
        e.u.sw.value = (uint32_t)f[NXF_DATA];
        break;
    }
    case NX_OWNERSHIP:
        e.type = TS_ELEM_OWNERSHIP;
        e.u.own.process = f[NXF_PROCESS];
        break;
    case NX_ERROR: /* that source lost messages (every source without SRC) */
        e.type = TS_ELEM_OVERFLOW;
        if (m->has_src) s->synced[src] = false;
        else
            memset(s->synced, 0, sizeof s->synced);
        break;
    case NX_RESOURCE_FULL:
        e.type = TS_ELEM_RESOURCE_FULL;
        e.u.rf.rcode = (unsigned)f[NXF_RCODE];
        e.u.rf.value = (m->fmask >> NXF_I_CNT & 1) ? f[NXF_I_CNT] : (m->fmask >> NXF_HISTORY & 1) ? f[NXF_HISTORY] :
                                                                                                    f[NXF_COUNT];
        break;
    case NX_SYNC:
    case NX_DIRECT_BRANCH_WS:
    case NX_INDIRECT_BRANCH_WS:
    case NX_INDIRECT_BRANCH_HIST_WS:
        e.type = TS_ELEM_SYNC;
        s->addr[src] = f[NXF_F_ADDR] << 1;
        s->synced[src] = true;
        e.u.sync.reason = (unsigned)f[NXF_SYNC];
        e.u.sync.i_cnt = f[NXF_I_CNT];
        e.u.sync.addr = s->addr[src];
        e.u.sync.has_hist = m->tcode == NX_INDIRECT_BRANCH_HIST_WS;
        e.u.sync.hist = m->tcode == NX_INDIRECT_BRANCH_HIST_WS ? f[NXF_HISTORY] : 0;
        break;
    case NX_DIRECT_BRANCH:
    case NX_INDIRECT_BRANCH:
    case NX_INDIRECT_BRANCH_HIST:
        e.type = TS_ELEM_BRANCH;
        e.u.br.indirect = m->tcode != NX_DIRECT_BRANCH;
        e.u.br.i_cnt = f[NXF_I_CNT];
        if (m->tcode != NX_DIRECT_BRANCH) {
            e.u.br.b_type = (unsigned)f[NXF_B_TYPE];
            s->addr[src] ^= f[NXF_U_ADDR] << 1;
            e.u.br.addr = s->addr[src];
        }
        e.u.br.has_hist = m->tcode == NX_INDIRECT_BRANCH_HIST;
        e.u.br.hist = m->tcode == NX_INDIRECT_BRANCH_HIST ? f[NXF_HISTORY] : 0;
        break;
    case NX_CORRELATION:
        e.type = f[NXF_EVCODE] == NX_EVCODE_TRACE_OFF ? TS_ELEM_TRACE_OFF : TS_ELEM_CORRELATION;
        e.u.corr.evcode = (unsigned)f[NXF_EVCODE];
        e.u.corr.cdf = (unsigned)f[NXF_CDF];
        e.u.corr.i_cnt = f[NXF_I_CNT];
        e.u.corr.hist = (m->fmask >> NXF_HISTORY & 1) ? f[NXF_HISTORY] : 0;
        s->synced[src] = false;
        break;
    case NX_ICT:
    case NX_ICT_WS: {
        unsigned cksrc = (unsigned)f[NXF_CKSRC];
        e.u.ict.cksrc = cksrc;
        e.u.ict.ckdf = (unsigned)f[NXF_CKDF];
        e.u.ict.data0 = f[NXF_CKDATA0];
        e.u.ict.data1 = (m->fmask >> NXF_CKDATA1 & 1) ? f[NXF_CKDATA1] : 0;
        if (m->fmask >> NXF_F_ADDR & 1) s->addr[src] = f[NXF_F_ADDR] << 1;
        else if (m->fmask >> NXF_U_ADDR & 1)
            s->addr[src] ^= f[NXF_U_ADDR] << 1;
        e.u.ict.has_addr = (m->fmask >> NXF_F_ADDR & 1) || (m->fmask >> NXF_U_ADDR & 1);
        e.u.ict.addr = e.u.ict.has_addr ? s->addr[src] : 0;
        if (m->tcode == NX_ICT_WS) s->synced[src] = true;
        if (cksrc == NX_CKSRC_CONTROL) {
            uint64_t code = f[NXF_CONTROL];
            e.type = code == NX_CONTROL_TRACE_OFF ? TS_ELEM_TRACE_OFF : code == NX_CONTROL_TRACE_ON ? TS_ELEM_TRACE_ON :
                                                                    m->tcode == NX_ICT_WS           ? TS_ELEM_TIMESTAMP :
                                                                                                      TS_ELEM_ICT_EVENT;
        } else {
            e.type = TS_ELEM_ICT_EVENT;
        }
        break;
    }
    default:
        e.type = TS_ELEM_CORRUPT;
        e.u.err.what = "unsupported TCODE";
        break;
    }
    return emit(s, &e);
}

int ts_elem_eot(ts_elem_stage_t *s, uint64_t offset) {
    ts_elem_t e;
    memset(&e, 0, sizeof e);
    e.type = TS_ELEM_EOT;
    e.offset = offset;
    return emit(s, &e);
}
