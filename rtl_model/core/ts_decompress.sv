// ts_decompress: expands a 16-bit RVC instruction into its 32-bit equivalent: RV32C for
// XLEN 32, RV64C for XLEN 64.
//
// Models: every RV32C (RV64C) form of the unprivileged spec (quadrants 0, 1 and 2). RV64C
// replaces C.FLW/C.FSW/C.FLWSP/C.FSWSP with C.LD/C.SD/C.LDSP/C.SDSP and C.JAL with C.ADDIW,
// adds C.SUBW/C.ADDW and takes 6-bit shift amounts. Floating-point forms (C.FLD/C.FSD/...),
// the other XLEN's forms and reserved encodings (including the all-zero halfword) raise
// illegal_o. HINT encodings expand to their no-op equivalents.
// Purely combinational; instr_i[1:0] != 2'b11 is the caller's "compressed" test.
// Not traced in waves: its outputs are visible as the core's ID/IF signals, and tracing
// every decode intermediate would slow waveform dumping for little benefit.
/* verilator tracing_off */
module ts_decompress #(parameter int unsigned XLEN = 32) (
  input  logic [15:0] instr_i,
  output logic [31:0] instr_o,
  output logic        illegal_o
);
  localparam logic [6:0] OpLoad   = 7'b0000011;
  localparam logic [6:0] OpStore  = 7'b0100011;
  localparam logic [6:0] OpImm    = 7'b0010011;
  localparam logic [6:0] OpReg    = 7'b0110011;
  localparam logic [6:0] OpLui    = 7'b0110111;
  localparam logic [6:0] OpBranch = 7'b1100011;
  localparam logic [6:0] OpJal    = 7'b1101111;
  localparam logic [6:0] OpJalr   = 7'b1100111;
  localparam logic [6:0] OpSystem = 7'b1110011;

  localparam bit RV64 = (XLEN == 64);
  logic [4:0] rd_full, rs2_full, rd_p, rs1_p, rs2_p;

  assign rd_full  = instr_i[11:7];
  assign rs2_full = instr_i[6:2];
  assign rd_p     = {2'b01, instr_i[4:2]};
  assign rs1_p    = {2'b01, instr_i[9:7]};
  assign rs2_p    = {2'b01, instr_i[4:2]};
  // The immediates and the encodings as macros, expanded in the case branches that use them:
  // as continuous assigns Verilator built all three immediates for every fetched word, in
  // every cycle; as functions their arguments and results were variables of
  // the model (the expander is combinational logic), stored in every cycle.
  // TS_IMM_CI: the sign-extended 6-bit immediate (C.ADDI, C.LI, C.ANDI); TS_J_OFF: C.J / C.JAL
  // offset; TS_B_OFF: C.BEQZ / C.BNEZ offset.
`define TS_IMM_CI {{7{instr_i[12]}}, instr_i[6:2]}
`define TS_J_OFF  {{10{instr_i[12]}}, instr_i[8], instr_i[10:9], instr_i[6], instr_i[7], \
                   instr_i[2], instr_i[11], instr_i[5:3], 1'b0}
`define TS_B_OFF  {{5{instr_i[12]}}, instr_i[6:5], instr_i[2], instr_i[11:10], instr_i[4:3], 1'b0}
  // the 32-bit formats: I (imm 12 bits), S (imm 12), R (OP), B (13-bit offset, bit 0 dropped),
  // J (21-bit offset, bit 0 dropped)
`define TS_ENC_I(imm, rs1, f3, rd, op) {12'(imm), 5'(rs1), 3'(f3), 5'(rd), 7'(op)}
`define TS_ENC_S(imm, rs2, rs1, f3, op) {7'((imm) >> 5), 5'(rs2), 5'(rs1), 3'(f3), 5'(imm), 7'(op)}
`define TS_ENC_R(f7, rs2, rs1, f3, rd) {7'(f7), 5'(rs2), 5'(rs1), 3'(f3), 5'(rd), OpReg}
`define TS_ENC_B(off, rs1, f3) {1'((off) >> 12), 6'((off) >> 5), 5'd0, 5'(rs1), 3'(f3), \
                                4'((off) >> 1), 1'((off) >> 11), OpBranch}
`define TS_ENC_J(off, rd) {1'((off) >> 20), 10'((off) >> 1), 1'((off) >> 11), 8'((off) >> 12), \
                           5'(rd), OpJal}

  always_comb begin
    instr_o   = 32'h0000_0013; // nop
    illegal_o = 1'b0;
    unique case (instr_i[1:0])
      2'b00: begin
        unique case (instr_i[15:13])
          3'b000: begin // C.ADDI4SPN
            instr_o = `TS_ENC_I({2'b00, instr_i[10:7], instr_i[12:11], instr_i[5], instr_i[6], 2'b00},
                            5'd2, 3'b000, rd_p, OpImm);
            illegal_o = (instr_i[12:5] == 8'd0);
          end
          3'b010: instr_o = `TS_ENC_I({5'd0, instr_i[5], instr_i[12:10], instr_i[6], 2'b00},
                                  rs1_p, 3'b010, rd_p, OpLoad);   // C.LW
          3'b110: instr_o = `TS_ENC_S({5'd0, instr_i[5], instr_i[12:10], instr_i[6], 2'b00},
                                  rs2_p, rs1_p, 3'b010, OpStore); // C.SW
          // (RV64C's forms in the default arm, constant-false on RV32: the RV32 expander is
          // what it was)
          default: begin
            if (RV64 && instr_i[15:13] == 3'b011)        // RV64C C.LD (RV32: C.FLW)
              instr_o = `TS_ENC_I({4'd0, instr_i[6:5], instr_i[12:10], 3'b000}, rs1_p, 3'b011, rd_p, OpLoad);
            else if (RV64 && instr_i[15:13] == 3'b111)   // RV64C C.SD (RV32: C.FSW)
              instr_o = `TS_ENC_S({4'd0, instr_i[6:5], instr_i[12:10], 3'b000}, rs2_p, rs1_p, 3'b011, OpStore);
            else illegal_o = 1'b1;
          end
        endcase
      end
      2'b01: begin
        unique case (instr_i[15:13])
          3'b000: instr_o = `TS_ENC_I(`TS_IMM_CI, rd_full, 3'b000, rd_full, OpImm); // C.ADDI / C.NOP
          3'b001: begin
            if (RV64) begin  // C.ADDIW (rd x0 reserved)
              instr_o = `TS_ENC_I(`TS_IMM_CI, rd_full, 3'b000, rd_full, 7'b0011011);
              illegal_o = (rd_full == 5'd0);
            end else begin
              instr_o = `TS_ENC_J(`TS_J_OFF, 5'd1);                              // C.JAL
            end
          end
          3'b010: instr_o = `TS_ENC_I(`TS_IMM_CI, 5'd0, 3'b000, rd_full, OpImm);    // C.LI
          3'b011: begin
            if (rd_full == 5'd2) begin // C.ADDI16SP
              instr_o = `TS_ENC_I({{3{instr_i[12]}}, instr_i[4:3], instr_i[5], instr_i[2],
                               instr_i[6], 4'b0000}, 5'd2, 3'b000, 5'd2, OpImm);
            end else begin             // C.LUI
              instr_o = {{15{instr_i[12]}}, instr_i[6:2], rd_full, OpLui};
            end
            illegal_o = ({instr_i[12], instr_i[6:2]} == 6'd0);
          end
          3'b100: begin
            unique case (instr_i[11:10])
              2'b00: begin // C.SRLI
                instr_o = {6'b000000, RV64 && instr_i[12], instr_i[6:2], rs1_p, 3'b101, rs1_p, OpImm};
                illegal_o = !RV64 && instr_i[12];   // shamt[5]: RV64 only
              end
              2'b01: begin // C.SRAI
                instr_o = {6'b010000, RV64 && instr_i[12], instr_i[6:2], rs1_p, 3'b101, rs1_p, OpImm};
                illegal_o = !RV64 && instr_i[12];
              end
              2'b10: instr_o = `TS_ENC_I(`TS_IMM_CI, rs1_p, 3'b111, rs1_p, OpImm); // C.ANDI
              2'b11: if (RV64 && instr_i[12]) begin   // RV64C C.SUBW, C.ADDW
                illegal_o = instr_i[6];
                instr_o = {1'b0, !instr_i[5], 5'b00000, rs2_p, rs1_p, 3'b000, rs1_p, 7'b0111011};
              end else begin
                illegal_o = instr_i[12]; // C.SUBW / C.ADDW are RV64 only
                unique case (instr_i[6:5])
                  2'b00: instr_o = `TS_ENC_R(7'b0100000, rs2_p, rs1_p, 3'b000, rs1_p); // C.SUB
                  2'b01: instr_o = `TS_ENC_R(7'b0000000, rs2_p, rs1_p, 3'b100, rs1_p); // C.XOR
                  2'b10: instr_o = `TS_ENC_R(7'b0000000, rs2_p, rs1_p, 3'b110, rs1_p); // C.OR
                  2'b11: instr_o = `TS_ENC_R(7'b0000000, rs2_p, rs1_p, 3'b111, rs1_p); // C.AND
                endcase
              end
            endcase
          end
          3'b101: instr_o = `TS_ENC_J(`TS_J_OFF, 5'd0);              // C.J
          3'b110: instr_o = `TS_ENC_B(`TS_B_OFF, rs1_p, 3'b000);     // C.BEQZ
          3'b111: instr_o = `TS_ENC_B(`TS_B_OFF, rs1_p, 3'b001);     // C.BNEZ
        endcase
      end
      2'b10: begin
        unique case (instr_i[15:13])
          3'b000: begin // C.SLLI
            instr_o = {6'b000000, RV64 && instr_i[12], instr_i[6:2], rd_full, 3'b001, rd_full, OpImm};
            illegal_o = !RV64 && instr_i[12];
          end

          3'b010: begin // C.LWSP
            instr_o = `TS_ENC_I({4'd0, instr_i[3:2], instr_i[12], instr_i[6:4], 2'b00},
                            5'd2, 3'b010, rd_full, OpLoad);
            illegal_o = (rd_full == 5'd0);
          end
          3'b100: begin
            if (!instr_i[12]) begin
              if (rs2_full == 5'd0) begin // C.JR
                instr_o = `TS_ENC_I(12'd0, rd_full, 3'b000, 5'd0, OpJalr);
                illegal_o = (rd_full == 5'd0);
              end else begin              // C.MV
                instr_o = `TS_ENC_R(7'b0000000, rs2_full, 5'd0, 3'b000, rd_full);
              end
            end else begin
              if (rs2_full == 5'd0) begin
                if (rd_full == 5'd0) instr_o = {12'd1, 5'd0, 3'b000, 5'd0, OpSystem}; // C.EBREAK
                else instr_o = `TS_ENC_I(12'd0, rd_full, 3'b000, 5'd1, OpJalr);          // C.JALR
              end else begin              // C.ADD
                instr_o = `TS_ENC_R(7'b0000000, rs2_full, rd_full, 3'b000, rd_full);
              end
            end
          end
          3'b110: instr_o = `TS_ENC_S({4'd0, instr_i[8:7], instr_i[12:9], 2'b00},
                                  rs2_full, 5'd2, 3'b010, OpStore); // C.SWSP
          default: begin
            if (RV64 && instr_i[15:13] == 3'b011) begin  // RV64C C.LDSP (RV32: C.FLWSP)
              instr_o = `TS_ENC_I({3'd0, instr_i[4:2], instr_i[12], instr_i[6:5], 3'b000},
                              5'd2, 3'b011, rd_full, OpLoad);
              illegal_o = (rd_full == 5'd0);             // rd x0 reserved
            end else if (RV64 && instr_i[15:13] == 3'b111) // RV64C C.SDSP (RV32: C.FSWSP)
              instr_o = `TS_ENC_S({3'd0, instr_i[9:7], instr_i[12:10], 3'b000},
                              rs2_full, 5'd2, 3'b011, OpStore);
            else illegal_o = 1'b1;
          end
        endcase
      end
      default: illegal_o = 1'b1; // not a compressed instruction: caller's error
    endcase
  end
endmodule
`undef TS_IMM_CI
`undef TS_J_OFF
`undef TS_B_OFF
`undef TS_ENC_I
`undef TS_ENC_S
`undef TS_ENC_R
`undef TS_ENC_B
`undef TS_ENC_J
