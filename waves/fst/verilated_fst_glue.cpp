// verilated_fst_glue.cpp - Verilator's FST tracing interface (verilated_fst_c.h, the classes
// VerilatedFst, VerilatedFstBuffer, VerilatedFstC) over the project's C writer
// (fst_writer.c). It takes the place of Verilator's verilated_fst_c.cpp in the model's
// library: the Verilated model calls the emit* functions below with binary values, which go
// to the writer as they are (no '0'/'1' strings). Thin glue only; the format is in C.
#include "verilated.h"
#include "verilated_fst_c.h"

#include "fst_writer.h"
#include "ts_fst.h"

#include <cstdio>
#include <string>

// The generic part of Verilator's tracing (VerilatedTrace and its buffers), specialised for
// this format, as every Verilator trace format does.
#define VL_SUB_T VerilatedFst
#define VL_BUF_T VerilatedFstBuffer
#include "verilated_trace_imp.h"
#undef VL_SUB_T
#undef VL_BUF_T

namespace {
// what m_fst points at: the writer and one trace buffer kept for every dump
struct Glue {
    fstw_t *w = nullptr;
    VerilatedFst::Buffer *buf = nullptr;
};
// the error of the last close that failed on this thread (ts_fst_close_error)
thread_local std::string t_close_error;

inline fstw_t *writer(void *fst) { return static_cast<Glue *>(fst)->w; }
} // namespace

extern "C" const char *ts_fst_close_error(void) {
    return t_close_error.empty() ? nullptr : t_close_error.c_str();
}

VerilatedFst::VerilatedFst(void * /*fst*/) {}

VerilatedFst::~VerilatedFst() {
    if (m_fst) close();
    delete[] m_symbolp;
    m_symbolp = nullptr;
    delete[] m_strbufp;
    m_strbufp = nullptr;
}

void VerilatedFst::open(const char *filename) VL_MT_SAFE_EXCLUDES(m_mutex) {
    const VerilatedLockGuard lock{m_mutex};
    char err[512];
    fstw_t *const w = fstw_open(filename, err, sizeof err);
    if (!w) return; // isOpen() says so; the caller reports it
    Glue *const g = new Glue;
    g->w = w;
    m_fst = g;
    t_close_error.clear();
    fstw_set_timescale_str(w, timeResStr().c_str());
    fullDump(true); // the first dump writes every value
    m_curScope.clear();
    Super::traceInit(); // the model declares its scopes and variables (declare below)
    for (size_t i = 0; i < m_curScope.size(); i++) fstw_upscope(w);
    m_curScope.clear();
    if (!m_symbolp) {
        m_symbolp = new fstHandle[nextCode()]();
        for (const auto &cs : m_code2symbol) m_symbolp[cs.first] = cs.second;
    }
    m_code2symbol.clear();
}

void VerilatedFst::close() VL_MT_SAFE_EXCLUDES(m_mutex) {
    const VerilatedLockGuard lock{m_mutex};
    Super::closeBase();
    if (!m_fst) return;
    Glue *const g = static_cast<Glue *>(m_fst);
    char err[512] = "";
    if (fstw_close(g->w, err, sizeof err)) t_close_error = err;
    delete g->buf;
    delete g;
    m_fst = nullptr;
}

void VerilatedFst::flush() VL_MT_SAFE_EXCLUDES(m_mutex) {
    const VerilatedLockGuard lock{m_mutex};
    Super::flushBase();
    if (m_fst) fstw_flush(writer(m_fst));
}

void VerilatedFst::emitTimeChange(uint64_t timeui) { fstw_time(writer(m_fst), timeui); }

void VerilatedFst::declDTypeEnum(int dtypenum, const char *name, uint32_t elements,
                                 unsigned int minValbits, const char **itemNamesp,
                                 const char **itemValuesp) {
    m_local2fstdtype[dtypenum] = fstw_enum_table(writer(m_fst), name, elements, minValbits, itemNamesp, itemValuesp);
}

// Verilator names a variable by its scopes and its own name separated by spaces; a scope whose
// last character has bit 7 set carries its scope type (0x80 + type) there.
void VerilatedFst::declare(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                           fstVarType vartype, bool array, int arraynum, bool bussed, int msb,
                           int lsb) {
    const int bits = ((msb > lsb) ? (msb - lsb) : (lsb - msb)) + 1;
    if (!Super::declCode(code, name, bits, false)) return; // not in the $dumpvars set
    fstw_t *const w = writer(m_fst);

    std::list<std::string> path;
    const std::string full = namePrefix() + name;
    size_t at = 0;
    while (at < full.size()) {
        const size_t sp = full.find(' ', at);
        const size_t end = sp == std::string::npos ? full.size() : sp;
        if (end > at) path.push_back(full.substr(at, end - at));
        at = end + 1;
    }
    if (path.empty()) return;
    const std::string leaf = path.back();
    path.pop_back();

    // leave the scopes the new variable is not in, enter the ones it is in
    auto cur = m_curScope.begin();
    auto nxt = path.begin();
    while (cur != m_curScope.end() && nxt != path.end() && *cur == *nxt) {
        ++cur;
        ++nxt;
    }
    while (cur != m_curScope.end()) {
        fstw_upscope(w);
        cur = m_curScope.erase(cur);
    }
    for (; nxt != path.end(); ++nxt) {
        const unsigned char last = static_cast<unsigned char>(nxt->back());
        if (last & 0x80) {
            fstw_scope(w, last & 0x7f, nxt->substr(0, nxt->size() - 1).c_str(), nullptr);
        } else {
            fstw_scope(w, FST_ST_VCD_SCOPE, nxt->c_str(), nullptr);
        }
        m_curScope.push_back(*nxt);
    }

    std::string shown = leaf;
    if (array) shown += "[" + std::to_string(arraynum) + "]";
    if (bussed) shown += " [" + std::to_string(msb) + ":" + std::to_string(lsb) + "]";
    if (dtypenum > 0) fstw_enum_ref(w, m_local2fstdtype[dtypenum]);
    const auto it = m_code2symbol.find(code);
    if (it == m_code2symbol.end()) {
        m_code2symbol[code] = fstw_var(w, vartype, vardir, bits, shown.c_str(), 0);
    } else { // another name for a signal already declared
        fstw_var(w, vartype, vardir, bits, shown.c_str(), it->second);
    }
}

void VerilatedFst::declEvent(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                             fstVarType vartype, bool array, int arraynum) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, false, 0, 0);
}
void VerilatedFst::declBit(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                           fstVarType vartype, bool array, int arraynum) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, false, 0, 0);
}
void VerilatedFst::declBus(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                           fstVarType vartype, bool array, int arraynum, int msb, int lsb) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, true, msb, lsb);
}
void VerilatedFst::declQuad(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                            fstVarType vartype, bool array, int arraynum, int msb, int lsb) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, true, msb, lsb);
}
void VerilatedFst::declArray(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                             fstVarType vartype, bool array, int arraynum, int msb, int lsb) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, true, msb, lsb);
}
void VerilatedFst::declDouble(uint32_t code, const char *name, int dtypenum, fstVarDir vardir,
                              fstVarType vartype, bool array, int arraynum) {
    declare(code, name, dtypenum, vardir, vartype, array, arraynum, false, 63, 0);
}

// One buffer serves every dump of an open file (Verilator's own file allocates one per dump
// and model); the offloading variant (--trace-threads) keeps Verilator's scheme.
VerilatedFst::Buffer *VerilatedFst::getTraceBuffer() {
    if (offload()) return new OffloadBuffer{*this};
    Glue *const g = static_cast<Glue *>(m_fst);
    if (!g->buf) g->buf = new Buffer{*this};
    return g->buf;
}

void VerilatedFst::commitTraceBuffer(VerilatedFst::Buffer *bufp) {
    if (offload()) {
        OffloadBuffer *const ob = static_cast<OffloadBuffer *>(bufp);
        if (ob->m_offloadBufferWritep) {
            m_offloadBufferWritep = ob->m_offloadBufferWritep;
            return; // the offload thread deletes it
        }
        delete bufp;
    }
    // the kept buffer stays until close
}

void VerilatedFst::configure(const VerilatedTraceConfig &config) {
    // the writer has no thread of its own; --trace-fst-thread is accepted and ignored
    m_useFstWriterThread |= config.m_useFstWriterThread;
}

// ---- the values: binary, straight to the writer ----------------------------------------

VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitEvent(uint32_t code, VlEvent) {
    fstw_bit(writer(m_fst), m_symbolp[code], 1);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitBit(uint32_t code, CData newval) {
    fstw_bit(writer(m_fst), m_symbolp[code], newval);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitCData(uint32_t code, CData newval, int) {
    fstw_u32(writer(m_fst), m_symbolp[code], newval);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitSData(uint32_t code, SData newval, int) {
    fstw_u32(writer(m_fst), m_symbolp[code], newval);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitIData(uint32_t code, IData newval, int) {
    fstw_u32(writer(m_fst), m_symbolp[code], newval);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitQData(uint32_t code, QData newval, int) {
    fstw_u64(writer(m_fst), m_symbolp[code], newval);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitWData(uint32_t code, const WData *newvalp, int) {
    fstw_words(writer(m_fst), m_symbolp[code], newvalp);
}
VL_ATTR_ALWINLINE
void VerilatedFstBuffer::emitDouble(uint32_t code, double newval) {
    fstw_double(writer(m_fst), m_symbolp[code], newval);
}
