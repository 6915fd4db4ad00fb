// ts_sc_platform.cpp - the SoC as a SystemC/TLM-2.0 platform; see ts_sc_platform.h.
#include "ts_sc_platform.h"
#include "ts_funnel_sc.h"
#include "ts_te_sc.h"
#include <tlm_utils/tlm_quantumkeeper.h>
#include <cstring>
#include <memory>
#include <vector>

using namespace sc_core;
using namespace tlm;

namespace tracesim {

static const sc_time kPeriod(10, SC_NS);     // 100 MHz (the waves have one time unit per cycle)
static const unsigned kQuantumCycles = 1000; // the default global quantum, in cycles

// The hart and pc of a data access (simctrl answers per hart).
struct ts_hart_ext : tlm_extension<ts_hart_ext> {
    unsigned hart = 0;
    uint32_t pc = 0;
    tlm_extension_base *clone() const override {
        auto *e = new ts_hart_ext;
        *e = *this;
        return e;
    }
    void copy_from(const tlm_extension_base &o) override { *this = static_cast<const ts_hart_ext &>(o); }
};

// One hart's Verilated core: steps 1-3 of sim/soc.h at the rising edge of each cycle
// (called by the platform's clock thread, ts_clock_sc; `now` is the cycle's local time).
class ts_core_sc : public sc_module {
  public:
    ts_core_sc(sc_module_name name, soc_t *s, unsigned hart) : sc_module(name), s_(s), hart_(hart) {}
    void edge(const sc_time &now) {
        sc_assert(s_->cycle == now.value() / kPeriod.value());
        soc_step_hart(s_, hart_);
    }

  private:
    soc_t *s_;
    unsigned hart_;
};

// A C device model of sim/ (CLINT, UART, simctrl) as a TLM target: 1, 2 or 4 bytes at an
// offset of its block; the model's "no" is TLM_GENERIC_ERROR_RESPONSE (a bus error).
class ts_dev_sc : public sc_module {
  public:
    typedef bool (*fn_t)(void *model, unsigned hart, uint32_t off, unsigned size, bool we, uint32_t *val);
    tlm_utils::simple_target_socket<ts_dev_sc> socket;
    ts_dev_sc(sc_module_name name, void *model, uint32_t size, fn_t fn)
        : sc_module(name), socket("socket"), model_(model), size_(size), fn_(fn) {
        socket.register_b_transport(this, &ts_dev_sc::b_transport);
    }

  private:
    void b_transport(tlm_generic_payload &gp, sc_time &) {
        unsigned len = gp.get_data_length();
        uint64_t off = gp.get_address();
        if ((len != 1 && len != 2 && len != 4) || gp.get_streaming_width() < len || gp.get_byte_enable_ptr()) {
            gp.set_response_status(TLM_BURST_ERROR_RESPONSE);
            return;
        }
        if (off + len > size_) {
            gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        ts_hart_ext *e = nullptr;
        gp.get_extension(e);
        unsigned char *p = gp.get_data_ptr();
        bool we = gp.is_write();
        uint32_t v = 0;
        if (we)
            for (unsigned i = 0; i < len; i++) v |= (uint32_t)p[i] << (8 * i);
        if (!fn_(model_, e ? e->hart : 0, (uint32_t)off, len, we, &v)) {
            gp.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (!we)
            for (unsigned i = 0; i < len; i++) p[i] = (unsigned char)(v >> (8 * i));
        gp.set_response_status(TLM_OK_RESPONSE);
    }
    void *model_;
    uint32_t size_;
    fn_t fn_;
};

static bool clint_fn(void *m, unsigned, uint32_t off, unsigned size, bool we, uint32_t *v) {
    clint_t *c = static_cast<clint_t *>(m);
    return we ? clint_write(c, off, size, *v) : clint_read(c, off, size, v);
}
static bool uart_fn(void *m, unsigned, uint32_t off, unsigned size, bool we, uint32_t *v) {
    uart_t *u = static_cast<uart_t *>(m);
    return we ? uart_write(u, off, size, *v) : uart_read(u, off, size, v);
}
static bool simctrl_fn(void *m, unsigned hart, uint32_t off, unsigned size, bool we, uint32_t *v) {
    simctrl_t *c = static_cast<simctrl_t *>(m);
    return we ? simctrl_write(c, hart, off, size, *v) : simctrl_read(c, hart, off, size, v);
}

// RAM (the interconnect's RAM array) as a TLM target: any length inside it, and DMI.
class ts_ram_sc : public sc_module {
  public:
    tlm_utils::simple_target_socket<ts_ram_sc> socket;
    ts_ram_sc(sc_module_name name, bus_t *b) : sc_module(name), socket("socket"), b_(b) {
        socket.register_b_transport(this, &ts_ram_sc::b_transport);
        socket.register_get_direct_mem_ptr(this, &ts_ram_sc::get_dmi);
    }

  private:
    void b_transport(tlm_generic_payload &gp, sc_time &) {
        uint64_t off = gp.get_address();
        unsigned len = gp.get_data_length();
        if (off + len > b_->ram_size) {
            gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (gp.get_byte_enable_ptr() || gp.get_streaming_width() < len) {
            gp.set_response_status(TLM_BURST_ERROR_RESPONSE);
            return;
        }
        if (gp.is_write()) std::memcpy(b_->ram + off, gp.get_data_ptr(), len);
        else if (gp.is_read())
            std::memcpy(gp.get_data_ptr(), b_->ram + off, len);
        gp.set_dmi_allowed(true);
        gp.set_response_status(TLM_OK_RESPONSE);
    }
    bool get_dmi(tlm_generic_payload &, tlm_dmi &dmi) {
        dmi.set_dmi_ptr(b_->ram);
        dmi.set_start_address(0);
        dmi.set_end_address(b_->ram_size - 1);
        dmi.allow_read_write();
        dmi.set_read_latency(SC_ZERO_TIME);
        dmi.set_write_latency(SC_ZERO_TIME);
        return true;
    }
    bus_t *b_;
};

// The interconnect: sim/bus.c's rules, its leaf accesses as TLM transactions: the platform
// plugs itself in as every device target of the bus (bus_set_target, a forwarder per target)
// and as its RAM data path (bus_set_ram_access).
class ts_bus_sc : public sc_module {
  public:
    typedef tlm_utils::simple_initiator_socket_optional<ts_bus_sc> out_socket;
    tlm_utils::simple_target_socket<ts_bus_sc> sba_in; // the trace sink's SBA writes
    std::vector<std::unique_ptr<out_socket>> out;      // per enum bus_target
    ts_bus_sc(sc_module_name name, soc_t *s) : sc_module(name), sba_in("sba_in"), s_(s) {
        for (int t = 0; t < BUS_N_TARGETS; t++) {
            char n[32];
            std::snprintf(n, sizeof n, "out_%d", t);
            out.emplace_back(new out_socket(n));
        }
        sba_in.register_b_transport(this, &ts_bus_sc::sba_write);
        gp_.set_extension(&hart_);
        gp_.set_extension(&retry_);
        gp_.set_data_ptr(buf_);
    }
    // target t of the bus (sim/bus.h) as a transaction through out[t]; its tick stays the one
    // registered before (the model's: time is sim/'s)
    void plug(int t) {
        fwd &f = fwd_[t];
        f.bus = this;
        f.target = t;
        f.orig = s_->bus.tgt[t];
        bus_target_ops_t ops = {&f, fwd_read, fwd_write, f.orig.tick ? fwd_tick : nullptr};
        bus_set_target(&s_->bus, t, &ops);
    }
    void plug_ram() { bus_set_ram_access(&s_->bus, ram_access, this); }
    ~ts_bus_sc() override {
        gp_.clear_extension(&hart_);
        gp_.clear_extension(&retry_);
    }
    // fetches read the RAM through its DMI pointer
    void start_of_simulation() override {
        tlm_generic_payload gp;
        tlm_dmi dmi;
        gp.set_address(0);
        gp.set_command(TLM_READ_COMMAND);
        if (!(*out[BT_RAM])->get_direct_mem_ptr(gp, dmi) || !dmi.is_read_allowed())
            SC_REPORT_FATAL("tracesim/bus", "the RAM refused DMI");
        s_->bus.ram = dmi.get_dmi_ptr();
    }
    // an access of the bus to target t (offset off in it) as a transaction: the target's
    // answer (enum bus_answer; an encoder page's from the model, ts_retry_ext::result)
    enum bus_answer access(int target, unsigned hart, uint32_t pc, uint32_t off, unsigned size, bool we,
                           uint32_t *val) {
        gp_.set_command(we ? TLM_WRITE_COMMAND : TLM_READ_COMMAND);
        gp_.set_address(off);
        gp_.set_data_length(size);
        gp_.set_streaming_width(size);
        gp_.set_byte_enable_ptr(nullptr);
        gp_.set_response_status(TLM_INCOMPLETE_RESPONSE);
        for (unsigned i = 0; i < size; i++) buf_[i] = (unsigned char)(*val >> (8 * i));
        hart_.hart = hart;
        hart_.pc = pc;
        retry_.held = false;
        retry_.result = TE_OK;
        sc_time delay = local_; // the access's time: the cycle, ahead of the kernel's time
        (*out[target])->b_transport(gp_, delay);
        if (!gp_.is_response_ok()) return BUS_A_ERR;
        if (retry_.held) return BUS_A_WAIT;
        if (!we) {
            uint32_t v = 0;
            for (unsigned i = 0; i < size; i++) v |= (uint32_t)buf_[i] << (8 * i);
            *val = v;
        }
        return (enum bus_answer)retry_.result;
    }
    // the trace modules this edge ticks (step 4, before the bus: their SBA words take the RAM
    // port of this cycle); empty with --no-trace
    std::vector<ts_trace_sc *> trace;
    // an SBA word: into RAM, where it takes the RAM port for this cycle (bus.h rule 1)
    void sba_write(tlm_generic_payload &gp, sc_time &delay) {
        uint64_t addr = gp.get_address();
        unsigned len = gp.get_data_length();
        if (addr > 0xFFFFFFFFu || !bus_in_ram(&s_->bus, (uint32_t)addr, len)) {
            bus_sba_fault(&s_->bus, (uint32_t)addr);
            gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        gp.set_address(addr - s_->bus.ram_base);
        (*out[BT_RAM])->b_transport(gp, delay);
        gp.set_address(addr);
        if (gp.is_response_ok()) s_->bus.sba_busy = true;
    }
    // steps 4-7 of sim/soc.h: the trace tick of this cycle after every core's rising edge
    // (their software trace events reach the encoders before it), then the bus; `local` is
    // the cycle's time ahead of the kernel's (the quantum keeper's local time)
    void cycle_end(const sc_time &local) {
        local_ = local;
        for (ts_trace_sc *t : trace) t->catch_up_cycle(s_->cycle);
        soc_step_bus(s_);
        soc_step_end(s_); // the probes (probe_sba_write_i) see this cycle's SBA word
        s_->bus.sba_busy = false;
        if (s_->stop == SOC_RUNNING && s_->cfg.max_cycles && s_->cycle >= s_->cfg.max_cycles)
            s_->stop = SOC_CYCLE_LIMIT;
        if (s_->stop == SOC_RUNNING && s_->interrupt && *s_->interrupt) s_->stop = SOC_INTERRUPTED; // SIGINT/SIGTERM
    }

  private:
    struct fwd { // the context of target `target`'s callbacks
        ts_bus_sc *bus;
        int target;
        bus_target_ops_t orig;
    };
    static enum bus_answer fwd_read(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size,
                                    uint32_t *val) {
        fwd *f = static_cast<fwd *>(ctx);
        return f->bus->access(f->target, hart, pc, off, size, false, val);
    }
    static enum bus_answer fwd_write(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size,
                                     uint32_t val) {
        fwd *f = static_cast<fwd *>(ctx);
        return f->bus->access(f->target, hart, pc, off, size, true, &val);
    }
    static bool fwd_tick(void *ctx) {
        fwd *f = static_cast<fwd *>(ctx);
        return f->orig.tick(f->orig.ctx);
    }
    static void ram_access(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, bool we,
                           uint32_t *val) {
        if (static_cast<ts_bus_sc *>(ctx)->access(BT_RAM, hart, pc, off, size, we, val) != BUS_A_OK)
            SC_REPORT_FATAL("tracesim/bus", "RAM access refused inside RAM");
    }
    fwd fwd_[BUS_N_TARGETS] = {};
    sc_time local_;
    soc_t *s_;
    tlm_generic_payload gp_;
    unsigned char buf_[4] = {0, 0, 0, 0};
    ts_hart_ext hart_;
    ts_retry_ext retry_;
};

// The clock: one thread runs the cycles in the order of sim/soc.h - every hart's rising edge,
// then the trace tick and the bus (ts_bus_sc::cycle_end) - and keeps SystemC time with a
// TLM-2.0 quantum keeper (loosely timed, temporal decoupling): each cycle adds one period to
// the local time, and the thread yields to the kernel (wait) once the local time reaches the
// global quantum (tlm_global_quantum; 1000 cycles unless the program set one). Every access
// and SBA word carries its cycle's time as its TLM delay, so targets that look at time see
// the cycle they happen in. A kernel process per clock edge (an sc_clock and two
// SC_METHODs per cycle) nearly doubled the cost of a cycle; this costs a loop
// (docs/performance.md, "SystemC platform").
class ts_clock_sc : public sc_module {
  public:
    SC_HAS_PROCESS(ts_clock_sc);
    ts_clock_sc(sc_module_name name, soc_t *s, std::vector<std::unique_ptr<ts_core_sc>> &cores, ts_bus_sc &bus)
        : sc_module(name), s_(s), cores_(cores), bus_(bus) {
        SC_THREAD(run);
    }

  private:
    void run() {
        tlm_utils::tlm_quantumkeeper qk;
        if (tlm_global_quantum::instance().get() == SC_ZERO_TIME)
            tlm_global_quantum::instance().set(kPeriod * static_cast<double>(kQuantumCycles));
        qk.reset();
        wait(kPeriod * static_cast<double>(s_->cycle)); // the first cycle's time (0 after reset)
        while (s_->stop == SOC_RUNNING) {
            if (s_->between) { // the debugger (sim/gdb/gdb_stub.h) may halt here, between two cycles
                s_->between(s_->between_ctx, s_);
                if (s_->stop != SOC_RUNNING) break;
            }
            sc_time now = qk.get_current_time();
            for (auto &c : cores_) c->edge(now);
            bus_.cycle_end(qk.get_local_time());
            qk.inc(kPeriod);
            if (qk.need_sync()) qk.sync();
        }
        qk.sync();
        sc_stop();
    }
    soc_t *s_;
    std::vector<std::unique_ptr<ts_core_sc>> &cores_;
    ts_bus_sc &bus_;
};

struct platform {
    std::vector<std::unique_ptr<ts_core_sc>> cores;
    std::vector<std::unique_ptr<ts_te_sc>> te;
    std::unique_ptr<ts_funnel_sc> funnel;
    std::unique_ptr<ts_bus_sc> bus;
    std::unique_ptr<ts_ram_sc> ram;
    std::unique_ptr<ts_dev_sc> clint, uart, simctrl;
    std::unique_ptr<ts_clock_sc> clock;
    ts_trace_sc *sink_owner = nullptr;

    explicit platform(soc_t *s) {
        bus.reset(new ts_bus_sc("bus", s));
        ram.reset(new ts_ram_sc("ram", &s->bus));
        clint.reset(new ts_dev_sc("clint", &s->clint, MAP_CLINT_SIZE, clint_fn));
        uart.reset(new ts_dev_sc("uart", &s->uart, MAP_UART_SIZE, uart_fn));
        simctrl.reset(new ts_dev_sc("simctrl", &s->simctrl, MAP_SIMCTRL_SIZE, simctrl_fn));
        bus->out[BT_RAM]->bind(ram->socket);
        bus->out[BT_CLINT]->bind(clint->socket);
        bus->out[BT_UART]->bind(uart->socket);
        bus->out[BT_SIMCTRL]->bind(simctrl->socket);
        for (unsigned i = 0; i < s->n; i++) {
            char n[32];
            std::snprintf(n, sizeof n, "core%u", i);
            cores.emplace_back(new ts_core_sc(n, s, i));
            std::snprintf(n, sizeof n, "te%u", i);
            te.emplace_back(new ts_te_sc(n, &s->h[i].te, kPeriod));
            if (!s->cfg.no_trace) bus->trace.push_back(te.back().get());
            bus->out[BT_TRACE0 + i]->bind(te.back()->regs);
        }
        if (s->funnel_on) {
            funnel.reset(new ts_funnel_sc("funnel", &s->funnel, kPeriod));
            if (!s->cfg.no_trace) bus->trace.push_back(funnel.get());
            for (auto &t : te) funnel->attach(*t);
            bus->out[BT_FUNNEL]->bind(funnel->regs);
            funnel->sba.bind(bus->sba_in); // the encoders' own SBA words are dropped
            sink_owner = funnel.get();
        } else {
            te[0]->sba.bind(bus->sba_in);
            sink_owner = te[0].get();
        }
        // trace_events.csv's sink_stopped row, in the cycle tracesim run writes it
        sink_owner->on_sink_stop = [s](uint64_t cycle) {
            gt_log_trace_event(&s->h[0].gt, cycle, s->funnel_on ? -1 : 0, "sink_stopped", 0);
        };
        // software trace port events reach the encoder modules, which bring their model up
        // to the event's cycle first (soc.h: s->stm_event)
        s->stm_event = stm_event;
        s->stm_event_ctx = this;
        // the bus reaches its targets and its RAM through the sockets
        bus->plug(BT_CLINT);
        bus->plug(BT_UART);
        bus->plug(BT_SIMCTRL);
        for (unsigned i = 0; i < s->n; i++) bus->plug(BT_TRACE0 + (int)i);
        if (s->funnel_on) bus->plug(BT_FUNNEL);
        bus->plug_ram();
        clock.reset(new ts_clock_sc("clock", s, cores, *bus));
    }
    static enum te_stm_status stm_event(void *ctx, unsigned hart, uint64_t cycle, uint16_t id, uint32_t value) {
        return static_cast<platform *>(ctx)->te[hart]->stm_event(cycle, id, value);
    }
};

} // namespace tracesim

using namespace tracesim;

// builds the platform around an initialised and reset soc_t and runs it (ts_run_platform_t run)
static enum soc_stop sc_run(soc_t *s) {
    // the platform lives until the process ends (SystemC modules are not torn down mid-run)
    platform *p = new platform(s);
    sc_start();
    soc_run_end(s);
    if (p->sink_owner->sink_stopped()) s->sink_stop_cycle = p->sink_owner->sink_stop_cycle();
    return s->stop;
}

extern "C" const ts_run_platform_t ts_run_sc = {&ts_sc_cmd, sc_run, true, false};
