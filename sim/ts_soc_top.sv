// ts_soc_top: the Verilated top level. One core; the bus, RAM, CLINT, UART, simctrl and the
// trace/HPM models are C code driven by sim/soc.c through these ports every cycle.
// XLEN: the core's (32: Vts_soc_top, 64: Vts_soc_top64, sim/CMakeLists.txt). Addresses and
// pcs are 32 bits wide for both (the SoC's physical address space); the data ports and the
// register write value are XLEN wide.
module ts_soc_top import ts_events_pkg::*; #(parameter int unsigned XLEN = 32) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] hart_id_i,
  input  logic [31:0] boot_addr_i,
  output logic [31:0] instr_addr_o,
  input  logic        instr_rdy_i,
  input  logic [31:0] instr_rdata_i,
  input  logic [1:0]  instr_err_i,
  output logic        data_req_o,
  output logic        data_we_o,
  output logic [1:0]  data_size_o,
  output logic [31:0] data_addr_o,
  output logic [XLEN-1:0] data_wdata_o,
  output logic [31:0] data_pc_o,
  input  logic        data_rdy_i,
  input  logic [XLEN-1:0] data_rdata_i,
  input  logic        data_err_i,
  input  logic        irq_timer_i,
  input  logic        irq_software_i,
  input  logic        irq_lcof_i,           // HPM counter overflow (Sscofpmf LCOFI)
  output logic [EvBits-1:0] ev_o,
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_pc_o,
  output logic [31:0] rvfi_insn_o,
  output logic [4:0]  rvfi_rd_o,
  output logic [XLEN-1:0] rvfi_rd_wdata_o,
  output logic        rvfi_trap_o,
  output logic [31:0] rvfi_cause_o,
  input  logic        stm_tp_en_i,          // software trace port: --stm-thread-switch
  output logic        stm_enable_o,
  output logic [15:0] stm_id_o,
  output logic [31:0] stm_value_o,
  // Probes: state of the C models, driven by sim/soc.c while waves are dumped, so that it
  // appears in the same waveform, aligned to the core's cycles (not used by any logic).
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [63:0] probe_cycle_i,        // simulator cycle count
  input  logic        probe_dumping_i,      // 1 while the waves are dumped; 0 in the sample that
                                            // ends a dumped stretch (the gap after it)
  input  logic [7:0]  probe_itc_level_i,    // ITC FIFO entries
  input  logic        probe_itc_full_i,     // a stimulus store would not be accepted
  input  logic        probe_itc_stall_i,    // a stimulus store waited this cycle
  input  logic [31:0] probe_te_control_i,   // teControl as software reads it
  input  logic        probe_te_enable_i,
  input  logic        probe_te_tracing_i,
  input  logic        probe_te_empty_i,
  input  logic        probe_te_overflow_i,  // teStallOrOverflow
  input  logic [5:0]  probe_te_tcode_i,     // TCODE of the message packed this cycle (0: none)
  input  logic [5:0]  probe_te_msg_len_i,   // its length in bytes
  input  logic [15:0] probe_te_icnt_i,      // program trace: I-CNT (16-bit units) not yet reported
  input  logic [5:0]  probe_sink_nbytes_i,  // bytes that entered the sink this cycle
  input  logic [63:0] probe_sink_bytes_i,   // the first 8 of them, first byte in bits 7:0
  input  logic [31:0] probe_sink_wp_i,      // sink write pointer (bit 0: wrap flag)
  input  logic        probe_sba_write_i,    // the SBA sink wrote RAM this cycle
  input  logic        probe_sba_conflict_i, // ... and a core data access waited for it
  input  logic        probe_bus_arb_i,      // this hart's data access lost arbitration to another hart
  input  logic        probe_funnel_take_i,  // the funnel took a message this cycle (hart 0's scope)
  input  logic [2:0]  probe_funnel_src_i,   // ... from this source (hart)
  input  logic [5:0]  probe_funnel_nbytes_i,// bytes the funnel put into the sink this cycle
  input  logic [63:0] probe_mcycle_i,
  input  logic [63:0] probe_minstret_i,
  input  logic [63:0] probe_hpm3_i, probe_hpm4_i, probe_hpm5_i, probe_hpm6_i,
  input  logic [63:0] probe_hpm7_i, probe_hpm8_i, probe_hpm9_i, probe_hpm10_i
  /* verilator lint_on UNUSEDSIGNAL */
);
  // stage PCs and valid bits: not used by the C side, present for the waveforms
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] pc_if, pc_id, pc_ex, pc_mem, pc_wb;
  logic [4:0]  stage_valid;
  /* verilator lint_on UNUSEDSIGNAL */

  ts_core #(.XLEN(XLEN)) u_core (
    .clk_i, .rst_ni, .hart_id_i, .boot_addr_i,
    .instr_addr_o, .instr_rdy_i, .instr_rdata_i, .instr_err_i,
    .data_req_o, .data_we_o, .data_size_o, .data_addr_o, .data_wdata_o, .data_pc_o,
    .data_rdy_i, .data_rdata_i, .data_err_i,
    .irq_timer_i, .irq_software_i, .irq_lcof_i,
    .ev_o, .rvfi_valid_o, .rvfi_pc_o, .rvfi_insn_o, .rvfi_rd_o, .rvfi_rd_wdata_o, .rvfi_trap_o, .rvfi_cause_o,
    .stm_tp_en_i, .stm_enable_o, .stm_id_o, .stm_value_o,
    .pc_if_o(pc_if), .pc_id_o(pc_id), .pc_ex_o(pc_ex), .pc_mem_o(pc_mem), .pc_wb_o(pc_wb),
    .valid_o(stage_valid)
  );
endmodule
