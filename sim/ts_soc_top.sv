// ts_soc_top: the Verilated top level. One core; the bus, RAM, CLINT, UART, simctrl and the
// trace/HPM models are C code driven by sim/soc.c through these ports every cycle.
module ts_soc_top import ts_events_pkg::*; (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] boot_addr_i,
  output logic [31:0] instr_addr_o,
  input  logic        instr_rdy_i,
  input  logic [31:0] instr_rdata_i,
  input  logic [1:0]  instr_err_i,
  output logic        data_req_o,
  output logic        data_we_o,
  output logic [1:0]  data_size_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  output logic [31:0] data_pc_o,
  input  logic        data_rdy_i,
  input  logic [31:0] data_rdata_i,
  input  logic        data_err_i,
  input  logic        irq_timer_i,
  input  logic        irq_software_i,
  output logic [EvBits-1:0] ev_o,
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_pc_o,
  output logic [31:0] rvfi_insn_o,
  output logic [4:0]  rvfi_rd_o,
  output logic [31:0] rvfi_rd_wdata_o,
  output logic        rvfi_trap_o,
  output logic [31:0] rvfi_cause_o
);
  // stage PCs and valid bits: not used by the C side, present for the waveforms
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] pc_if, pc_id, pc_ex, pc_mem, pc_wb;
  logic [4:0]  stage_valid;
  /* verilator lint_on UNUSEDSIGNAL */

  ts_core #(.HartId(32'd0)) u_core (
    .clk_i, .rst_ni, .boot_addr_i,
    .instr_addr_o, .instr_rdy_i, .instr_rdata_i, .instr_err_i,
    .data_req_o, .data_we_o, .data_size_o, .data_addr_o, .data_wdata_o, .data_pc_o,
    .data_rdy_i, .data_rdata_i, .data_err_i,
    .irq_timer_i, .irq_software_i,
    .ev_o, .rvfi_valid_o, .rvfi_pc_o, .rvfi_insn_o, .rvfi_rd_o, .rvfi_rd_wdata_o, .rvfi_trap_o, .rvfi_cause_o,
    .pc_if_o(pc_if), .pc_id_o(pc_id), .pc_ex_o(pc_ex), .pc_mem_o(pc_mem), .pc_wb_o(pc_wb),
    .valid_o(stage_valid)
  );
endmodule
