// ts_replay_test.cpp - replay equivalence of the loosely-timed trace modules.
//
//   ts_replay_test LOG TRACE.rtd QUANTUM_CYCLES [--hold]
//
// LOG is what `tracesim run --record-trace-bus LOG` wrote: every access the cores made to an
// encoder or funnel page (cycle, hart, address, size, value, answer), every software trace
// port event (cycle, "stm", hart, id, value) and every SBA word the sink wrote. This program builds a loosely-timed platform from it: the encoder modules (and
// the funnel, attached) with no clock, a TLM memory for the SBA sink, and a traffic source
// thread with a tlm_quantumkeeper under a global quantum of QUANTUM_CYCLES cycles. The source
// makes every recorded access at its recorded time (as sc_time_stamp() + its local time, the
// annotated delay), so the modules catch up lazily; at the end they catch up to the run's
// last cycle. Software trace port events go to their encoder module's side band
// (ts_te_sc::stm_event) with their recorded cycle, in the log's order. It requires
//  * every read to return the recorded value (ITC stimulus reads: the FIFO's readiness, which
//    depends on timing; teControl, WP, timestamps, teSinkData ...), every answer (ok/err) to
//    be the recorded one;
//  * every SBA word to reach the memory with the recorded cycle, address and bytes;
//  * the sink image, built as `tracesim run` builds trace.rtd, to equal TRACE.rtd byte for byte.
// A store the encoder held (ITC FIFO full with teStallEnable) was tried by the SoC's bus every
// cycle, and is replayed so: each attempt with a ts_retry_ext, and "wait" must come back for
// the same attempts. With --hold (one hart only) the source instead makes only the first
// attempt, without the extension: the module holds the store itself and the annotated delay it
// returns must reach the cycle in which the run's store was taken.
#include "ts_funnel_sc.h"
#include "ts_te_sc.h"
#include <tlm_utils/tlm_quantumkeeper.h>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace sc_core;
using namespace tlm;
using namespace tracesim;

namespace {

const sc_time kPeriod(10, SC_NS);

struct access_rec {
    uint64_t cycle;
    unsigned hart;
    bool we;
    uint32_t addr, size, value;
    std::string answer; // ok, wait, err
    unsigned line;
};
struct stm_rec {
    uint64_t cycle;
    unsigned hart;
    uint16_t id;
    uint32_t value;
    unsigned line;
};
struct sba_rec {
    uint64_t cycle;
    uint32_t addr;
    std::vector<uint8_t> data;
    unsigned line;
};

struct log_file {
    std::map<std::string, unsigned> cfg;
    std::vector<access_rec> acc;
    std::vector<stm_rec> stm;
    std::vector<sba_rec> sba;
    uint64_t end = 0;
    bool have_end = false;
};

[[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fputs("replay: FAIL: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::exit(1);
}

log_file read_log(const char *path) {
    std::ifstream in(path);
    if (!in) fail("cannot open %s", path);
    log_file L;
    std::string line;
    unsigned n = 0;
    while (std::getline(in, line)) {
        n++;
        std::istringstream is(line);
        if (line.rfind("# tracesim-trace-bus-1", 0) == 0) {
            std::string hash, fmt, key;
            unsigned v;
            is >> hash >> fmt;
            while (is >> key >> v) L.cfg[key] = v;
            continue;
        }
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("end ", 0) == 0) {
            L.end = std::strtoull(line.c_str() + 4, nullptr, 10);
            L.have_end = true;
            continue;
        }
        std::string a, b, c, d, e, f;
        uint64_t cycle;
        is >> cycle >> a;
        if (a == "sba") {
            sba_rec r{cycle, 0, {}, n};
            is >> b >> c;
            r.addr = (uint32_t)std::strtoul(b.c_str(), nullptr, 0);
            for (size_t i = 0; i + 1 < c.size(); i += 2) r.data.push_back((uint8_t)std::strtoul(c.substr(i, 2).c_str(), nullptr, 16));
            L.sba.push_back(r);
            continue;
        }
        if (a == "stm") {
            stm_rec r{cycle, 0, 0, 0, n};
            unsigned long id = 0;
            is >> r.hart >> b >> c;
            if (is) id = std::strtoul(b.c_str(), nullptr, 0);
            if (!is || id == 0 || id > 0xFFFF) fail("%s: line %u: cannot read '%s'", path, n, line.c_str());
            r.id = (uint16_t)id;
            r.value = (uint32_t)std::strtoul(c.c_str(), nullptr, 0);
            L.stm.push_back(r);
            continue;
        }
        access_rec r;
        r.cycle = cycle;
        r.hart = (unsigned)std::strtoul(a.c_str(), nullptr, 10);
        is >> b >> c >> d >> e >> f;
        if (!is || (b != "r" && b != "w")) fail("%s: line %u: cannot read '%s'", path, n, line.c_str());
        r.we = b == "w";
        r.addr = (uint32_t)std::strtoul(c.c_str(), nullptr, 0);
        r.size = (uint32_t)std::strtoul(d.c_str(), nullptr, 0);
        r.value = (uint32_t)std::strtoul(e.c_str(), nullptr, 0);
        r.answer = f;
        r.line = n;
        L.acc.push_back(r);
    }
    if (L.cfg.empty() || !L.have_end) fail("%s: no tracesim-trace-bus-1 header or no end line", path);
    return L;
}

// The SBA sink's memory: RAM as the SoC has it, untimed; checks every write against the log.
class replay_mem : public sc_module {
  public:
    tlm_utils::simple_target_socket<replay_mem> socket;
    replay_mem(sc_module_name name, uint32_t base, uint32_t size, const std::vector<sba_rec> &want)
        : sc_module(name), socket("socket"), base_(base), size_(size), want_(want) {
        socket.register_b_transport(this, &replay_mem::b_transport);
    }
    std::map<uint32_t, uint8_t> bytes;
    size_t writes = 0;
    void finish() const {
        if (writes != want_.size()) fail("%zu SBA words written, the run wrote %zu", writes, want_.size());
    }

  private:
    void b_transport(tlm_generic_payload &gp, sc_time &delay) {
        uint64_t a = gp.get_address();
        unsigned len = gp.get_data_length();
        uint64_t cycle = (sc_time_stamp() + delay).value() / kPeriod.value();
        if (writes >= want_.size()) fail("SBA word %zu (cycle %" PRIu64 ", 0x%08" PRIx64 ") that the run did not write", writes, cycle, a);
        const sba_rec &w = want_[writes++];
        if (w.cycle != cycle || w.addr != a || w.data.size() != len || std::memcmp(w.data.data(), gp.get_data_ptr(), len))
            fail("SBA word %zu: cycle %" PRIu64 " address 0x%08" PRIx64 ", the run's (line %u): cycle %" PRIu64 " address 0x%08x",
                 writes - 1, cycle, a, w.line, w.cycle, w.addr);
        if (!gp.is_write() || a < base_ || a + len > (uint64_t)base_ + size_) {
            gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        for (unsigned i = 0; i < len; i++) bytes[(uint32_t)a + i] = gp.get_data_ptr()[i];
        gp.set_response_status(TLM_OK_RESPONSE);
    }
    uint32_t base_, size_;
    const std::vector<sba_rec> &want_;
};

// The cores' side: every recorded access at its recorded time, loosely timed.
class traffic_source : public sc_module {
  public:
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<traffic_source>>> te_out;
    tlm_utils::simple_initiator_socket_optional<traffic_source> funnel_out; // unbound without a funnel
    SC_HAS_PROCESS(traffic_source);
    traffic_source(sc_module_name name, const log_file &L, unsigned harts, bool hold, ts_trace_sc *sink_owner,
                   std::vector<ts_te_sc *> te)
        : sc_module(name), funnel_out("funnel_out"), L_(L), hold_(hold), sink_owner_(sink_owner), te_(te) {
        for (unsigned i = 0; i < harts; i++) {
            char n[16];
            std::snprintf(n, sizeof n, "te_out%u", i);
            te_out.emplace_back(new tlm_utils::simple_initiator_socket<traffic_source>(n));
        }
        SC_THREAD(run);
    }
    unsigned reads = 0, writes = 0, held = 0, stm = 0;
    bool done = false;

  private:
    // the software trace events the log has before line `line`, at their time (sim/soc.c: in
    // their cycle before its trace tick; the module catches up to the cycle before)
    void stm_before(tlm_utils::tlm_quantumkeeper &qk, unsigned line) {
        for (; next_stm_ < L_.stm.size() && L_.stm[next_stm_].line < line; next_stm_++) {
            const stm_rec &e = L_.stm[next_stm_];
            sc_time at = kPeriod * (double)e.cycle;
            if (at < sc_time_stamp() + qk.get_local_time()) fail("line %u: cycle %" PRIu64 " is before the previous access", e.line, e.cycle);
            if (e.hart >= te_.size()) fail("line %u: hart %u has no encoder", e.line, e.hart);
            qk.set(at - sc_time_stamp());
            te_[e.hart]->stm_event(e.cycle, e.id, e.value);
            stm++;
        }
    }
    void run() {
        tlm_utils::tlm_quantumkeeper qk;
        qk.reset();
        const std::vector<access_rec> &acc = L_.acc;
        if (hold_ && !L_.stm.empty()) fail("--hold replays no software trace events");
        for (size_t i = 0; i < acc.size(); i++) {
            const access_rec &r = acc[i];
            stm_before(qk, r.line);
            // with --hold, a held store is made once: skip its retries, check its delay
            size_t last = i;
            if (hold_ && r.answer == "wait")
                while (last + 1 < acc.size() && acc[last + 1].answer == "wait" && acc[last + 1].addr == r.addr) last++;
            if (hold_ && r.answer == "wait") last++; // the attempt that was taken
            if (last >= acc.size()) fail("line %u: a held store that was never taken", r.line);
            sc_time at = kPeriod * (double)r.cycle;
            sc_time now = sc_time_stamp() + qk.get_local_time();
            if (at < now) fail("line %u: cycle %" PRIu64 " is before the previous access", r.line, r.cycle);
            // the access at its time as local time (no sync before it: a sync would move
            // sc_time_stamp() past cycles the modules have not ticked yet, and their SBA
            // words could no longer carry their own time)
            qk.set(at - sc_time_stamp());
            tlm_generic_payload gp;
            ts_retry_ext ext;
            unsigned char buf[4];
            for (unsigned k = 0; k < r.size; k++) buf[k] = (unsigned char)(r.value >> (8 * k));
            gp.set_command(r.we ? TLM_WRITE_COMMAND : TLM_READ_COMMAND);
            gp.set_address(r.addr & 0xFFFu);
            gp.set_data_ptr(buf);
            gp.set_data_length(r.size);
            gp.set_streaming_width(r.size);
            gp.set_response_status(TLM_INCOMPLETE_RESPONSE);
            if (!hold_) gp.set_extension(&ext);
            sc_time delay = qk.get_local_time();
            sc_time before = delay;
            target(r)->b_transport(gp, delay);
            if (!hold_) gp.clear_extension(&ext);
            std::string got = !gp.is_response_ok() ? "err" : ext.held ? "wait" :
                                                                        "ok";
            const access_rec &taken = acc[last];
            if (got != taken.answer)
                fail("line %u: %c 0x%08x answered %s, the run's %s", taken.line, r.we ? 'w' : 'r', r.addr, got.c_str(),
                     taken.answer.c_str());
            if (hold_ && last != i) {
                uint64_t c = (sc_time_stamp() + delay).value() / kPeriod.value();
                if (c != taken.cycle) fail("line %u: the held store was taken in cycle %" PRIu64 ", in the run in %" PRIu64, r.line, c, taken.cycle);
                held++;
            } else if (delay != before) {
                fail("line %u: an access that was not held took time", r.line);
            }
            if (!r.we && got == "ok") {
                uint32_t v = 0;
                for (unsigned k = 0; k < r.size; k++) v |= (uint32_t)buf[k] << (8 * k);
                if (v != r.value) fail("line %u: cycle %" PRIu64 ": read 0x%08x gave 0x%08x, in the run 0x%08x", r.line, r.cycle, r.addr, v, r.value);
            }
            (r.we ? writes : reads)++;
            qk.set(delay);
            if (qk.need_sync()) qk.sync();
            i = last;
        }
        stm_before(qk, ~0u);
        // the run ticked the trace subsystem in cycles 0 .. end - 1
        qk.sync();
        if (L_.end) sink_owner_->catch_up_cycle(L_.end - 1);
        done = true;
    }
    tlm::tlm_fw_transport_if<> *target(const access_rec &r) {
        uint32_t page = r.addr & ~0xFFFu;
        if (page == 0x10018000u && funnel_out.size()) return funnel_out.operator->();
        uint32_t n = (page - 0x10000000u) >> 12;
        if (page < 0x10000000u || n >= te_out.size()) fail("line %u: 0x%08x is no trace page", r.line, r.addr);
        return (*te_out[n]).operator->();
    }
    const log_file &L_;
    bool hold_;
    ts_trace_sc *sink_owner_;
    std::vector<ts_te_sc *> te_;
    size_t next_stm_ = 0;
};

std::vector<uint8_t> read_file(const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot open %s", path);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// the sink image, oldest byte first, as sim/run_outputs.c builds trace.rtd
std::vector<uint8_t> sink_image(const sink_t *k, const replay_mem &mem) {
    std::vector<uint8_t> img;
    if (k->kind == SINK_SRAM) {
        img.resize(k->sram_size);
        img.resize(sink_sram_image(k, img.data(), k->sram_size));
        return img;
    }
    uint32_t size = k->limit + k->width - k->base, wp = k->wp & ~1u;
    auto byte = [&](uint32_t a) {
        auto it = mem.bytes.find(a);
        if (it == mem.bytes.end()) fail("SBA buffer byte 0x%08x was never written", a);
        return it->second;
    };
    if (k->wp & 1u)
        for (uint32_t a = wp; a < k->base + size; a++) img.push_back(byte(a));
    for (uint32_t a = k->base; a < wp; a++) img.push_back(byte(a));
    return img;
}

} // namespace

int sc_main(int argc, char *argv[]) {
    if (argc < 4 || argc > 5 || (argc == 5 && std::strcmp(argv[4], "--hold"))) {
        std::fprintf(stderr, "usage: ts_replay_test LOG TRACE.rtd QUANTUM_CYCLES [--hold]\n");
        return 2;
    }
    log_file L = read_log(argv[1]);
    std::vector<uint8_t> want = read_file(argv[2]);
    unsigned quantum = (unsigned)std::strtoul(argv[3], nullptr, 10);
    bool hold = argc == 5;
    unsigned harts = L.cfg["harts"];
    bool has_funnel = L.cfg["funnel"] != 0;
    if (hold && harts > 1) fail("--hold replays one hart only (a held store would stop the others' accesses)");
    tlm_global_quantum::instance().set(kPeriod * (double)quantum);

    te_cfg_t tc;
    te_default_cfg(&tc);
    tc.src_bits = L.cfg["srcbits"];
    tc.itc_depth = L.cfg["itc_depth"];
    tc.sink_bytes = L.cfg["sink_width"];
    tc.sram_size = L.cfg["trace_sram"];
    tc.ts_width = L.cfg["ts_width"];
    tc.has_funnel = has_funnel;
    std::vector<std::unique_ptr<ts_te_sc>> te;
    for (unsigned i = 0; i < harts; i++) {
        tc.hart = i;
        char n[16];
        std::snprintf(n, sizeof n, "te%u", i);
        te.emplace_back(new ts_te_sc(n, tc, kPeriod)); // no clock: loosely timed
    }
    std::unique_ptr<ts_funnel_sc> funnel;
    ts_trace_sc *owner = te[0].get();
    if (has_funnel) {
        ts_funnel_cfg fc;
        fc.sink_bytes = tc.sink_bytes;
        fc.sram_size = tc.sram_size;
        fc.ts_width = tc.ts_width;
        funnel.reset(new ts_funnel_sc("funnel", fc, kPeriod));
        for (auto &t : te) funnel->attach(*t);
        owner = funnel.get();
    }
    replay_mem mem("mem", 0x80000000u, L.cfg["ram_size"], L.sba);
    owner->sba.bind(mem.socket);
    std::vector<ts_te_sc *> te_ptr;
    for (auto &t : te) te_ptr.push_back(t.get());
    traffic_source src("src", L, harts, hold, owner, te_ptr);
    for (unsigned i = 0; i < harts; i++) src.te_out[i]->bind(te[i]->regs);
    if (funnel) src.funnel_out.bind(funnel->regs);
    sc_start();
    if (!src.done) fail("the traffic source did not finish");
    mem.finish();
    std::vector<uint8_t> got = sink_image(owner->sink(), mem);
    if (got.size() != want.size()) fail("sink image of %zu bytes, %s has %zu", got.size(), argv[2], want.size());
    for (size_t i = 0; i < got.size(); i++)
        if (got[i] != want[i]) fail("sink image byte %zu is 0x%02x, in %s 0x%02x", i, got[i], argv[2], want[i]);
    std::printf("replay: %u reads and %u writes (%u held stores), %u software trace events, %zu SBA words, %zu trace "
                "bytes equal to %s (%u harts%s, global quantum %u cycles%s)\n",
                src.reads, src.writes, src.held, src.stm,
                mem.writes, got.size(),
                argv[2], harts, has_funnel ? ", funnel" : "", quantum, hold ? ", held stores kept by the target" : "");
    return 0;
}

int main(int argc, char *argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
