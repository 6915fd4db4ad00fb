// ts_core: tracesim's RV32IMAC (XLEN 32) or RV64IMAC (XLEN 64) core with M, S and U modes,
// a 5-stage in-order pipeline. One source for both: the parameter XLEN sets the width of the
// registers, the pipeline's operands and pcs, and the CSRs (docs/internals.md "RV64").
//
// Stages: IF (fetch + RVC expansion + static prediction) -> ID (decode, register read,
// load-use interlock) -> EX (ALU, multiply, iterative divide, branch resolution) ->
// MEM (data bus, CSRs, traps, mret, wfi, fence.i: the commit point) -> WB (register write).
//
// Memory interface: both buses are "request this cycle, answer this cycle": the address and
// request come from flops (or logic of flops only), the environment answers on *_rdy_i/
// *_rdata_i/*_err_i before the next rising edge. A request that is not ready is held
// unchanged until it is (wait states, a full ITC FIFO). Instruction fetch reads 32 bits at any
// halfword-aligned address; instr_err_i[0] faults the low halfword, [1] the high one (only
// relevant for 32-bit instructions).
//
// Counter CSRs (cycle, time, instret, hpmcounterN, mhpmeventN, mcountinhibit, mcounteren and
// their high halves) live in the C HPM model and are reached through DPI-C at the commit
// edge, exactly like the core's own CSRs. Events are reported one cycle late (ev_o describes
// the cycle that ended at the last rising edge); see rtl_model/regs/hpm_events.def.
//
// Timing (cycles per instruction class) is documented in (docs/internals.md "Pipeline and timing").
// Privilege: M, S and U modes with bare addressing (satp reads 0, sfence.vma is a no-op),
// mstatus SIE/SPIE/SPP/MPP/MPRV/MXR/TVM/TW/TSR, medeleg/mideleg, the supervisor CSRs,
// mcounteren/scounteren gating of the user counters, Sscofpmf's local counter overflow
// interrupt (irq_lcof_i sets mip.LCOFIP, bit 13). The mode is sent to the HPM model whenever
// it changes (ts_dpi_set_priv), for the MINH/SINH/UINH event filters. MPRV is stored and
// cleared as the spec says but changes nothing (no translation, no PMP). WFI in U-mode, or in
// S-mode with TW, traps at once (time limit 0).
// A extension: LR/SC and the AMOs are one data-port transaction each (the op code is the MEM
// register's, read by the bus in place; the bus does the read-modify-write and keeps the
// reservations; docs/internals.md "Atomics").
// Left out: PMP, debug mode, external interrupts (mip.MEIP reads 0; SEIP is
// software-writable only).
// RV64 (XLEN 64): the SoC's physical addresses are 32 bits, so the address and pc ports stay
// 32 bits wide: a fetch from a pc, or a load/store/AMO at an address, with any of bits 63:32
// set is an access fault (no request), as an access to an address where nothing is mapped.
// The data ports, the register write port and the register file are XLEN wide. Counters:
// mcycle, minstret, mhpmcounterN and mhpmeventN are 64-bit CSRs (the HPM model's low and high
// halves read and written together, ts_dpi_csr_read64); their `h` halves and mstatush are
// illegal instructions; misa.MXL, mstatus.UXL/SXL and sstatus.UXL read 2. The W forms are
// computed on the low 32 bits and sign-extended; 64-bit divides take 65 cycles.
module ts_core import ts_core_pkg::*, ts_events_pkg::*; #(parameter int unsigned XLEN = 32) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] hart_id_i,      // mhartid, sampled in reset
  input  logic [31:0] boot_addr_i,    // sampled while in reset (the ELF entry point)
  // instruction fetch
  output logic [31:0] instr_addr_o,
  input  logic        instr_rdy_i,
  input  logic [31:0] instr_rdata_i,
  input  logic [1:0]  instr_err_i,
  // data
  output logic        data_req_o,
  output logic        data_we_o,
  output logic [1:0]  data_size_o,    // 0 byte, 1 half, 2 word, 3 doubleword (RV64)
  output logic [31:0] data_addr_o,
  output logic [XLEN-1:0] data_wdata_o,
  output logic [31:0] data_pc_o,      // PC of the instruction making the request (for logs)
  input  logic        data_rdy_i,
  input  logic [XLEN-1:0] data_rdata_i,   // right-aligned, size bytes valid
  input  logic        data_err_i,
  // interrupts (level, from the CLINT)
  input  logic        irq_timer_i,
  input  logic        irq_software_i,
  // local counter overflow (Sscofpmf): a one-cycle pulse from the HPM model when a counter
  // overflowed with its OF bit clear; sets mip.LCOFIP
  input  logic        irq_lcof_i,
  // observation: events of the previous cycle, and the retire stream
  output logic [EvBits-1:0] ev_o,
  output logic        rvfi_valid_o,   // an instruction committed in the previous cycle
  output logic [31:0] rvfi_pc_o,
  output logic [31:0] rvfi_insn_o,
  output logic [4:0]  rvfi_rd_o,      // register written by that instruction (0: none)
  output logic [XLEN-1:0] rvfi_rd_wdata_o,
  output logic        rvfi_trap_o,    // a trap was taken in the previous cycle
  output logic [31:0] rvfi_cause_o,
  // software trace port (Open SoC Debug STM, rtl_model/regs/stm.def): the event of the
  // instruction that committed in the previous cycle
  input  logic        stm_tp_en_i,    // writes to x4 emit THREAD_SWITCH; sampled in reset
  output logic        stm_enable_o,
  output logic [15:0] stm_id_o,
  output logic [31:0] stm_value_o,
  output logic [31:0] pc_if_o, pc_id_o, pc_ex_o, pc_mem_o, pc_wb_o,
  output logic [4:0]  valid_o         // stage valid bits {WB, MEM, EX, ID, IF}
);
  // pc: the reading instruction's pc, for the simulator's ground-truth log (counters.csv)
  import "DPI-C" function int unsigned ts_dpi_csr_read(input int unsigned hart,
                                                        input int unsigned addr,
                                                        input int unsigned pc);
  import "DPI-C" function void ts_dpi_csr_write(input int unsigned hart, input int unsigned addr,
                                                input int unsigned value);
  // the privilege mode from the next cycle on (the HPM model filters events per mode)
  import "DPI-C" function void ts_dpi_set_priv(input int unsigned hart, input int unsigned priv);
  // RV64: a counter CSR as one 64-bit register (mcycle: the HPM model's mcycle and mcycleh;
  // mhpmeventN: mhpmeventN and mhpmeventNh; the others zero-extended; sim/dpi.c)
  import "DPI-C" function longint unsigned ts_dpi_csr_read64(input int unsigned hart,
                                                              input int unsigned addr,
                                                              input int unsigned pc);
  import "DPI-C" function void ts_dpi_csr_write64(input int unsigned hart, input int unsigned addr,
                                                  input longint unsigned value);

  localparam bit RV64 = (XLEN == 64);
  typedef logic [XLEN-1:0] xword_t;
  // a 32-bit value sign-extended to XLEN (the decoder's immediates; the W forms' results). A
  // macro, not a function: Verilator keeps a function's argument and result as variables of
  // the clocked evaluation, cleared in every cycle (6 host instructions per simulated cycle
  // on the RV32 model for three calls, where the macro costs nothing)
`define TS_SX32(v) (xword_t'($signed(32'(v))))

  // ---------------------------------------------------------------------------------------
  // Pipeline registers
  // ---------------------------------------------------------------------------------------
  xword_t      pc_q /*verilator public_flat_rd*/;  // IF

  logic        id_valid_q /*verilator public_flat_rd*/;  // IF/ID
  xword_t      id_pc_q /*verilator public_flat_rd*/;
  logic [31:0] id_instr_q, id_raw_q;
  logic        id_is_c_q, id_pred_q, id_ferr_q, id_cill_q;

  logic        ex_valid_q /*verilator public_flat_rd*/;  // ID/EX
  // (declared in the RV32 core's order: the model's members keep it, and the C++ compiler
  // merges the copies of neighbouring members; reordered, the RV32 model cost 6 host
  // instructions more per simulated cycle)
  xword_t      ex_pc_q /*verilator public_flat_rd*/;
  logic [31:0] ex_raw_q;
  xword_t      ex_rs1_q, ex_rs2_q, ex_imm_q;
  ctrl_t       ex_c_q;
  logic        ex_pred_q;
  logic        ex_exc_q;
  logic [3:0]  ex_cause_q;
  xword_t      ex_tval_q;

  logic        mem_valid_q /*verilator public_flat_rd*/;  // EX/MEM
  xword_t      mem_pc_q /*verilator public_flat_rd*/;
  logic [31:0] mem_raw_q;
  xword_t      mem_result_q, mem_addr_q, mem_wdata_q, mem_csr_src_q;
  /* verilator lint_off UNUSEDSIGNAL */
  ctrl_t       mem_c_q /*verilator public_flat_rd*/;  // not every decode bit is needed past EX
  /* verilator lint_on UNUSEDSIGNAL */
  logic        mem_exc_q;
  logic        mem_csr_missing_q;             // CSR instruction naming a CSR that does not exist
  logic        mem_stm_q;                     // an mstm write with a nonzero id (software trace port)
  logic [3:0]  mem_cause_q;
  xword_t      mem_tval_q;
  logic        mem_busy_q;                    // MEM has been waiting at least one cycle

  logic        wb_valid_q;                    // MEM/WB
  logic [4:0]  wb_rd_q;
  logic        wb_wen_q;                      // it writes a register: valid, rf_we, rd != x0
  xword_t      wb_result_q;
  logic [31:0] wb_pc_q;                         // (observation only: the retire port's pc)

  // public_flat_rd marks what the simulator reads in place (sim/vcore.cpp): the register
  // file, for the ground-truth log, which reads the hooks' argument registers as they were
  // when a hook function was entered (sim/ground_truth_log.h), the pipeline's valid bits and
  // pcs, the privilege and the interrupt CSRs; every Verilator 5 then keeps them as members
  xword_t      rf_q [32] /*verilator public_flat_rd*/;

  // privilege mode and the machine/supervisor CSRs kept in the core
  logic [1:0]  priv_q /*verilator public_flat_rd*/;
  logic        mstatus_mie_q /*verilator public_flat_rd*/, mstatus_sie_q /*verilator public_flat_rd*/;
  logic        mstatus_mpie_q, mstatus_spie_q, mstatus_spp_q;
  logic [1:0]  mstatus_mpp_q;
  logic        mstatus_mprv_q, mstatus_mxr_q, mstatus_tvm_q, mstatus_tw_q, mstatus_tsr_q;
  logic        mip_msip_q, mip_mtip_q;
  logic [13:0] mie_q /*verilator public_flat_rd*/;  // MSIE 3, MTIE 7, MEIE 11, SSIE 1, STIE 5, SEIE 9, LCOFIE 13
  logic [13:0] mip_sw_q;           // software-writable pending bits: SSIP 1, STIP 5, SEIP 9, LCOFIP 13
  logic [13:0] mideleg_q /*verilator public_flat_rd*/;  // SSI, STI, SEI, LCOFI
  logic [15:0] medeleg_q;
  xword_t      mtvec_q, mepc_q, mcause_q, mtval_q, mscratch_q;
  xword_t      stvec_q, sepc_q, scause_q, stval_q, sscratch_q;
  logic [31:0] scounteren_q;
  logic [31:0] mcounteren_q;       // copy of the HPM model's mcounteren (WARL value read back)

  // ---------------------------------------------------------------------------------------
  // Global control (computed below, declared here)
  // ---------------------------------------------------------------------------------------
  logic        redirect_mem, redirect_ex;
  /* verilator tracing_off */  // next-PC candidate: pc_q shows where fetch went
  xword_t      redirect_ex_pc;
  /* verilator tracing_on */
  logic        stall_mem, stall_ex, stall_id;
  logic        mem_done;          // MEM instruction leaves MEM this cycle (commit or trap)

  // ---------------------------------------------------------------------------------------
  // IF
  // ---------------------------------------------------------------------------------------
  logic        if_is_c, if_cill, if_ferr, if_pred_taken;
  logic [31:0] if_instr;
  /* verilator tracing_off */
  logic [31:0] if_exp;
  /* verilator tracing_on */

  ts_decompress #(.XLEN(XLEN)) u_decompress (.instr_i(instr_rdata_i[15:0]), .instr_o(if_exp), .illegal_o(if_cill));

  assign instr_addr_o = pc_q[31:0];
  assign if_is_c  = (instr_rdata_i[1:0] != 2'b11);
  assign if_instr = if_is_c ? if_exp : instr_rdata_i;
  // (RV64: a pc above the 32-bit physical address space faults; pc_q[XLEN-1:XLEN/2] is
  // bits 63:32 there, and never looked at on RV32)
  assign if_ferr  = instr_err_i[0] | (instr_err_i[1] & ~if_is_c) |
                    (RV64 && pc_q[XLEN-1:XLEN/2] != '0);

  // Static prediction on the expanded instruction: JAL always taken, conditional branches
  // taken when backward (BTFN). JALR is not predicted (resolved in EX).
  always_comb begin
    if_pred_taken = !if_ferr && (if_instr[6:0] == 7'b1101111 ||
                                 (if_instr[6:0] == 7'b1100011 && if_instr[31]));
  end

  // the next fetch pc (pc_d) is computed at the edge, in the clocked block below: as
  // combinational logic of the fetched word it was evaluated twice per cycle (Verilator's
  // input region, and again after the edge with the old word)
  function automatic xword_t next_pc();
    xword_t target;
    if (redirect_mem)          return redirect_mem_pc();
    else if (redirect_ex)      return redirect_ex_pc;
    else if (stall_id)         return pc_q;
    else if (!instr_rdy_i)     return pc_q;
    else if (if_pred_taken) begin
      if (if_instr[6:0] == 7'b1101111)
        target = pc_q + `TS_SX32({{11{if_instr[31]}}, if_instr[31], if_instr[19:12], if_instr[20],
                              if_instr[30:21], 1'b0});
      else
        target = pc_q + `TS_SX32({{19{if_instr[31]}}, if_instr[31], if_instr[7], if_instr[30:25],
                              if_instr[11:8], 1'b0});
      return target;
    end
    else                       return pc_q + (if_is_c ? XLEN'(2) : XLEN'(4));
  endfunction

  // mhartid: sampled in reset like boot_addr_i, so the port feeds no combinational logic
  // (an input that does makes Verilator evaluate that logic on every eval)
  logic [31:0] hart_id_q;
  logic        stm_tp_en_q;     // software trace port: THREAD_SWITCH on tp writes (run option)
  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      hart_id_q <= hart_id_i;
      stm_tp_en_q <= stm_tp_en_i;
    end
  end

  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      pc_q <= xword_t'(boot_addr_i);
      id_valid_q <= 1'b0;
      id_pc_q <= '0; id_instr_q <= '0; id_raw_q <= '0;
      id_is_c_q <= 1'b0; id_pred_q <= 1'b0; id_ferr_q <= 1'b0; id_cill_q <= 1'b0;
    end else begin
      if (redirect_mem || redirect_ex) begin
        id_valid_q <= 1'b0;
      end else if (!stall_id) begin
        id_valid_q <= instr_rdy_i;
        id_pc_q    <= pc_q;
        id_instr_q <= if_instr;
        id_raw_q   <= if_is_c ? {16'd0, instr_rdata_i[15:0]} : instr_rdata_i;
        id_is_c_q  <= if_is_c;
        id_pred_q  <= if_pred_taken;
        id_ferr_q  <= if_ferr;
        id_cill_q  <= if_is_c & if_cill;
      end
      pc_q <= next_pc();   // last: id_pc_q above reads pc_q (no delayed copy of pc_q)
    end
  end

  // ---------------------------------------------------------------------------------------
  // ID
  // ---------------------------------------------------------------------------------------
  ctrl_t       id_c;
  /* verilator tracing_off */  // visible one cycle later as ex_imm_q, ex_rs1_q, ex_rs2_q
  logic [31:0] id_imm;
  xword_t      id_rs1_val, id_rs2_val;
  /* verilator tracing_on */
  logic        id_exc;
  logic [3:0]  id_cause;
  xword_t      id_tval;

  logic        id_ecall, id_ebreak;
  ts_decode #(.XLEN(XLEN)) u_decode (.instr_i(id_instr_q), .is_c_i(id_is_c_q), .ctrl_o(id_c), .ecall_o(id_ecall),
                      .ebreak_o(id_ebreak), .imm_o(id_imm));

  // register read with write-through from WB
  always_comb begin
    id_rs1_val = rf_q[id_c.rs1];
    id_rs2_val = rf_q[id_c.rs2];
    if (wb_wen_q) begin
      if (wb_rd_q == id_c.rs1) id_rs1_val = wb_result_q;
      if (wb_rd_q == id_c.rs2) id_rs2_val = wb_result_q;
    end
    if (id_c.rs1 == 5'd0) id_rs1_val = '0;
    if (id_c.rs2 == 5'd0) id_rs2_val = '0;
  end

  always_comb begin
    id_exc = 1'b0; id_cause = '0; id_tval = '0;
    if (id_ferr_q) begin
      id_exc = 1'b1; id_cause = ExcInstrAccess; id_tval = id_pc_q;
    end else if (id_cill_q || id_c.illegal) begin
      id_exc = 1'b1; id_cause = ExcIllegal; id_tval = xword_t'(id_raw_q);
    end else if (id_ecall) begin
      id_exc = 1'b1; id_cause = ExcEcallM;
    end else if (id_ebreak) begin
      id_exc = 1'b1; id_cause = ExcBreakpoint; id_tval = id_pc_q;
    end
  end

  // load-use / CSR-read interlock: results of loads and CSR reads exist only in WB
  logic id_hazard;
  assign id_hazard = ex_valid_q && ex_c_q.rf_we && ex_c_q.rd != 5'd0 &&
                     (ex_c_q.is_load || ex_c_q.is_atomic || ex_c_q.csr_op != CsrNone) &&
                     ((id_c.use_rs1 && id_c.rs1 == ex_c_q.rd) ||
                      (id_c.use_rs2 && id_c.rs2 == ex_c_q.rd));
  assign stall_id = (id_valid_q && id_hazard) || stall_ex;

  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      ex_valid_q <= 1'b0;
      ex_pc_q <= '0; ex_raw_q <= '0; ex_rs1_q <= '0; ex_rs2_q <= '0; ex_imm_q <= '0;
      ex_c_q <= '0; ex_pred_q <= 1'b0; ex_exc_q <= 1'b0; ex_cause_q <= '0; ex_tval_q <= '0;
    end else begin
      if (redirect_mem || (redirect_ex && !stall_ex)) begin
        ex_valid_q <= 1'b0;
      end else if (stall_ex) begin
        // EX waits (MEM busy or divide): keep the operands current, because a value
        // forwarded from WB in the first cycle is not forwarded again once WB moves on
        ex_rs1_q <= fwd_rs1;
        ex_rs2_q <= fwd_rs2;
      end else begin
        ex_valid_q <= id_valid_q && !id_hazard;
        ex_pc_q    <= id_pc_q;
        ex_raw_q   <= id_raw_q;
        ex_rs1_q   <= id_rs1_val;
        ex_rs2_q   <= id_rs2_val;
        ex_imm_q   <= `TS_SX32(id_imm);
        ex_c_q     <= id_c;
        ex_pred_q  <= id_pred_q;
        ex_exc_q   <= id_exc;
        ex_cause_q <= id_cause;
        ex_tval_q  <= id_tval;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // EX
  // ---------------------------------------------------------------------------------------
  xword_t      fwd_rs1, fwd_rs2, op_a, op_b, alu_out, ex_result, ex_addr;
  /* verilator tracing_off */
  xword_t      ex_link;
  /* verilator tracing_on */
  logic        mem_fwd_ok;
  logic        br_taken, ex_mispredict, ex_exc;
  logic [3:0]  ex_cause;
  xword_t      ex_tval;
  logic        div_start, div_valid, div_kill;
  xword_t      div_result;
  logic        div_done_q;

  assign mem_fwd_ok = mem_valid_q && mem_c_q.rf_we && mem_c_q.rd != 5'd0 &&
                      !mem_c_q.is_load && !mem_c_q.is_atomic && mem_c_q.csr_op == CsrNone;

  always_comb begin
    fwd_rs1 = ex_rs1_q;
    fwd_rs2 = ex_rs2_q;
    if (ex_c_q.rs1 != 5'd0) begin
      if (mem_fwd_ok && mem_c_q.rd == ex_c_q.rs1) fwd_rs1 = mem_result_q;
      else if (wb_wen_q && wb_rd_q == ex_c_q.rs1) fwd_rs1 = wb_result_q;
    end
    if (ex_c_q.rs2 != 5'd0) begin
      if (mem_fwd_ok && mem_c_q.rd == ex_c_q.rs2) fwd_rs2 = mem_result_q;
      else if (wb_wen_q && wb_rd_q == ex_c_q.rs2) fwd_rs2 = wb_result_q;
    end
  end

  assign op_a = ex_c_q.a_pc ? ex_pc_q : fwd_rs1;
  assign op_b = ex_c_q.b_imm ? ex_imm_q : fwd_rs2;

  // the high half of the product (MULH, MULHSU, MULHU), a function called only in their
  // branch of the ALU: as an always_comb 64-bit product (its low half for MUL) Verilator
  // selected and multiplied in every cycle
  function automatic xword_t mul_hi();
    /* verilator lint_off UNUSEDSIGNAL */
    logic [2*XLEN-1:0] p;          // (the low half: MUL, op_a * op_b)
    /* verilator lint_on UNUSEDSIGNAL */
    unique case (ex_c_q.alu)
      AluMulh:   p = $signed({{XLEN{op_a[XLEN-1]}}, op_a}) * $signed({{XLEN{op_b[XLEN-1]}}, op_b});
      AluMulhsu: p = $signed({{XLEN{op_a[XLEN-1]}}, op_a}) * $signed({XLEN'(0), op_b});
      default:   p = {XLEN'(0), op_a} * {XLEN'(0), op_b};
    endcase
    return p[2*XLEN-1:XLEN];
  endfunction

  // RV64: the W forms (ADDIW ... REMUW; the decoder marks them with csr_imm, which an ALU
  // instruction does not otherwise set): the operation on the low 32 bits, sign-extended.
  // (a function called only for a W form: RV32 never calls it)
  function automatic xword_t alu_w();
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] r;
    /* verilator lint_on UNUSEDSIGNAL */
    unique case (ex_c_q.alu)
      AluAdd:  r = op_a[31:0] + op_b[31:0];
      AluSub:  r = op_a[31:0] - op_b[31:0];
      AluSll:  r = op_a[31:0] << op_b[4:0];
      AluSrl:  r = op_a[31:0] >> op_b[4:0];
      AluSra:  r = $unsigned($signed(op_a[31:0]) >>> op_b[4:0]);
      AluMul:  r = op_a[31:0] * op_b[31:0];
      default: r = div_result[31:0];   // DIVW, DIVUW, REMW, REMUW (operands extended below)
    endcase
    return `TS_SX32(r);
  endfunction
  localparam int unsigned ShW = RV64 ? 6 : 5;   // shift amount bits

  always_comb begin
    unique case (ex_c_q.alu)
      AluAdd:    alu_out = op_a + op_b;
      AluSub:    alu_out = op_a - op_b;
      AluSll:    alu_out = op_a << op_b[ShW-1:0];
      AluSlt:    alu_out = {(XLEN-1)'(0), $signed(op_a) < $signed(op_b)};
      AluSltu:   alu_out = {(XLEN-1)'(0), op_a < op_b};
      AluXor:    alu_out = op_a ^ op_b;
      AluSrl:    alu_out = op_a >> op_b[ShW-1:0];
      AluSra:    alu_out = $unsigned($signed(op_a) >>> op_b[ShW-1:0]);
      AluOr:     alu_out = op_a | op_b;
      AluAnd:    alu_out = op_a & op_b;
      AluMul:    alu_out = op_a * op_b;      // the low half, whatever the signs
      AluMulh, AluMulhsu, AluMulhu: alu_out = mul_hi();
      default:   alu_out = div_result;   // divide group
    endcase
    // (after the case, and constant-false on RV32: the RV32 core's ALU is what it was)
    if (RV64 && ex_c_q.csr_imm) alu_out = alu_w();
  end

  always_comb begin
    unique case (ex_c_q.br_f3)
      3'b000:  br_taken = (fwd_rs1 == fwd_rs2);
      3'b001:  br_taken = (fwd_rs1 != fwd_rs2);
      3'b100:  br_taken = ($signed(fwd_rs1) < $signed(fwd_rs2));
      3'b101:  br_taken = ($signed(fwd_rs1) >= $signed(fwd_rs2));
      3'b110:  br_taken = (fwd_rs1 < fwd_rs2);
      default: br_taken = (fwd_rs1 >= fwd_rs2);
    endcase
  end

  assign ex_link = ex_pc_q + (ex_c_q.is_c ? XLEN'(2) : XLEN'(4));
  assign ex_addr = fwd_rs1 + ex_imm_q;   // loads, stores, JALR

  always_comb begin
    ex_mispredict = 1'b0;
    redirect_ex_pc = ex_link;
    if (ex_c_q.is_jalr) begin
      ex_mispredict  = 1'b1;
      redirect_ex_pc = {ex_addr[XLEN-1:1], 1'b0};
    end else if (ex_c_q.is_jal) begin
      ex_mispredict  = !ex_pred_q;   // only if IF did not see it (never in practice)
      redirect_ex_pc = ex_pc_q + ex_imm_q;   // (the target added only where it is used)
    end else if (ex_c_q.is_branch) begin
      ex_mispredict  = (br_taken != ex_pred_q);
      redirect_ex_pc = br_taken ? ex_pc_q + ex_imm_q : ex_link;
    end
  end

  // divider: started once per divide instruction in EX; div_started_q/div_done_q belong to
  // the instruction currently in EX and clear when it leaves (or is flushed)
  logic div_started_q;
  /* verilator tracing_off */  // (ex_c_q.alu)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [4:0] ex_alu;
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator tracing_on */
  assign ex_alu = ex_c_q.alu;
  if (AluDiv != 5'd14 || AluDivu != 5'd15 || AluRem != 5'd16 || AluRemu != 5'd17) begin : g_div_enc
    $error("ts_core: the divide operations' encoding changed (see u_div's signed_i, rem_i)");
  end
  assign div_start = ex_valid_q && ex_c_q.is_div && !ex_exc_q && !div_started_q;
  assign div_kill  = redirect_mem;
  // RV64's DIVW/REMW (DIVUW/REMUW) divide the low words sign- (zero-) extended to 64 bits.
  // (generated for RV64 only: on RV32 the operands are fwd_rs1/fwd_rs2 as they were, with no
  // combinational block evaluated in every cycle)
  xword_t div_a, div_b;
  if (RV64) begin : g_div_w
    always_comb begin
      div_a = fwd_rs1; div_b = fwd_rs2;
      if (ex_c_q.csr_imm) begin
        div_a = ex_alu[0] ? xword_t'(fwd_rs1[31:0]) : `TS_SX32(fwd_rs1[31:0]);
        div_b = ex_alu[0] ? xword_t'(fwd_rs2[31:0]) : `TS_SX32(fwd_rs2[31:0]);
      end
    end
  end else begin : g_div
    assign div_a = fwd_rs1;
    assign div_b = fwd_rs2;
  end
  ts_div #(.W(XLEN)) u_div (
    .clk_i, .rst_ni, .start_i(div_start), .kill_i(div_kill),
    // the divider samples these with start_i only, for a divide (AluDiv 01110, AluDivu 01111,
    // AluRem 10000, AluRemu 10001): DIV/REM have bit 0 clear, REM/REMU bit 4 set. Bits, not
    // compares: the port expressions are evaluated in every cycle
    .signed_i(!ex_alu[0]),
    .rem_i(ex_alu[4]),
    .a_i(div_a), .b_i(div_b),
    .valid_o(div_valid), .result_o(div_result)
  );
  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      div_started_q <= 1'b0;
      div_done_q    <= 1'b0;
    end else if (redirect_mem || !stall_ex) begin
      div_started_q <= 1'b0;
      div_done_q    <= 1'b0;
    end else begin
      if (div_start) div_started_q <= 1'b1;
      if (div_valid) div_done_q <= 1'b1;
    end
  end
  logic div_wait;
  assign div_wait = ex_valid_q && ex_c_q.is_div && !ex_exc_q && !(div_valid || div_done_q);

  assign ex_result = (ex_c_q.is_jal || ex_c_q.is_jalr) ? ex_link :
                     (ex_c_q.is_lui ? ex_imm_q : alu_out);

  // misaligned data access (taken at MEM, no bus request)
  always_comb begin
    ex_exc = ex_exc_q; ex_cause = ex_cause_q; ex_tval = ex_tval_q;
    if (!ex_exc_q && (ex_c_q.is_load || ex_c_q.is_store || ex_c_q.is_atomic)) begin
      if ((ex_c_q.ls_size == 2'd1 && ex_addr[0]) ||
          (ex_c_q.ls_size == 2'd2 && ex_addr[1:0] != 2'b00) ||
          (RV64 && ex_c_q.ls_size == 2'd3 && ex_addr[2:0] != 3'b000)) begin
        ex_exc   = 1'b1;
        // (LR: load misaligned; SC and AMOs: store/AMO)
        ex_cause = (ex_c_q.is_load || (ex_c_q.is_atomic && ex_c_q.csr_addr[11:7] == 5'b00010))
                   ? ExcLoadMisaligned : ExcStoreMisaligned;
        ex_tval  = ex_addr;
      end else if (RV64 && ex_addr[XLEN-1:XLEN/2] != '0) begin
        // RV64: above the 32-bit physical address space: an access fault, no request
        ex_exc   = 1'b1;
        ex_cause = (ex_c_q.is_load || (ex_c_q.is_atomic && ex_c_q.csr_addr[11:7] == 5'b00010))
                   ? ExcLoadAccess : ExcStoreAccess;
        ex_tval  = ex_addr;
      end
    end
  end

  assign stall_ex    = stall_mem || div_wait;
  assign redirect_ex = ex_valid_q && !ex_exc_q && ex_mispredict && !stall_ex && !redirect_mem;

  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      mem_valid_q <= 1'b0;
      mem_pc_q <= '0; mem_raw_q <= '0; mem_result_q <= '0; mem_addr_q <= '0;
      mem_wdata_q <= '0; mem_csr_src_q <= '0; mem_c_q <= '0;
      mem_exc_q <= 1'b0; mem_cause_q <= '0; mem_tval_q <= '0; mem_csr_missing_q <= 1'b0;
      mem_stm_q <= 1'b0;
    end else begin
      if (redirect_mem) begin
        mem_valid_q <= 1'b0;
      end else if (!stall_mem) begin
        mem_valid_q   <= ex_valid_q && !stall_ex;
        mem_pc_q      <= ex_pc_q;
        mem_raw_q     <= ex_raw_q;
        mem_result_q  <= ex_result;
        mem_addr_q    <= ex_addr;
        mem_wdata_q   <= fwd_rs2;
        mem_csr_src_q <= ex_c_q.csr_imm ? {(XLEN-5)'(0), ex_c_q.rs1} : fwd_rs1;
        mem_c_q       <= ex_c_q;
        // the CSR address decoder runs only for CSR instructions (a clocked branch: as
        // combinational logic it would be evaluated in every simulated cycle)
        if (ex_c_q.csr_op != CsrNone) begin
          if (RV64) mem_csr_missing_q <= csr_missing64(ex_c_q.csr_addr);
          else      mem_csr_missing_q <= csr_missing(ex_c_q.csr_addr);
          // an mstm write with a nonzero id (mstm reads 0: the operand is the value written,
          // csrc writes 0; bits 31:16 are ignored)
          mem_stm_q <= ex_c_q.csr_addr == CsrMstm && ex_c_q.csr_op != CsrRc &&
                       (ex_c_q.csr_imm ? {11'd0, ex_c_q.rs1} : fwd_rs1[15:0]) != 16'd0;
        end else begin
          mem_csr_missing_q <= 1'b0;
          mem_stm_q <= 1'b0;
        end
        mem_exc_q     <= ex_exc;
        mem_cause_q   <= ex_cause;
        mem_tval_q    <= ex_tval;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // MEM: data bus, CSRs, traps
  // ---------------------------------------------------------------------------------------
  logic        irq_pending, take_irq, take_exc, take_trap;
  logic [3:0]  irq_cause;
  logic        csr_illegal, priv_illegal;
  logic        wfi_wait, ls_wait, bus_fault;
  /* verilator tracing_off */  // visible as wb_result_q
  xword_t      load_val;
  /* verilator tracing_on */

  // Interrupts: pending & enabled; the ones delegated by mideleg go to S-mode and are taken
  // in U-mode, or in S-mode with sstatus.SIE; the others go to M-mode and are taken in a
  // lower mode, or in M-mode with mstatus.MIE. Priority: M-level before S-level, then
  // MEI, MSI, MTI, SEI, SSI, STI, LCOFI.
  logic [13:0] mip_all, irq_m_pend, irq_s_pend;
  // pending and enabled (mip & mie): also read in place by traps.csv's pending cycle
  // (sim/ground_truth_log.h), one load per cycle instead of four flops combined there
  logic [13:0] irq_pend /*verilator public_flat_rd*/;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [13:0] irq_sel;            // only the bits of existing interrupts are looked at
  /* verilator lint_on UNUSEDSIGNAL */
  logic        irq_m, irq_s;
  assign mip_all    = mip_sw_q | {6'd0, mip_mtip_q, 3'd0, mip_msip_q, 3'd0};
  assign irq_pend   = mip_all & mie_q;
  // the rest only when an interrupt is pending and enabled (rare): the values it gives with
  // irq_pend 0 are set first, so that Verilator evaluates the selection only then
  always_comb begin
    irq_m_pend = '0; irq_s_pend = '0; irq_m = 1'b0; irq_s = 1'b0; irq_sel = '0;
    irq_cause = 4'd13;
    if (irq_pend != '0) begin
      irq_m_pend = irq_pend & ~mideleg_q;
      irq_s_pend = irq_pend & mideleg_q;
      irq_m = (irq_m_pend != '0) && (priv_q != PrivM || mstatus_mie_q);
      irq_s = (irq_s_pend != '0) && (priv_q == PrivU || (priv_q == PrivS && mstatus_sie_q));
      irq_sel = irq_m ? irq_m_pend : irq_s_pend;
      if      (irq_sel[11]) irq_cause = 4'd11;
      else if (irq_sel[3])  irq_cause = 4'd3;
      else if (irq_sel[7])  irq_cause = 4'd7;
      else if (irq_sel[9])  irq_cause = 4'd9;
      else if (irq_sel[1])  irq_cause = 4'd1;
      else if (irq_sel[5])  irq_cause = 4'd5;
      else                  irq_cause = 4'd13;
    end
  end
  assign irq_pending = irq_m || irq_s;
  // interrupts are taken on an instruction entering MEM (never in the middle of a bus wait
  // and never on WFI itself, so that WFI completes and the handler returns after it)
  assign take_irq = mem_valid_q && irq_pending && !mem_busy_q && !mem_c_q.is_wfi;

  // CSRRS/CSRRC (and their immediate forms) write only when the rs1 field is not x0/0
  // (a function, evaluated only for a SYSTEM instruction in MEM and at a CSR commit: as a
  // continuous assign Verilator computed it in every cycle)
  function automatic logic csr_writes();
    return (mem_c_q.csr_op == CsrRw) || (mem_c_q.rs1 != 5'd0);
  endfunction
  // privilege of a CSR: address bits 9:8; counters cycle..hpmcounter31[h] from S/U-mode
  // need their mcounteren bit, from U-mode also their scounteren bit; satp from S-mode
  // traps with mstatus.TVM
  logic        csr_ctr_user, csr_ctr_denied;
  logic [4:0]  csr_ctr_idx;
  assign csr_ctr_user = mem_c_q.csr_addr[11:8] == 4'hC && mem_c_q.csr_addr[6:5] == 2'b00;
  assign csr_ctr_idx  = mem_c_q.csr_addr[4:0];
  assign csr_ctr_denied = csr_ctr_user &&
                          ((priv_q != PrivM && !mcounteren_q[csr_ctr_idx]) ||
                           (priv_q == PrivU && !scounteren_q[csr_ctr_idx]));
  // csr_illegal and priv_illegal are 0 unless MEM holds a SYSTEM (or FENCE) instruction:
  // computed only then (as plain assigns Verilator evaluated them in every cycle)
  always_comb begin
    csr_illegal = 1'b0;
    priv_illegal = 1'b0;
    if (mem_c_q.is_system) begin
      csr_illegal = (mem_c_q.csr_op != CsrNone) &&
                    (mem_csr_missing_q ||
                     (csr_writes() && mem_c_q.csr_addr[11:10] == 2'b11) ||
                     (priv_q < mem_c_q.csr_addr[9:8]) || csr_ctr_denied ||
                     (mem_c_q.csr_addr == CsrSatp && priv_q == PrivS && mstatus_tvm_q));
      // mret only in M-mode; sret in S-mode unless mstatus.TSR, and in M-mode; wfi in U-mode
      // never, in S-mode not with mstatus.TW (the time limit is 0); sfence.vma not in U-mode,
      // not in S-mode with mstatus.TVM
      priv_illegal = (mem_c_q.is_mret && priv_q != PrivM) ||
                     (mem_c_q.is_sret && (priv_q == PrivU ||
                                          (priv_q == PrivS && mstatus_tsr_q))) ||
                     (mem_c_q.is_wfi && (priv_q == PrivU ||
                                         (priv_q == PrivS && mstatus_tw_q))) ||
                     (mem_c_q.is_sfence && (priv_q == PrivU ||
                                            (priv_q == PrivS && mstatus_tvm_q)));
    end
  end

  assign data_req_o   = mem_valid_q && (mem_c_q.is_load || mem_c_q.is_store || mem_c_q.is_atomic) &&
                        !mem_exc_q && !take_irq;
  assign data_we_o    = mem_c_q.is_store;
  assign data_size_o  = mem_c_q.ls_size;
  // A extension: an LR, SC or AMO makes one request with data_we_o 0 (what it writes is the
  // bus's business); what it does is the MEM register's {csr_imm, csr_addr[11:7]}: csr_imm
  // set, then its funct5 (ts_core_pkg), which the bus reads in place (mem_c_q is
  // public_flat_rd; sim/vcore.h vcore_data_amo). As an output port the 6 bits cost 9 host
  // instructions per simulated cycle (0.8 %); read in place, nothing. The bus answers rdata =
  // the old value (SC: 0 stored, 1 failed).
  assign data_addr_o  = mem_addr_q[31:0];   // (RV64: bits 63:32 are 0, or EX faulted)
  assign data_wdata_o = mem_wdata_q;
  assign data_pc_o    = mem_pc_q[31:0];

  assign ls_wait   = data_req_o && !data_rdy_i;
  assign bus_fault = data_req_o && data_rdy_i && data_err_i;
  // WFI waits until any interrupt is pending and enabled in mie, whatever the global
  // enables and the delegation say
  assign wfi_wait  = mem_valid_q && mem_c_q.is_wfi && !mem_exc_q && (irq_pend == '0);

  // take_exc: mem_valid_q && !take_irq && (mem_exc_q || bus_fault || csr_illegal ||
  // priv_illegal); bus_fault implies data_req_o, which implies mem_valid_q && !take_irq, so
  // it is take_exc_nb (below, computed once per cycle after the edge) or the bus fault: the
  // part evaluated twice per cycle (the input region and after the edge) is one OR
  assign take_exc  = take_exc_nb || bus_fault;
  assign take_trap = take_irq || take_exc;
  assign stall_mem = !take_trap && (ls_wait || wfi_wait);
  assign mem_done  = mem_valid_q && !stall_mem;

  // The trap's cause, tval, target mode and vector, the next privilege mode and the MEM
  // redirect target are functions called in the clocked blocks, evaluated at the edge only
  // (and mostly only when a trap is taken): as combinational logic of the bus answer
  // (bus_fault) they were evaluated twice in every cycle.
  function automatic logic [3:0] trap_cause();
    if (mem_exc_q) begin
      if (mem_cause_q == ExcEcallM) return ExcEcallU | {2'b00, priv_q};  // 8, 9 or 11
      return mem_cause_q;
    end else if (bus_fault) begin
      // (LR: load access fault; SC and AMOs: store/AMO)
      return (mem_c_q.is_load || (mem_c_q.is_atomic && mem_c_q.csr_addr[11:7] == 5'b00010))
             ? ExcLoadAccess : ExcStoreAccess;
    end else if (csr_illegal || priv_illegal) begin
      return ExcIllegal;
    end
    return mem_cause_q;
  endfunction
  // visible as mtval_q / stval_q
  function automatic xword_t trap_tval();
    if (mem_exc_q)                         return mem_tval_q;
    else if (bus_fault)                    return mem_addr_q;
    else if (csr_illegal || priv_illegal)  return xword_t'(mem_raw_q);
    return mem_tval_q;
  endfunction
  function automatic logic [3:0] trap_code();
    return take_irq ? irq_cause : trap_cause();
  endfunction
  // trap to S-mode: taken in S- or U-mode and delegated (medeleg / mideleg)
  function automatic logic trap_to_s();
    return (priv_q != PrivM) && (take_irq ? !irq_m : medeleg_q[trap_cause()]);
  endfunction

  // do_mret, do_sret and do_csr (below) read take_trap without the bus fault (trap_nb): an
  // xRET or a CSR instruction never waits in MEM nor faults on the bus (no load or store),
  // so for them stall_mem is 0 and take_trap is trap_nb. Not depending on the data bus
  // answer, they are evaluated once per cycle, after the edge, and not also in the input
  // region (when the C side has answered).
  /* verilator tracing_off */
  logic       take_exc_nb, trap_nb;
  /* verilator tracing_on */
  assign take_exc_nb = mem_valid_q && !take_irq && (mem_exc_q || csr_illegal || priv_illegal);
  assign trap_nb     = take_irq || take_exc_nb;
  logic       do_mret, do_sret;
  assign do_mret = mem_valid_q && !trap_nb && mem_c_q.is_mret;
  assign do_sret = mem_valid_q && !trap_nb && mem_c_q.is_sret;

  // redirect_mem: a trap, or an xRET or fence.i leaving MEM; these never wait in MEM (no load
  // or store, not WFI: stall_mem is 0 for them), so the part that does not depend on the
  // data bus answer is taken once per cycle after the edge and only the OR with take_trap is
  // evaluated twice
  /* verilator tracing_off */
  logic       redirect_mem_nb;
  /* verilator tracing_on */
  assign redirect_mem_nb = mem_valid_q && (mem_c_q.is_mret || mem_c_q.is_sret || mem_c_q.is_fencei);
  assign redirect_mem    = take_trap || redirect_mem_nb;
  // where MEM redirects fetch to (when redirect_mem)
  function automatic xword_t redirect_mem_pc();
    /* verilator lint_off UNUSEDSIGNAL */
    xword_t vec;                   // bit 1 is always 0 (WARL modes 0 and 1)
    /* verilator lint_on UNUSEDSIGNAL */
    if (take_trap) begin
      vec = trap_to_s() ? stvec_q : mtvec_q;
      return {vec[XLEN-1:2], 2'b00} +
             ((take_irq && vec[0]) ? {(XLEN-6)'(0), irq_cause, 2'b00} : XLEN'(0));
    end else if (mem_c_q.is_mret) return mepc_q;
    else if (mem_c_q.is_sret)     return sepc_q;
    return mem_pc_q + (mem_c_q.is_c ? XLEN'(2) : XLEN'(4));   // fence.i
  endfunction

  // privilege mode after this cycle
  function automatic logic [1:0] priv_d();
    if (take_trap)    return trap_to_s() ? PrivS : PrivM;
    else if (do_mret) return mstatus_mpp_q;
    else if (do_sret) return {1'b0, mstatus_spp_q};
    return priv_q;
  endfunction

  always_comb begin
    unique case ({mem_c_q.ls_unsigned, mem_c_q.ls_size})
      3'b000:  load_val = {{(XLEN-8){data_rdata_i[7]}}, data_rdata_i[7:0]};
      3'b001:  load_val = {{(XLEN-16){data_rdata_i[15]}}, data_rdata_i[15:0]};
      3'b100:  load_val = {(XLEN-8)'(0), data_rdata_i[7:0]};
      3'b101:  load_val = {(XLEN-16)'(0), data_rdata_i[15:0]};
      default: load_val = data_rdata_i;
    endcase
    // RV64: LW sign-extends, LWU zero-extends (LD, the default above, takes all 64 bits);
    // constant-false on RV32
    if (RV64 && mem_c_q.ls_size == 2'd2)
      load_val = mem_c_q.ls_unsigned ? xword_t'(data_rdata_i[31:0]) : `TS_SX32(data_rdata_i[31:0]);
  end

  // CSR read of the core's own registers
  // mstatus: SIE 1, MIE 3, SPIE 5, MPIE 7, SPP 8, MPP 12:11, MPRV 17, MXR 19, TVM 20, TW 21,
  // TSR 22; SUM is read-only 0 (satp.MODE is read-only Bare), no FS/VS/XS, little-endian
  // (computed only when a CSR instruction commits, inside the clocked block: as always_comb
  // logic the read multiplexer would be evaluated in every simulated cycle)
  // RV64: SXL (35:34) and UXL (33:32) read 2 (64-bit S- and U-mode), read-only
  // (no local variable: see TS_SX32)
  function automatic xword_t mstatus_val();
    return xword_t'({RV64 ? 4'b1010 : 4'b0000, 9'd0, mstatus_tsr_q, mstatus_tw_q, mstatus_tvm_q,
                     mstatus_mxr_q, 1'b0, mstatus_mprv_q, 4'd0, mstatus_mpp_q, 2'd0,
                     mstatus_spp_q, mstatus_mpie_q, 1'b0, mstatus_spie_q, 1'b0, mstatus_mie_q,
                     1'b0, mstatus_sie_q, 1'b0});
  endfunction
  // misa: MXL 1 (RV32) or 2 (RV64), extensions A C I M S U
  localparam xword_t MisaVal = RV64 ? xword_t'({2'b10, 62'h0141105})
                                    : xword_t'(32'h4014_1105);
  // sstatus: SIE, SPIE, SPP, SUM, MXR (and UXL on RV64)
  localparam xword_t SstatusMask = RV64 ? xword_t'(64'h3_000C_0122) : xword_t'(32'h000C_0122);

  function automatic xword_t csr_read_local(logic [11:0] a);
    unique case (a)
      CsrMstatus:   return mstatus_val();
      CsrMisa:      return MisaVal;
      CsrMedeleg:   return {(XLEN-16)'(0), medeleg_q};
      CsrMideleg:   return {(XLEN-14)'(0), mideleg_q};
      CsrMie:       return {(XLEN-14)'(0), mie_q};
      CsrMtvec:     return mtvec_q;
      CsrMscratch:  return mscratch_q;
      CsrMepc:      return mepc_q;
      CsrMcause:    return mcause_q;
      CsrMtval:     return mtval_q;
      CsrMip:       return {(XLEN-14)'(0), mip_all};
      CsrMhartid:   return xword_t'(hart_id_q);
      CsrSstatus:   return mstatus_val() & SstatusMask;
      CsrSie:       return {(XLEN-14)'(0), mie_q & mideleg_q};
      CsrSip:       return {(XLEN-14)'(0), mip_all & mideleg_q};
      CsrStvec:     return stvec_q;
      CsrScounteren:return xword_t'(scounteren_q);
      CsrSscratch:  return sscratch_q;
      CsrSepc:      return sepc_q;
      CsrScause:    return scause_q;
      CsrStval:     return stval_q;
      default:      return '0;   // satp (Bare only), mvendorid, marchid, mimpid, mstatush, mstm
    endcase
  endfunction


  logic do_csr;
  assign do_csr = mem_valid_q && mem_c_q.csr_op != CsrNone && !trap_nb;   // (see do_mret)
  // software trace port state (see "Software trace port" below)
  logic        wb_stm_q, wb_a0_write;
  logic [15:0] wb_stm_id_q;
  logic [31:0] stm_a0_q, wb_stm_value_q;   // (RV64: the low words of a0)
  assign wb_a0_write = wb_wen_q && wb_rd_q == 5'd10;

  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      priv_q <= PrivM;
      mstatus_mie_q <= 1'b0; mstatus_mpie_q <= 1'b0; mstatus_sie_q <= 1'b0;
      mstatus_spie_q <= 1'b0; mstatus_spp_q <= 1'b0; mstatus_mpp_q <= PrivM;
      mstatus_mprv_q <= 1'b0; mstatus_mxr_q <= 1'b0; mstatus_tvm_q <= 1'b0;
      mstatus_tw_q <= 1'b0; mstatus_tsr_q <= 1'b0;
      mie_q <= '0; mip_sw_q <= '0; mideleg_q <= '0; medeleg_q <= '0;
      mip_msip_q <= 1'b0; mip_mtip_q <= 1'b0;
      mtvec_q <= xword_t'(boot_addr_i); mepc_q <= '0; mcause_q <= '0; mtval_q <= '0; mscratch_q <= '0;
      stvec_q <= '0; sepc_q <= '0; scause_q <= '0; stval_q <= '0; sscratch_q <= '0;
      scounteren_q <= '0; mcounteren_q <= '0;
      mem_busy_q <= 1'b0;
      wb_valid_q <= 1'b0; wb_rd_q <= '0; wb_wen_q <= 1'b0; wb_result_q <= '0; wb_pc_q <= '0;
    end else begin
      // Every flop of this block is read before it is written, in program order (a trap, an
      // xRET and a CSR instruction never commit in the same cycle, but Verilator does not
      // know that): the CSR read, the registers the sie/sip writes read, the mstatus bits
      // the xRET branches read and the next privilege mode are taken first, and LCOFIP, the
      // privilege mode and the interrupt lines are written last. Verilator then keeps no
      // delayed copies of these flops.
      /* verilator tracing_off */
      xword_t      csr_old;
      logic        mpie_old, spie_old;
      logic [1:0]  mpp_old, priv_n;
      logic [13:0] mie_old, mideleg_old, mip_sw_old;
      /* verilator tracing_on */
      // (each is set only in the branches that read it: as defaults they were stored in every
      // cycle, being variables of the model)
      // (nested: Verilator evaluates both operands of &&, so is_counter_csr()'s range
      // compares ran in every cycle)
      if (do_csr) begin
        if (!is_counter_csr(mem_c_q.csr_addr)) begin
          csr_old = csr_read_local(mem_c_q.csr_addr);
          mie_old = mie_q; mideleg_old = mideleg_q; mip_sw_old = mip_sw_q;
        end
      end
      if (take_trap || do_mret || do_sret) priv_n = priv_d();
      if (do_mret || do_sret) begin
        mpie_old = mstatus_mpie_q; spie_old = mstatus_spie_q; mpp_old = mstatus_mpp_q;
      end

      if (take_trap) begin         // (nested: trap_to_s() is evaluated only for a trap)
        if (trap_to_s()) begin
          sepc_q         <= mem_pc_q;
          scause_q       <= {take_irq, (XLEN-5)'(0), trap_code()};
          stval_q        <= take_irq ? XLEN'(0) : trap_tval();
          mstatus_spp_q  <= priv_q[0];
          mstatus_spie_q <= mstatus_sie_q;
          mstatus_sie_q  <= 1'b0;
        end else begin
          mepc_q         <= mem_pc_q;
          mcause_q       <= {take_irq, (XLEN-5)'(0), trap_code()};
          mtval_q        <= take_irq ? XLEN'(0) : trap_tval();
          mstatus_mpp_q  <= priv_q;
          mstatus_mpie_q <= mstatus_mie_q;
          mstatus_mie_q  <= 1'b0;
        end
      end else if (do_mret) begin
        mstatus_mie_q  <= mpie_old;
        mstatus_mpie_q <= 1'b1;
        mstatus_mpp_q  <= PrivU;
        if (mpp_old != PrivM) mstatus_mprv_q <= 1'b0;
      end else if (do_sret) begin
        mstatus_sie_q  <= spie_old;
        mstatus_spie_q <= 1'b1;
        mstatus_spp_q  <= 1'b0;
        mstatus_mprv_q <= 1'b0;
      end

      // WB register
      wb_valid_q <= mem_done && !take_trap;
      wb_rd_q    <= mem_c_q.rd;
      // (the three tests once here, not in each of the six places that read it)
      wb_wen_q   <= commit && mem_c_q.rf_we && mem_c_q.rd != 5'd0;
      wb_pc_q    <= mem_pc_q[31:0];
      if (mem_c_q.is_load || mem_c_q.is_atomic) wb_result_q <= load_val;   // (atomics: the old value)
      else                 wb_result_q <= mem_result_q;

      if (do_csr) begin
        if (is_counter_csr(mem_c_q.csr_addr)) begin
          /* verilator tracing_off */
          xword_t      ext_old, ext_new;
          /* verilator tracing_on */
          if (RV64) ext_old = xword_t'(ts_dpi_csr_read64(hart_id_q, {20'd0, mem_c_q.csr_addr}, mem_pc_q[31:0]));
          else      ext_old = xword_t'(ts_dpi_csr_read(hart_id_q, {20'd0, mem_c_q.csr_addr}, mem_pc_q[31:0]));
          unique case (mem_c_q.csr_op)
            CsrRs:   ext_new = ext_old | mem_csr_src_q;
            CsrRc:   ext_new = ext_old & ~mem_csr_src_q;
            default: ext_new = mem_csr_src_q;
          endcase
          if (csr_writes()) begin
            if (RV64) ts_dpi_csr_write64(hart_id_q, {20'd0, mem_c_q.csr_addr}, 64'(ext_new));
            else      ts_dpi_csr_write(hart_id_q, {20'd0, mem_c_q.csr_addr}, ext_new[31:0]);
          end
          // scountovf from S-mode: only the bits mcounteren grants
          if (mem_c_q.csr_addr == CsrScountovf && priv_q != PrivM)
            ext_old = ext_old & xword_t'(mcounteren_q);
          // the core keeps a copy of mcounteren for its counter-access checks
          if (csr_writes() && mem_c_q.csr_addr == CsrMcounteren)
            mcounteren_q <= ts_dpi_csr_read(hart_id_q, {20'd0, CsrMcounteren}, mem_pc_q[31:0]);
          wb_result_q <= ext_old;
        end else begin
          /* verilator tracing_off */
          xword_t      csr_new;
          /* verilator tracing_on */
          unique case (mem_c_q.csr_op)
            CsrRs:   csr_new = csr_old | mem_csr_src_q;
            CsrRc:   csr_new = csr_old & ~mem_csr_src_q;
            default: csr_new = mem_csr_src_q;
          endcase
          wb_result_q <= csr_old;
          if (csr_writes()) begin
            unique case (mem_c_q.csr_addr)
              CsrMstatus: begin
                mstatus_sie_q  <= csr_new[1];
                mstatus_mie_q  <= csr_new[3];
                mstatus_spie_q <= csr_new[5];
                mstatus_mpie_q <= csr_new[7];
                mstatus_spp_q  <= csr_new[8];
                if (csr_new[12:11] != 2'b10) mstatus_mpp_q <= csr_new[12:11];  // WARL: M, S, U
                mstatus_mprv_q <= csr_new[17];
                mstatus_mxr_q  <= csr_new[19];
                mstatus_tvm_q  <= csr_new[20];
                mstatus_tw_q   <= csr_new[21];
                mstatus_tsr_q  <= csr_new[22];
              end
              CsrSstatus: begin
                mstatus_sie_q  <= csr_new[1];
                mstatus_spie_q <= csr_new[5];
                mstatus_spp_q  <= csr_new[8];
                mstatus_mxr_q  <= csr_new[19];
              end
              CsrSie:      mie_q      <= (mie_old & ~mideleg_old) | (csr_new[13:0] & mideleg_old);
              CsrSip:      mip_sw_q   <= (mip_sw_old & ~(mideleg_old & 14'h2002)) |
                                         (csr_new[13:0] & mideleg_old & 14'h2002) |
                                         {irq_lcof_i, 13'd0};   // SSIP, LCOFIP
              CsrMedeleg:  medeleg_q  <= csr_new[15:0] & 16'hB3FF;  // not 10, 11 (ecall from M), 14
              CsrMideleg:  mideleg_q  <= csr_new[13:0] & 14'h2222;  // SSI, STI, SEI, LCOFI
              CsrMie:      mie_q      <= csr_new[13:0] & 14'h2AAA;
              CsrMip:      if (!irq_lcof_i) mip_sw_q <= csr_new[13:0] & 14'h2222;
                           else             mip_sw_q <= (csr_new[13:0] & 14'h2222) | 14'h2000;
              CsrMtvec:    mtvec_q    <= {csr_new[XLEN-1:2], 1'b0, csr_new[0]};
              CsrStvec:    stvec_q    <= {csr_new[XLEN-1:2], 1'b0, csr_new[0]};
              CsrMscratch: mscratch_q <= csr_new;
              CsrSscratch: sscratch_q <= csr_new;
              CsrMepc:     mepc_q     <= {csr_new[XLEN-1:1], 1'b0};
              CsrSepc:     sepc_q     <= {csr_new[XLEN-1:1], 1'b0};
              CsrMcause:   mcause_q   <= csr_new;
              CsrScause:   scause_q   <= csr_new;
              CsrMtval:    mtval_q    <= csr_new;
              CsrStval:    stval_q    <= csr_new;
              CsrScounteren: scounteren_q <= csr_new[31:0];
              default: ;   // satp: Bare only, writes ignored
            endcase
          end
        end
      end
      // a counter overflow (Sscofpmf) sets LCOFIP; software clears it (a CSR write of mip
      // or sip in the same cycle keeps it set too)
      if (irq_lcof_i) mip_sw_q[13] <= 1'b1;
      if (take_trap || do_mret || do_sret) begin
        if (priv_n != priv_q) ts_dpi_set_priv(hart_id_q, {30'd0, priv_n});
        priv_q <= priv_n;   // (after the read above: no delayed copy of priv_q)
      end
      mip_msip_q <= irq_software_i;
      mip_mtip_q <= irq_timer_i;
      mem_busy_q <= stall_mem;
    end
  end

  // ---------------------------------------------------------------------------------------
  // WB
  // ---------------------------------------------------------------------------------------
  always_ff @(`TS_CLK_EDGE clk_i) begin
    if (wb_wen_q) rf_q[wb_rd_q] <= wb_result_q;
  end

  // ---------------------------------------------------------------------------------------
  // Software trace port. a0 is tracked at writeback; a committing write to mstm with a
  // nonzero id takes a0 as the older instructions left it (the one in WB included) and shows
  // the event from the WB register in the next cycle, like the retire port. A trap between
  // the a0 write and the CSR write cannot split them: the handler's restore of a0 is a write
  // the tracker follows.
  // ---------------------------------------------------------------------------------------
  // no reset: wb_stm_q follows mem_valid_q, which is reset
  always_ff @(`TS_CLK_EDGE clk_i) begin
    if (wb_a0_write) stm_a0_q <= wb_result_q[31:0];
    wb_stm_q <= mem_stm_q && do_csr;
    if (mem_stm_q && do_csr) begin
      wb_stm_id_q    <= mem_csr_src_q[15:0];
      wb_stm_value_q <= wb_a0_write ? wb_result_q[31:0] : stm_a0_q;
    end
  end
  // between events the port reads id 0, value 0 (NONE in the waves' filter): cheaper per
  // simulated cycle than 0x8000 and the WB result between events, and cheaper than
  // registering them (a tp write known at commit).
  logic stm_tp_event;
  assign stm_tp_event = stm_tp_en_q && wb_wen_q && wb_rd_q == 5'd4;
  assign stm_enable_o = wb_stm_q || stm_tp_event;
  assign stm_id_o     = wb_stm_q ? wb_stm_id_q
                      : stm_tp_event ? 16'(ts_events_pkg::StmIdTHREAD_SWITCH) : 16'd0;
  assign stm_value_o  = wb_stm_q ? wb_stm_value_q : stm_tp_event ? wb_result_q[31:0] : 32'd0;

  // ---------------------------------------------------------------------------------------
  // Observation: events and retire stream, registered (they describe the previous cycle)
  //
  // Program trace (sim/soc.c prog_retire) reads the pipeline in place for the pc that
  // follows the instruction the retire port shows: the first valid of MEM, EX, ID
  // (mem/ex/id_valid_q, mem/ex/id_pc_q), else pc_q. A rework must keep that true (every
  // younger valid instruction on the right path once the retire port shows its elder) or
  // give the port a next-pc (a registered one costs host instructions in every cycle).
  // ---------------------------------------------------------------------------------------
  // ev_d is computed in the clocked block, once per cycle: as always_comb logic it depends on
  // the bus inputs, so Verilator evaluated it twice per cycle (the input region and after
  // the edge), the largest of the model's cuts (docs/performance.md, Why it is fast).
  logic [EvBits-1:0] ev_q;
  logic        commit;
  assign commit = mem_done && !take_trap;

  // (a function: its value is local to the evaluation, which the C++ compiler keeps in a
  // register; a variable of the clocked block lives in the model). One OR of shifted bits:
  // as one assignment per bit Verilator masked and merged every bit into the vector in every
  // cycle.
  function automatic logic [EvBits-1:0] ev_vector();
    // EvLoad, EvStore, EvAtomic, EvSystem, EvIntArith, EvCondBranch, EvJal, EvJalr,
    // EvMul, EvDiv of the committing instruction
    logic [9:0] cls;
    // A quiet cycle (most cycles): nothing stalls (stall_id covers stall_ex, stall_mem,
    // ls_wait, wfi_wait, div_wait and the load-use hazard), nothing redirects (redirect_mem
    // covers a trap, an xRET and fence.i committing) and the fetch was answered. Then every
    // event but the cycle, the retirement, its class and MMIO is 0 and commit is mem_valid_q:
    // four tests instead of building every bit.
    if (!stall_id && !redirect_ex && !redirect_mem && instr_rdy_i) begin
      cls = mem_valid_q ? ev_class(mem_c_q) : 10'd0;
      return (EvBits'(1'b1)         << EvCycle) |
             (EvBits'(mem_valid_q)  << EvRetire) |
             (EvBits'(cls)          << EvLoad) |
             (EvBits'(mem_valid_q && (mem_c_q.is_load || mem_c_q.is_store) &&
                      mem_addr_q[31:28] != 4'h8) << EvMmio);
    end
    cls = commit ? ev_class(mem_c_q) : 10'd0;
    return (EvBits'(1'b1)                << EvCycle) |
           (EvBits'(commit)              << EvRetire) |
           (EvBits'(take_exc)            << EvExcTaken) |
           (EvBits'(take_irq)            << EvIrqTaken) |
           (EvBits'(cls)                 << EvLoad) |
           (EvBits'(id_valid_q && id_hazard && !stall_ex && !redirect_ex && !redirect_mem)
                                         << EvLoadUse) |
           (EvBits'(div_wait && !stall_mem) << EvLongLatency) |
           (EvBits'(!instr_rdy_i)        << EvIBusy) |
           (EvBits'(ls_wait)             << EvDBusy) |
           (EvBits'(redirect_ex && ex_c_q.is_branch)  << EvBrMispredict) |
           (EvBits'(redirect_ex && !ex_c_q.is_branch) << EvJmpMispredict) |
           (EvBits'(mem_valid_q && !stall_mem && !take_trap && mem_c_q.is_fencei) << EvFlushCsr) |
           (EvBits'(take_trap || do_mret || do_sret) << EvFlushOther) |
           (EvBits'(commit && (mem_c_q.is_load || mem_c_q.is_store) && mem_addr_q[31:28] != 4'h8)
                                         << EvMmio) |
           (EvBits'(wfi_wait)            << EvWfi);
  endfunction

  // (the retirement and its pc are the WB register's wb_valid_q and wb_pc_q: the same
  // values, set under the same conditions, one flop each instead of two)
  logic        rvfi_trap_q;
  logic [31:0] rvfi_insn_q, rvfi_cause_q;
  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      ev_q <= '0; rvfi_trap_q <= 1'b0;
      rvfi_insn_q <= '0; rvfi_cause_q <= '0;
    end else begin
      ev_q         <= ev_vector();
      rvfi_trap_q  <= take_trap;
      rvfi_insn_q  <= mem_raw_q;
      rvfi_cause_q <= {take_irq, 27'd0, take_irq ? irq_cause : trap_cause()};
    end
  end
  assign ev_o         = ev_q;
  assign rvfi_valid_o = wb_valid_q;   // (wb_valid_q <= mem_done && !take_trap, i.e. commit)
  assign rvfi_pc_o    = wb_pc_q;      // (wb_pc_q <= mem_pc_q)
  assign rvfi_insn_o  = rvfi_insn_q;
  assign rvfi_trap_o  = rvfi_trap_q;
  // the WB register holds the instruction that committed in the previous cycle
  assign rvfi_rd_o       = wb_wen_q ? wb_rd_q : 5'd0;     // (x0: 0 either way)
  assign rvfi_rd_wdata_o = wb_wen_q ? wb_result_q : XLEN'(0);
  assign rvfi_cause_o = rvfi_cause_q;
  assign pc_if_o  = pc_q[31:0];
  assign pc_id_o  = id_pc_q[31:0];
  assign pc_ex_o  = ex_pc_q[31:0];
  assign pc_mem_o = mem_pc_q[31:0];
  assign pc_wb_o  = wb_pc_q;
  assign valid_o  = {wb_valid_q, mem_valid_q, ex_valid_q, id_valid_q, instr_rdy_i};

  // For the waveforms: why the pipeline does not advance this cycle (waves/filters/stall.txt)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2:0] dbg_stall_reason;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    if (ls_wait)                      dbg_stall_reason = 3'd3;
    else if (wfi_wait)                dbg_stall_reason = 3'd4;
    else if (div_wait)                dbg_stall_reason = 3'd2;
    else if (id_valid_q && id_hazard) dbg_stall_reason = 3'd1;
    else if (!instr_rdy_i)            dbg_stall_reason = 3'd5;
    else                              dbg_stall_reason = 3'd0;
  end
endmodule
`undef TS_SX32
