// vcore.cpp - thin C++ glue around the Verilated top; see vcore.h.
//
// One source for both cores: compiled as is for the RV32 model (Vts_soc_top) and, through
// vcore64.cpp, with TS_VCORE_XLEN 64 for the RV64 one (Vts_soc_top64). TS_M(x) names the
// model's classes and functions. The RV32 compilation defines the C API (vcore.h); the RV64
// one the same functions named vcore64_*, which the API calls for an RV64 model (vcore_t's
// xlen: one test, in vcore_eval the only one per cycle).
#ifndef TS_VCORE_XLEN
#define TS_VCORE_XLEN 32
#endif
#if TS_VCORE_XLEN == 32
#define TS_M(x) Vts_soc_top##x
#define TS_API(x) vcore_##x
#include "Vts_soc_top.h"
#include "Vts_soc_top___024root.h"
#include "Vts_soc_top__Syms.h"
#elif TS_VCORE_XLEN == 64
#define TS_M(x) Vts_soc_top64##x
#define TS_API(x) vcore64_##x
#include "Vts_soc_top64.h"
#include "Vts_soc_top64___024root.h"
#include "Vts_soc_top64__Syms.h"
#else
#error "TS_VCORE_XLEN is 32 or 64"
#endif
#include "vcore.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif
#if TS_OWN_FST
#include "ts_fst.h"
#endif
#include <cstdio>
#include <cstdlib>
#include <cstring>
#if VM_TRACE_VCD
#include "verilated_vcd_c.h"
#endif
#include <new>
#include <type_traits>
#include <string>

// the signals of the GTKWave views, relative to a hart's scope (generated from waves/)
static const char *const view_signals[] = {
#include "ts_view_signals.inc"
};

// The RV64 model's wider members are read through 32-bit pointers to their halves (the C
// side's ports are 32-bit words: addresses and pcs are 32 bits wide on both cores, sim/
// ts_soc_top.sv): the low word of a 64-bit member is its first on a little-endian host.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "vcore reads 64-bit members by halves");
template <typename T>
static uint32_t *lo32(T *p) { return reinterpret_cast<uint32_t *>(p); }
template <typename T>
static const uint32_t *lo32(const T *p) { return reinterpret_cast<const uint32_t *>(p); }

// the C API: every function of the RV32 compilation hands an RV64 model to its vcore64_
// twin (declared here; defined by vcore64.cpp). vcore_t is the same type in both (its xlen);
// each compilation's model is its own type derived from it (vcore32::impl, vcore64::impl).
// direct32: an RV32 model on the direct evaluation path (below), so that vcore_eval tests one
// flag per cycle, as before the RV64 model existed; an RV64 model leaves it false and keeps
// its own (direct64).
struct vcore {
    unsigned xlen;
    bool direct32;
};
extern "C" {
vcore_t *vcore64_new(vcore_t *share, const char *name);
void vcore64_free(vcore_t *v);
const vcore_ports_t *vcore64_ports(vcore_t *v);
void vcore64_eval(vcore_t *v);
int vcore64_waves_open(vcore_t *const *v, unsigned n, const char *path, int fst, int all);
void vcore64_waves_dump(vcore_t *v, uint64_t time);
int vcore64_waves_close(vcore_t *v, char *err, size_t errlen);
int vcore64_csr_peek(vcore_t *v, unsigned csr, uint32_t *val);
void vcore64_rf_poke(vcore_t *v, unsigned reg, uint32_t val);
}
#if TS_VCORE_XLEN == 32
#define TS_TO64(v, call) \
    if (VL_UNLIKELY((v)->xlen == 64)) return vcore64_##call
#define TS_NS vcore32
#define TS_DIRECT direct32
#else
#define TS_DIRECT direct64
#define TS_TO64(v, call)
#define TS_NS vcore64
#endif

// The model's evaluation, Vts_soc_top___024root___eval(), which Vts_soc_top::eval_step()
// calls after its bookkeeping, is defined in the generated Vts_soc_top___024root__DepSet_*.cpp.
// vcore_eval() does its work directly (below) once the model has been initialised (its first
// eval() does that), skipping eval_step()'s per-call work, paid in every cycle. What that
// work is in Verilator 5.006 and 5.032 (Vts_soc_top.cpp, verilated.h/.cpp), and why it can be
// skipped for this model:
//  - __Vm_activity = true: tells the trace dump that values may have changed. Done here too.
//  - the first call's eval_static/initial/settle (__Vm_didInit): done by the first eval().
//  - Verilated::mtaskId(0), endOfThreadMTask() (5.006), endOfEval(): the message queue of a
//    --threads model's worker threads. A single-threaded model never sets an mtask id, so
//    $finish, $stop, warnings and fatals run at once (VerilatedThreadMsgQueue::post) and the
//    queue stays empty. Checked: threads() == 1, else every eval goes through eval().
//  - __Vm_deleter.deleteAll() (5.032): frees SystemVerilog class objects dropped during the
//    last eval; the RTL has no classes, so nothing is ever queued (it costs a mutex lock).
// Another Verilator version may do more in eval_step(): it gets eval() until its eval_step()
// and ___eval() have been read the same way and the version added here. The environment
// variable TRACESIM_VCORE_EVAL=generic forces eval() on these versions too, which is how
// tests/vcore_eval_test.sh checks that both give the same run folders (=show says on stderr
// which one a model used).
#if VERILATOR_VERSION_INTEGER == 5006000
#define TS_VCORE_DIRECT_EVAL 1
#define TS_TRIG_SET(vec) (vec).at(0) = 1
#define TS_CLK_PREV __Vtrigrprev__TOP__clk_i
#elif VERILATOR_VERSION_INTEGER == 5032000
#define TS_VCORE_DIRECT_EVAL 1
#define TS_TRIG_SET(vec) (vec).set(0, true)
#define TS_CLK_PREV __Vtrigprevexpr___TOP__clk_i__0
#else
#define TS_VCORE_DIRECT_EVAL 0
#endif

#if TS_VCORE_DIRECT_EVAL
// ___eval() itself, for this model (one input region and one trigger, clk_i's edge: the
// simulator builds with TS_CLK_EDGE=edge, one eval per cycle), in Verilator 5.006 and 5.032
// alike: the input region's loop triggers on its first pass only, so it runs ___eval_ico
// once; the active region's loop sets the clk_i trigger when clk_i differs from its previous
// value (5.006: __Vtrigrprev__TOP__clk_i, 5.032: __Vtrigprevexpr___TOP__clk_i__0) and copies
// clk_i there; the NBA loop then runs ___eval_nba once (and 5.032 clears its trigger after
// it), and two more passes of both loops find nothing triggered. vcore_eval() does the same
// without the loops (their passes cost host instructions in every cycle; docs/performance.md,
// "Why it is fast"): it sets the trigger vectors as the
// loops would and calls the same two region functions, which run the model's logic. A model
// with another trigger (a second clock, a negedge, an always_comb the loops would have to
// settle) has wider trigger vectors, and then this does not compile: the assertions below
// stop it.
void TS_M(___024root___eval_ico)(TS_M(___024root) * vlSelf);
void TS_M(___024root___eval_nba)(TS_M(___024root) * vlSelf);
static_assert(std::is_same<decltype(TS_M(___024root)::__VicoTriggered), VlTriggerVec<1>>::value &&
                  std::is_same<decltype(TS_M(___024root)::__VactTriggered), VlTriggerVec<1>>::value &&
                  std::is_same<decltype(TS_M(___024root)::__VnbaTriggered), VlTriggerVec<1>>::value,
              "vcore_eval's direct evaluation assumes one input-region and one clock trigger");
#endif

namespace TS_NS {
struct impl : vcore {
    impl() {
        xlen = TS_VCORE_XLEN;
        direct32 = false;
    }
    bool direct64 = false;            // (RV64: the direct evaluation, as direct32 for an RV32 model)
    TS_M(___024root) *root = nullptr; // the model's state (hot)
    TS_M(__Syms) *syms = nullptr;
    bool generic = false; // TRACESIM_VCORE_EVAL=generic: always eval()
    bool show = false;    // TRACESIM_VCORE_EVAL=show: say on stderr which one ran
    std::string name;     // the model's scope: "soc", "hart1", ...
    VerilatedContext *ctx = nullptr;
    bool own_ctx = false;
    TS_M() *top = nullptr;
    vcore_ports_t ports{};
    uint32_t zero_hi_in = 0, zero_hi_out = 0; // RV32: the data ports' missing high words
#if VM_TRACE_FST
    VerilatedFstC *fst = nullptr;
    unsigned fst_dumps = 0;
#endif
#if VM_TRACE_VCD
    VerilatedVcdC *vcd = nullptr;
#endif
};
} // namespace TS_NS
using TS_NS::impl;

extern "C" vcore_t *TS_API(new)(vcore_t *share_, const char *name) {
    impl *share = static_cast<impl *>(share_);
    impl *v = new (std::nothrow) impl;
    if (!v) return nullptr;
    if (share) {
        v->ctx = share->ctx;
    } else {
        v->ctx = new (std::nothrow) VerilatedContext;
        if (!v->ctx) {
            delete v;
            return nullptr;
        }
        v->own_ctx = true;
        v->ctx->traceEverOn(true);
    }
    v->name = name;
    const char *how = getenv("TRACESIM_VCORE_EVAL");
    v->generic = how && !strcmp(how, "generic");
    v->show = how && !strcmp(how, "show");
    v->top = new TS_M()(v->ctx, name);
    TS_M() *t = v->top;
    v->root = t->rootp;
    v->syms = t->rootp->vlSymsp;
    vcore_ports_t &p = v->ports;
    p.clk = &t->clk_i;
    p.rst_n = &t->rst_ni;
    p.boot_addr = &t->boot_addr_i;
    p.hart_id = &t->hart_id_i;
    p.instr_addr = &t->instr_addr_o;
    p.instr_rdy = &t->instr_rdy_i;
    p.instr_err = &t->instr_err_i;
    p.instr_rdata = &t->instr_rdata_i;
    p.data_req = &t->data_req_o;
    p.data_we = &t->data_we_o;
    p.data_size = &t->data_size_o;
    p.data_addr = &t->data_addr_o;
    p.data_pc = &t->data_pc_o;
    p.data_rdy = &t->data_rdy_i;
    p.data_err = &t->data_err_i;
    // the data ports (and the register write value, the register file) are XLEN wide
    p.xlen = TS_VCORE_XLEN;
    p.data_wdata = lo32(&t->data_wdata_o);
    p.data_rdata = lo32(&t->data_rdata_i);
#if TS_VCORE_XLEN == 64
    p.data_wdata_hi = lo32(&t->data_wdata_o) + 1;
    p.data_rdata_hi = lo32(&t->data_rdata_i) + 1;
    p.rvfi_rd_wdata_hi = lo32(&t->rvfi_rd_wdata_o) + 1;
    p.rf_shift = 1;
#else
    p.data_wdata_hi = &v->zero_hi_out;
    p.data_rdata_hi = &v->zero_hi_in;
    p.rvfi_rd_wdata_hi = &v->zero_hi_out;
    p.rf_shift = 0;
#endif
    p.irq_timer = &t->irq_timer_i;
    p.irq_software = &t->irq_software_i;
    p.irq_lcof = &t->irq_lcof_i;
    p.ev = &t->ev_o;
    p.rvfi_valid = &t->rvfi_valid_o;
    p.rvfi_trap = &t->rvfi_trap_o;
    p.rvfi_pc = &t->rvfi_pc_o;
    p.rvfi_insn = &t->rvfi_insn_o;
    p.rvfi_cause = &t->rvfi_cause_o;
    p.rvfi_rd = &t->rvfi_rd_o;
    p.rvfi_rd_wdata = lo32(&t->rvfi_rd_wdata_o);
    p.rf = lo32(&t->rootp->ts_soc_top__DOT__u_core__DOT__rf_q[0]);
    p.stm_tp_en = &t->stm_tp_en_i;
    p.stm_enable = &t->stm_enable_o;
    p.stm_id = &t->stm_id_o;
    p.stm_value = &t->stm_value_o;
    // the core's CSR flops (rtl_model/core/ts_core.sv), read in place: marked public_flat_rd
    // there, so Verilator keeps them as members of the root under these names (5.006 and
    // 5.032 alike; a version that named them otherwise would stop this file compiling). An
    // output port carrying them would be evaluated in every cycle.
    TS_M(___024root) *r = t->rootp;
    p.priv = &r->ts_soc_top__DOT__u_core__DOT__priv_q;
    p.mstatus_mie = &r->ts_soc_top__DOT__u_core__DOT__mstatus_mie_q;
    p.mstatus_sie = &r->ts_soc_top__DOT__u_core__DOT__mstatus_sie_q;
    p.mie = &r->ts_soc_top__DOT__u_core__DOT__mie_q;
    p.mideleg = &r->ts_soc_top__DOT__u_core__DOT__mideleg_q;
    p.irq_pend = &r->ts_soc_top__DOT__u_core__DOT__irq_pend;
    // the pipeline's valid bits and pcs (program trace: the pc after a retired instruction)
    p.mem_valid = &r->ts_soc_top__DOT__u_core__DOT__mem_valid_q;
    p.ex_valid = &r->ts_soc_top__DOT__u_core__DOT__ex_valid_q;
    p.id_valid = &r->ts_soc_top__DOT__u_core__DOT__id_valid_q;
    // (RV64: their low words; a pc with any of bits 63:32 set faults at fetch)
    p.mem_pc = lo32(&r->ts_soc_top__DOT__u_core__DOT__mem_pc_q);
    p.ex_pc = lo32(&r->ts_soc_top__DOT__u_core__DOT__ex_pc_q);
    p.id_pc = lo32(&r->ts_soc_top__DOT__u_core__DOT__id_pc_q);
    p.if_pc = lo32(&r->ts_soc_top__DOT__u_core__DOT__pc_q);
    // the MEM register's control word (the A extension's op code of a data request,
    // vcore_data_amo): a 64-bit packed struct, kept as one 64-bit member
    static_assert(sizeof r->ts_soc_top__DOT__u_core__DOT__mem_c_q == 8, "ctrl_t is one 64-bit word");
    p.mem_ctrl = &r->ts_soc_top__DOT__u_core__DOT__mem_c_q;
    p.probe_cycle = &t->probe_cycle_i;
    p.probe_mcycle = &t->probe_mcycle_i;
    p.probe_dumping = &t->probe_dumping_i;
    p.probe_minstret = &t->probe_minstret_i;
    p.probe_sink_bytes = &t->probe_sink_bytes_i;
    p.probe_hpm[0] = &t->probe_hpm3_i;
    p.probe_hpm[1] = &t->probe_hpm4_i;
    p.probe_hpm[2] = &t->probe_hpm5_i;
    p.probe_hpm[3] = &t->probe_hpm6_i;
    p.probe_hpm[4] = &t->probe_hpm7_i;
    p.probe_hpm[5] = &t->probe_hpm8_i;
    p.probe_hpm[6] = &t->probe_hpm9_i;
    p.probe_hpm[7] = &t->probe_hpm10_i;
    p.probe_itc_level = &t->probe_itc_level_i;
    p.probe_itc_full = &t->probe_itc_full_i;
    p.probe_itc_stall = &t->probe_itc_stall_i;
    p.probe_te_enable = &t->probe_te_enable_i;
    p.probe_te_tracing = &t->probe_te_tracing_i;
    p.probe_te_empty = &t->probe_te_empty_i;
    p.probe_te_overflow = &t->probe_te_overflow_i;
    p.probe_te_tcode = &t->probe_te_tcode_i;
    p.probe_te_msg_len = &t->probe_te_msg_len_i;
    p.probe_sink_nbytes = &t->probe_sink_nbytes_i;
    p.probe_sba_write = &t->probe_sba_write_i;
    p.probe_sba_conflict = &t->probe_sba_conflict_i;
    p.probe_bus_arb = &t->probe_bus_arb_i;
    p.probe_funnel_take = &t->probe_funnel_take_i;
    p.probe_funnel_src = &t->probe_funnel_src_i;
    p.probe_funnel_nbytes = &t->probe_funnel_nbytes_i;
    p.probe_te_control = &t->probe_te_control_i;
    p.probe_sink_wp = &t->probe_sink_wp_i;
    p.probe_te_icnt = &t->probe_te_icnt_i;
    return v;
}

#if TS_VCORE_XLEN == 32
extern "C" vcore_t *vcore_new_xlen(vcore_t *share, const char *name, unsigned xlen) {
    return xlen == 64 ? vcore64_new(share, name) : vcore_new(share, name);
}
#endif

extern "C" void TS_API(free)(vcore_t *v_) {
    if (!v_) return;
    TS_TO64(v_, free(v_));
    impl *v = static_cast<impl *>(v_);
    if (v->show)
        fprintf(stderr, "vcore: %s: %s (Verilator %d)\n", v->name.c_str(),
                v->TS_DIRECT ? "direct evaluation" : "eval()", VERILATOR_VERSION_INTEGER);
    vcore_waves_close(v, nullptr, 0);
    v->top->final();
    delete v->top;
    if (v->own_ctx) delete v->ctx;
    delete v;
}

extern "C" const vcore_ports_t *TS_API(ports)(vcore_t *v_) {
    TS_TO64(v_, ports(v_));
    impl *v = static_cast<impl *>(v_);
    return &v->ports;
}
// eval() and the choice of the direct evaluation, out of line: inlined into vcore_eval (GCC 14
// did), its registers and stack frame are saved and restored on the direct path of every cycle
// too, and vcore_eval is no longer small enough to be inlined into the cycle loop
__attribute__((noinline)) static void vcore_eval_generic(impl *v) {
    v->top->eval();
    v->TS_DIRECT = TS_VCORE_DIRECT_EVAL && !v->generic && v->top->threads() == 1;
}

// (the RV64 one is never inlined into the RV32 one, which LTO would otherwise do: the RV32
// vcore_eval would then be too large to be inlined into the cycle loop, 7 host instructions
// per simulated cycle)
#if TS_VCORE_XLEN == 64
#define TS_EVAL_ATTR __attribute__((noinline))
#else
// The RV32 one is declared inline, so that LTO weighs inlining it into the cycle loop against
// GCC's limit for inline functions; `used` still emits it as an external symbol for the C
// callers. Not inline, GCC 14 kept it a call (max-inline-insns-auto): 22 host instructions
// per cycle (tests/vcore_inline_test.sh).
#define TS_EVAL_ATTR __attribute__((used)) inline
#endif
extern "C" TS_EVAL_ATTR void TS_API(eval)(vcore_t *v_) {
#if TS_VCORE_DIRECT_EVAL
    // (the RV32 compilation tests its base's direct32, false for an RV64 model, first: the
    // hand-over to vcore64_eval is on the slow path)
#if TS_VCORE_XLEN == 32
    if (VL_LIKELY(v_->direct32)) {
#else
    if (VL_LIKELY(static_cast<impl *>(v_)->direct64)) {
#endif
        impl *v = static_cast<impl *>(v_);
        // the loops' counters and the other trigger vectors are written by ___eval before it
        // reads them, so only what the two region functions read is set
        TS_M(___024root) *r = v->root;
        v->syms->__Vm_activity = true;
        TS_TRIG_SET(r->__VicoTriggered);
        TS_M(___024root___eval_ico)
        (r);
        bool edge = r->clk_i != r->TS_CLK_PREV;
        r->TS_CLK_PREV = r->clk_i;
        if (edge) {
            TS_TRIG_SET(r->__VnbaTriggered);
            TS_M(___024root___eval_nba)
            (r);
#if VERILATOR_VERSION_INTEGER >= 5032000
            r->__VnbaTriggered.clear();
#endif
        }
        return;
    }
#endif
    TS_TO64(v_, eval(v_));
    vcore_eval_generic(static_cast<impl *>(v_));
}

#if TS_VCORE_XLEN == 32
extern "C" int vcore_has_waves(void) {
#if VM_TRACE_FST || VM_TRACE_VCD
    return 1;
#else
    return 0;
#endif
}
#endif

extern "C" int TS_API(waves_open)(vcore_t *const *v_, unsigned n, const char *path, int fst, int all) {
    TS_TO64(v_[0], waves_open(v_, n, path, fst, all));
    impl *v[8];
    if (n > 8) return -1;
    for (unsigned i = 0; i < n; i++) v[i] = static_cast<impl *>(v_[i]);
#if VM_TRACE_FST
    if (fst) {
        v[0]->fst = new VerilatedFstC;
        // only the views' signals unless all: Verilator's $dumpvars filter, one exact name each
        for (unsigned i = 0; i < n && !all; i++)
            for (const char *s : view_signals) v[0]->fst->dumpvars(1, v[i]->name + "." + s);
        for (unsigned i = 0; i < n; i++) v[i]->top->trace(v[0]->fst, 99);
        v[0]->fst->open(path);
        return v[0]->fst->isOpen() ? 0 : -1;
    }
#endif
#if VM_TRACE_VCD
    if (!fst) {
        v[0]->vcd = new VerilatedVcdC;
        for (unsigned i = 0; i < n; i++) v[i]->top->trace(v[0]->vcd, 99);
        v[0]->vcd->open(path);
        return v[0]->vcd->isOpen() ? 0 : -1;
    }
#endif
    (void)v;
    (void)n;
    (void)path;
    (void)fst;
    (void)all;
    return -1;
}

extern "C" void TS_API(waves_dump)(vcore_t *v_, uint64_t time) {
    TS_TO64(v_, waves_dump(v_, time));
    impl *v = static_cast<impl *>(v_);
#if VM_TRACE_FST
    if (v->fst) {
        v->fst->dump(time);
        // A block of the FST file every 4096 dumps: the writer's per-block costs (frame, time
        // table, one LZ4 call per changed signal) are spread thin and the file is smaller than
        // with 512; longer blocks gain nothing more (docs/performance.md, FST waves).
        // Verilator's own writer (without liblz4) walks its change buffer per signal at each
        // flush and wants blocks of 512 to keep that walk in the cache.
#if TS_OWN_FST
        static const unsigned block = 4096;
#else
        static const unsigned block = 512;
#endif
        if (++v->fst_dumps == block) {
            v->fst_dumps = 0;
            v->fst->flush();
        }
    }
#endif
#if VM_TRACE_VCD
    if (v->vcd) v->vcd->dump(time);
#endif
    (void)v;
    (void)time;
}

extern "C" int TS_API(waves_close)(vcore_t *v_, char *err, size_t errlen) {
    TS_TO64(v_, waves_close(v_, err, errlen));
    impl *v = static_cast<impl *>(v_);
    int rc = 0;
#if VM_TRACE_FST
    if (v->fst) {
        v->fst->close();
#if TS_OWN_FST
        if (const char *e = ts_fst_close_error()) {
            rc = -1;
            if (err) snprintf(err, errlen, "cannot write %s", e);
        }
#endif
        delete v->fst;
        v->fst = nullptr;
    }
#endif
#if VM_TRACE_VCD
    if (v->vcd) {
        v->vcd->close();
        delete v->vcd;
        v->vcd = nullptr;
    }
#endif
    (void)v;
    (void)err;
    (void)errlen;
    return rc;
}

// the debugger's view of the core's CSR flops (vcore.h); the bit layout of mstatus is the
// one ts_core.sv's csr read builds
// (RV64: the low words of the CSRs)
extern "C" int TS_API(csr_peek)(vcore_t *v_, unsigned csr, uint32_t *val) {
    TS_TO64(v_, csr_peek(v_, csr, val));
    impl *v = static_cast<impl *>(v_);
    TS_M(___024root) *r = v->root;
#define TS_Q(n) (uint32_t)(r->ts_soc_top__DOT__u_core__DOT__##n##_q)
    uint32_t sst = TS_Q(mstatus_sie) << 1 | TS_Q(mstatus_spie) << 5 | TS_Q(mstatus_spp) << 8 | TS_Q(mstatus_mxr) << 19;
    switch (csr) {
    case 0x300:
        *val = sst | TS_Q(mstatus_mie) << 3 | TS_Q(mstatus_mpie) << 7 | TS_Q(mstatus_mpp) << 11 |
               TS_Q(mstatus_mprv) << 17 | TS_Q(mstatus_tvm) << 20 | TS_Q(mstatus_tw) << 21 | TS_Q(mstatus_tsr) << 22;
        return 0;
    case 0x100: *val = sst; return 0;
    case 0x301: *val = (TS_VCORE_XLEN == 64 ? 0 : 1u << 30) | 1u << 8 | 1u << 12 | 1u << 0 | 1u << 2 | 1u << 18 | 1u << 20; return 0; // RV32IMACSU
    case 0x302: *val = TS_Q(medeleg); return 0;
    case 0x303: *val = TS_Q(mideleg); return 0;
    case 0x304: *val = TS_Q(mie); return 0;
    case 0x344: *val = TS_Q(mip_sw) | TS_Q(mip_msip) << 3 | TS_Q(mip_mtip) << 7; return 0;
    case 0x305: *val = TS_Q(mtvec); return 0;
    case 0x340: *val = TS_Q(mscratch); return 0;
    case 0x341: *val = TS_Q(mepc); return 0;
    case 0x342: *val = TS_Q(mcause); return 0;
    case 0x343: *val = TS_Q(mtval); return 0;
    case 0x105: *val = TS_Q(stvec); return 0;
    case 0x106: *val = TS_Q(scounteren); return 0;
    case 0x140: *val = TS_Q(sscratch); return 0;
    case 0x141: *val = TS_Q(sepc); return 0;
    case 0x142: *val = TS_Q(scause); return 0;
    case 0x143: *val = TS_Q(stval); return 0;
    case 0xFFF: *val = TS_Q(priv); return 0;
    }
#undef TS_Q
    return -1;
}

extern "C" void TS_API(rf_poke)(vcore_t *v_, unsigned reg, uint32_t val) {
    TS_TO64(v_, rf_poke(v_, reg, val));
    impl *v = static_cast<impl *>(v_);
    if (reg >= 1 && reg < 32) v->root->ts_soc_top__DOT__u_core__DOT__rf_q[reg] = val;
}
