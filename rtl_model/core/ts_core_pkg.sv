// ts_core_pkg: types and constants shared by the core's modules.

// Clock edge of every flop. Synthesis, lint and other simulators see `posedge`. The tracesim
// simulator builds with +define+TS_CLK_EDGE=edge and toggles clk_i once per cycle, so each
// cycle costs one Verilator eval instead of two; the behaviour per cycle
// is identical.
`ifndef TS_CLK_EDGE
`define TS_CLK_EDGE posedge
`endif

// Reset event of the flops with a reset: asynchronous (active low) for synthesis, lint and
// other simulators. The tracesim simulator builds with +define+TS_SYNC_RESET: it holds rst_ni
// low from power-up for 4 clock edges (sim/soc.c soc_reset) and never lowers it again, so a
// synchronous reset gives the same state in every cycle, and Verilator then evaluates one
// trigger instead of two and keeps no delayed copies of the flops (fewer host instructions
// per simulated cycle, docs/performance.md).
`ifdef TS_SYNC_RESET
`define TS_RST_EVENT
`else
`define TS_RST_EVENT or negedge rst_ni
`endif
package ts_core_pkg;

  typedef enum logic [4:0] {
    AluAdd, AluSub, AluSll, AluSlt, AluSltu, AluXor, AluSrl, AluSra, AluOr, AluAnd,
    AluMul, AluMulh, AluMulhsu, AluMulhu, AluDiv, AluDivu, AluRem, AluRemu
  } alu_op_e;

  typedef enum logic [1:0] { CsrNone, CsrRw, CsrRs, CsrRc } csr_op_e;

  // ctrl_t is kept at 64 bits or less: Verilator handles a wider struct as a multi-word value
  // and the simulator gets much slower (ecall/ebreak are separate decode outputs, used
  // in ID only)
  typedef struct packed {
    logic [4:0]  rd;
    logic [4:0]  rs1;
    logic [4:0]  rs2;
    logic        use_rs1;
    logic        use_rs2;
    logic        rf_we;
    alu_op_e     alu;
    logic        a_pc;      // operand A = PC (AUIPC)
    logic        b_imm;     // operand B = immediate
    logic        is_lui;
    logic [1:0]  ls_size;
    logic        ls_unsigned;
    logic [2:0]  br_f3;
    csr_op_e     csr_op;
    logic        csr_imm;
    logic [11:0] csr_addr;
    logic        is_mret;
    logic        is_sret;
    logic        is_sfence;  // sfence.vma: a no-op (bare addressing), privilege-checked
    logic        is_wfi;
    logic        is_fencei;
    logic        illegal;
    logic        is_c;
    // the instruction classes, in the order of their events in the event vector
    // (ts_events_pkg EvLoad..EvDiv, bits 3..12), so that the core reports them with one shift
    // (ev_class below). is_atomic: LR, SC and the AMOs (A extension), which set neither
    // is_load nor is_store (each retired instruction is in one class); the core treats them
    // as loads where the result comes from the data port (load-use interlock, no forwarding
    // from MEM, rd from the port at WB). ctrl_t has no spare bit, so an atomic also sets
    // csr_imm (never read for it) and keeps its funct5 (bits 31:27) in csr_addr[11:7]: the
    // data port's data_amo_o is {csr_imm, csr_addr[11:7]}, one slice of the MEM register
    logic        is_div;
    logic        is_mul;
    logic        is_jalr;
    logic        is_jal;
    logic        is_branch;
    logic        is_arith;
    logic        is_system;
    logic        is_atomic;
    logic        is_store;
    logic        is_load;
  } ctrl_t;

  // the events EvLoad..EvDiv of an instruction (bit 0: EvLoad). Each retired instruction is
  // in exactly one class: LR, SC and the AMOs count as EvAtomic only (rtl_model/regs/
  // hpm_events.def)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [9:0] ev_class(ctrl_t c);
    return {c.is_div, c.is_mul, c.is_jalr, c.is_jal, c.is_branch, c.is_arith, c.is_system,
            c.is_atomic, c.is_store, c.is_load};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // exception causes
  localparam logic [3:0] ExcInstrAccess     = 4'd1;
  localparam logic [3:0] ExcIllegal         = 4'd2;
  localparam logic [3:0] ExcBreakpoint      = 4'd3;
  localparam logic [3:0] ExcLoadMisaligned  = 4'd4;
  localparam logic [3:0] ExcLoadAccess      = 4'd5;
  localparam logic [3:0] ExcStoreMisaligned = 4'd6;
  localparam logic [3:0] ExcStoreAccess     = 4'd7;
  localparam logic [3:0] ExcEcallU          = 4'd8;   // ecall causes: 8 + privilege mode
  localparam logic [3:0] ExcEcallM          = 4'd11;

  // privilege modes
  localparam logic [1:0] PrivU = 2'd0;
  localparam logic [1:0] PrivS = 2'd1;
  localparam logic [1:0] PrivM = 2'd3;

  // CSRs kept in the core
  localparam logic [11:0] CsrSstatus   = 12'h100;
  localparam logic [11:0] CsrSie       = 12'h104;
  localparam logic [11:0] CsrStvec     = 12'h105;
  localparam logic [11:0] CsrScounteren= 12'h106;
  localparam logic [11:0] CsrSscratch  = 12'h140;
  localparam logic [11:0] CsrSepc      = 12'h141;
  localparam logic [11:0] CsrScause    = 12'h142;
  localparam logic [11:0] CsrStval     = 12'h143;
  localparam logic [11:0] CsrSip       = 12'h144;
  localparam logic [11:0] CsrSatp      = 12'h180;
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMedeleg   = 12'h302;
  localparam logic [11:0] CsrMideleg   = 12'h303;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;

  localparam logic [11:0] CsrMcounteren = 12'h306;
  // software trace port (rtl_model/regs/stm.def): custom machine read/write CSR, reads 0
  localparam logic [11:0] CsrMstm = 12'(ts_events_pkg::StmCSR);
  localparam logic [11:0] CsrScountovf  = 12'hDA0;

  // Counter CSRs handled by the C HPM model (DPI): mcounteren, mcountinhibit, mhpmevent3-31
  // and (Sscofpmf) their high halves mhpmevent3h-31h, scountovf,
  // mcycle/minstret/mhpmcounter3-31 and high halves, and the user read-only aliases.
  function automatic logic is_counter_csr(logic [11:0] a);
    return (a == 12'h306) || (a == 12'h320) || (a == CsrScountovf) ||
           (a >= 12'h323 && a <= 12'h33F) || (a >= 12'h723 && a <= 12'h73F) ||
           (a == 12'hB00) || (a >= 12'hB02 && a <= 12'hB1F) ||
           (a == 12'hB80) || (a >= 12'hB82 && a <= 12'hB9F) ||
           (a >= 12'hC00 && a <= 12'hC1F) || (a >= 12'hC80 && a <= 12'hC9F);
  endfunction

  // A CSR address this core does not implement (the instruction traps as illegal). Both
  // function calls are whole right-hand sides, never operands: Verilator 5.032 turns a call
  // inside an expression into a C++ lambda, and for this one (its case, a tree with the
  // default in every leaf, held 54 copies of is_counter_csr) GCC 14 kept the lambda out of
  // line, so the 110 locals it captures were zeroed at every evaluation of the clocked logic
  // (the figures: docs/performance.md, "Why it is fast").
  function automatic logic csr_missing(logic [11:0] a);
    logic counter;
    counter = is_counter_csr(a);
    unique case (a)
      CsrMstatus, CsrMisa, CsrMie, CsrMtvec, CsrMstatush, CsrMscratch, CsrMepc, CsrMcause,
      CsrMtval, CsrMip, CsrMvendorid, CsrMarchid, CsrMimpid, CsrMhartid,
      CsrMedeleg, CsrMideleg, CsrSstatus, CsrSie, CsrStvec, CsrScounteren, CsrSscratch,
      CsrSepc, CsrScause, CsrStval, CsrSip, CsrSatp, CsrMstm: return 1'b0;
      default: return !counter;
    endcase
  endfunction

  // RV64: the `h` halves of the counters (mcycleh, minstreth, mhpmcounterNh, cycleh, timeh,
  // instreth, hpmcounterNh), of the events (mhpmeventNh, Sscofpmf: their bits are mhpmeventN's
  // 63:56) and mstatush do not exist: accessing one is an illegal instruction
  function automatic logic csr_missing64(logic [11:0] a);
    logic missing;
    missing = csr_missing(a);
    return missing || (a >= 12'hB80 && a <= 12'hB9F) || (a >= 12'hC80 && a <= 12'hC9F) ||
           (a >= 12'h723 && a <= 12'h73F) || (a == CsrMstatush);
  endfunction
endpackage
