// ts_div: iterative radix-2 divider for DIV, DIVU, REM, REMU, W bits wide (the core's XLEN).
//
// Timing: start_i is a one-cycle pulse; the result is valid (valid_o) W + 1 cycles later (33
// on the RV32 core, 65 on the RV64 one): one set-up cycle plus W shift-subtract steps, the
// same for every operand value (no early exit, so the cost is data independent and easy to
// predict). Division by zero and the signed overflow case (-2^(W-1) / -1) follow the RISC-V M
// extension rules and take the same time. The RV64 core's W forms (DIVW, ...) come here as
// 64-bit operands sign- or zero-extended from 32 bits and take the 64-bit time.
// kill_i abandons a division in flight.
module ts_div #(parameter int unsigned W = 32) (
  /* verilator tracing_off */  // inputs are the core's fwd_rs1/fwd_rs2
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        kill_i,
  input  logic        signed_i,   // DIV / REM
  input  logic        rem_i,      // REM / REMU
  input  logic [W-1:0] a_i,       // dividend
  input  logic [W-1:0] b_i,       // divisor
  /* verilator tracing_on */
  output logic        valid_o,
  output logic [W-1:0] result_o
);
  localparam int unsigned CW = $clog2(W) + 1;   // the step counter counts W down to 0
  logic [CW-1:0] count_q;
  logic        busy_q, valid_q;
  logic [W-1:0] quot_q, rem_q, divisor_q, result_q;
  logic        neg_q_q, neg_r_q, rem_sel_q, div0_q;
  // operand magnitudes and the trial subtraction are computed in the clocked block, only in
  // the cycles that use them (as continuous assigns they were evaluated in every cycle)

  always_ff @(`TS_CLK_EDGE clk_i `TS_RST_EVENT) begin
    if (!rst_ni) begin
      count_q <= '0; busy_q <= 1'b0; valid_q <= 1'b0;
      quot_q <= '0; rem_q <= '0; divisor_q <= '0; result_q <= '0;
      neg_q_q <= 1'b0; neg_r_q <= 1'b0; rem_sel_q <= 1'b0; div0_q <= 1'b0;
    end else begin
      // (branch order: every flop is read before any branch writes it, so that Verilator
      // needs no delayed copies of them; the same behaviour as kill, start, step)
      valid_q <= 1'b0;
      if (!kill_i && busy_q) begin
        if (count_q == '0) begin
          busy_q  <= 1'b0;
          valid_q <= 1'b1;
          if (rem_sel_q)      result_q <= neg_r_q ? -rem_q : rem_q;
          else if (div0_q)    result_q <= '1;
          else                result_q <= neg_q_q ? -quot_q : quot_q;
        end else begin
          /* verilator tracing_off */
          logic [W:0] trial;
          /* verilator tracing_on */
          trial = {rem_q, quot_q[W-1]} - {1'b0, divisor_q};
          // (one assignment each: quot_q read after a branch wrote it had a delayed copy)
          rem_q  <= trial[W] ? {rem_q[W-2:0], quot_q[W-1]} : trial[W-1:0];
          quot_q <= {quot_q[W-2:0], !trial[W]};
          count_q <= count_q - CW'(1);
        end
      end else if (kill_i) begin
        busy_q <= 1'b0;
      end else if (start_i) begin
        /* verilator tracing_off */
        logic [W-1:0] a_abs, b_abs;
        /* verilator tracing_on */
        a_abs = (signed_i && a_i[W-1]) ? -a_i : a_i;
        b_abs = (signed_i && b_i[W-1]) ? -b_i : b_i;
        busy_q    <= 1'b1;
        count_q   <= CW'(W);
        quot_q    <= a_abs;
        rem_q     <= '0;
        divisor_q <= b_abs;
        div0_q    <= (b_i == '0);
        // quotient negative when signs differ (and divisor non-zero); remainder takes the
        // dividend's sign
        neg_q_q   <= signed_i && (a_i[W-1] ^ b_i[W-1]) && (b_i != '0);
        neg_r_q   <= signed_i && a_i[W-1];
        rem_sel_q <= rem_i;
      end
    end
  end

  assign valid_o  = valid_q;
  assign result_o = result_q;
endmodule
