// ts_decode: RV32IMA (XLEN 32) or RV64IMA (XLEN 64) + Zicsr + privileged (mret, sret, wfi,
// sfence.vma) decoder (ID stage).
// Input is a 32-bit instruction (compressed ones already expanded by ts_decompress).
// Anything not in RV32IMA (RV64IMA)/Zicsr/Zifencei/privileged sets ctrl_o.illegal; privilege
// checks
// (mret/sret/wfi/sfence.vma/CSRs in a lower mode) are made in MEM by the core.
// Not traced in waves: its outputs are visible as the core's ID/IF signals, and tracing
// every decode intermediate would slow waveform dumping for little benefit.
/* verilator tracing_off */
// RV64: LD, LWU, SD, the .D atomics, 6-bit shift amounts, and the W forms (OP-IMM-32, OP-32:
// ADDIW, SLLIW, SRLIW, SRAIW, ADDW, SUBW, SLLW, SRLW, SRAW, MULW, DIVW, DIVUW, REMW, REMUW).
// ctrl_t has no spare bit, so a W form is marked with csr_imm (ts_core_pkg: read only for CSR
// instructions and atomics, which are never W forms); the core's EX stage then computes on
// the low 32 bits and sign-extends.
module ts_decode import ts_core_pkg::*; #(parameter int unsigned XLEN = 32) (
  input  logic [31:0] instr_i,
  input  logic        is_c_i,
  output ctrl_t       ctrl_o,
  output logic        ecall_o,
  output logic        ebreak_o,
  output logic [31:0] imm_o
);
  localparam bit RV64 = (XLEN == 64);
  logic [6:0] opcode;
  logic [2:0] f3;
  logic [6:0] f7;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode = instr_i[6:0];
  assign f3     = instr_i[14:12];
  assign f7     = instr_i[31:25];
  assign imm_i  = {{20{instr_i[31]}}, instr_i[31:20]};
  assign imm_s  = {{20{instr_i[31]}}, instr_i[31:25], instr_i[11:7]};
  assign imm_b  = {{19{instr_i[31]}}, instr_i[31], instr_i[7], instr_i[30:25], instr_i[11:8], 1'b0};
  assign imm_u  = {instr_i[31:12], 12'd0};
  assign imm_j  = {{11{instr_i[31]}}, instr_i[31], instr_i[19:12], instr_i[20], instr_i[30:21], 1'b0};

  // The decoder is a function: its ctrl_t variable is local to the evaluation (the C++
  // compiler keeps it in a register; as the module's output it was updated in memory field
  // by field). imm_o, ecall_o and ebreak_o are computed separately below.
  function automatic ctrl_t decode_ctrl();
    ctrl_t c;
    c          = '0;
    c.rd       = instr_i[11:7];
    c.rs1      = instr_i[19:15];
    c.rs2      = instr_i[24:20];
    c.alu      = AluAdd;
    c.csr_op   = CsrNone;
    c.csr_addr = instr_i[31:20];
    c.br_f3    = f3;
    c.is_c     = is_c_i;

    unique case (opcode)
      7'b0110111: begin // LUI
        c.rf_we = 1'b1; c.is_lui = 1'b1; c.is_arith = 1'b1;
      end
      7'b0010111: begin // AUIPC
        c.rf_we = 1'b1; c.a_pc = 1'b1; c.b_imm = 1'b1; c.is_arith = 1'b1;
      end
      7'b1101111: begin // JAL
        c.rf_we = 1'b1; c.is_jal = 1'b1;
      end
      7'b1100111: begin // JALR
        c.rf_we = 1'b1; c.is_jalr = 1'b1; c.use_rs1 = 1'b1;
        c.illegal = (f3 != 3'b000);
      end
      7'b1100011: begin // branches
        c.is_branch = 1'b1; c.use_rs1 = 1'b1; c.use_rs2 = 1'b1;
        c.illegal = (f3 == 3'b010 || f3 == 3'b011);
      end
      7'b0000011: begin // loads
        c.rf_we = 1'b1; c.is_load = 1'b1; c.use_rs1 = 1'b1;
        c.ls_size = f3[1:0]; c.ls_unsigned = f3[2];
        c.illegal = RV64 ? (f3 == 3'b111) : (f3 == 3'b011 || f3 == 3'b110 || f3 == 3'b111);
      end
      7'b0100011: begin // stores
        c.is_store = 1'b1; c.use_rs1 = 1'b1; c.use_rs2 = 1'b1;
        c.ls_size = f3[1:0];
        c.illegal = RV64 ? f3[2] : (f3[2] || f3[1:0] == 2'b11);
      end
      7'b0101111: begin // AMO: LR.W, SC.W, AMOSWAP/ADD/XOR/AND/OR/MIN/MAX/MINU/MAXU.W
        // one data-port transaction (the bus does the read-modify-write and returns the old
        // value, or SC's 0/1); csr_imm marks it for the port, funct5 reaches the port through
        // csr_addr[11:7] (ts_core_pkg); neither is_load nor is_store (the event class);
        // aq/rl (bits 26, 25) are accepted: the core is in order with one data port, every
        // access is performed before the next one starts. Width: f3 010 (W); ls_size is
        // f3[1:0] so that a 64-bit core adds f3 011 (D) here
        c.rf_we = 1'b1; c.is_atomic = 1'b1; c.csr_imm = 1'b1; c.use_rs1 = 1'b1;
        c.ls_size = f3[1:0];
        c.use_rs2  = (instr_i[31:27] != 5'b00010);          // all but LR
        // funct5: xxx00 (ADD, XOR, OR, AND, MIN, MAX, MINU, MAXU), 00001 SWAP, 00010 LR,
        // 00011 SC; LR has rs2 = 0
        c.illegal = (RV64 ? (f3 != 3'b010 && f3 != 3'b011) : (f3 != 3'b010)) ||
                    !(instr_i[28:27] == 2'b00 || instr_i[31:29] == 3'b000) ||
                    (!c.use_rs2 && instr_i[24:20] != 5'd0);
      end
      7'b0010011: begin // OP-IMM
        c.rf_we = 1'b1; c.use_rs1 = 1'b1; c.b_imm = 1'b1; c.is_arith = 1'b1;
        unique case (f3)
          3'b000: c.alu = AluAdd;
          3'b010: c.alu = AluSlt;
          3'b011: c.alu = AluSltu;
          3'b100: c.alu = AluXor;
          3'b110: c.alu = AluOr;
          3'b111: c.alu = AluAnd;
          // (RV64: shamt is 6 bits, f7[0] is its bit 5)
          3'b001: begin
            c.alu = AluSll;
            c.illegal = RV64 ? (f7[6:1] != 6'b000000) : (f7 != 7'b0000000);
          end
          default: begin // 101
            c.alu = f7[5] ? AluSra : AluSrl;
            c.illegal = RV64 ? (f7[6:1] != 6'b000000 && f7[6:1] != 6'b010000)
                             : (f7 != 7'b0000000 && f7 != 7'b0100000);
          end
        endcase
      end
      7'b0110011: begin // OP
        c.rf_we = 1'b1; c.use_rs1 = 1'b1; c.use_rs2 = 1'b1;
        if (f7 == 7'b0000001) begin
          unique case (f3)
            3'b000: c.alu = AluMul;
            3'b001: c.alu = AluMulh;
            3'b010: c.alu = AluMulhsu;
            3'b011: c.alu = AluMulhu;
            3'b100: c.alu = AluDiv;
            3'b101: c.alu = AluDivu;
            3'b110: c.alu = AluRem;
            default: c.alu = AluRemu;
          endcase
          c.is_mul = !f3[2];
          c.is_div = f3[2];
        end else begin
          c.is_arith = 1'b1;
          unique case (f3)
            3'b000: c.alu = f7[5] ? AluSub : AluAdd;
            3'b001: c.alu = AluSll;
            3'b010: c.alu = AluSlt;
            3'b011: c.alu = AluSltu;
            3'b100: c.alu = AluXor;
            3'b101: c.alu = f7[5] ? AluSra : AluSrl;
            3'b110: c.alu = AluOr;
            default: c.alu = AluAnd;
          endcase
          c.illegal = !(f7 == 7'b0000000 ||
                             (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101)));
        end
      end
      7'b0001111: begin // FENCE / FENCE.I
        c.is_system = 1'b1;
        c.is_fencei = (f3 == 3'b001);
        c.illegal   = (f3 != 3'b000 && f3 != 3'b001);
      end
      7'b1110011: begin // SYSTEM
        c.is_system = 1'b1;
        if (f3 == 3'b000) begin
          unique case (instr_i[31:7])
            25'h0000000, 25'h0002000: ;        // ecall, ebreak (ecall_o, ebreak_o)
            {12'h302, 13'h0}:                 c.is_mret = 1'b1;
            {12'h102, 13'h0}:                 c.is_sret = 1'b1;
            {12'h105, 13'h0}:                 c.is_wfi  = 1'b1;
            default: begin
              // sfence.vma rs1, rs2 (rd = 0): a no-op with bare addressing
              if (f7 == 7'b0001001 && instr_i[11:7] == 5'd0) c.is_sfence = 1'b1;
              else                                           c.illegal   = 1'b1;
            end
          endcase
        end else if (f3 == 3'b100) begin
          c.illegal = 1'b1;
        end else begin
          c.rf_we   = 1'b1;
          c.csr_imm = f3[2];
          c.use_rs1 = !f3[2];
          unique case (f3[1:0])
            2'b01:   c.csr_op = CsrRw;
            2'b10:   c.csr_op = CsrRs;
            default: c.csr_op = CsrRc;
          endcase
        end
      end
      default: begin
      // (the RV64 opcodes in the default arm, constant-false on RV32: the RV32 decoder's case
      // is what it was)
      if (RV64 && opcode == 7'b0011011) begin // OP-IMM-32 (RV64): ADDIW, SLLIW, SRLIW, SRAIW
        begin
          c.rf_we = 1'b1; c.use_rs1 = 1'b1; c.b_imm = 1'b1; c.is_arith = 1'b1; c.csr_imm = 1'b1;
          unique case (f3)
            3'b000: c.alu = AluAdd;
            3'b001: begin c.alu = AluSll; c.illegal = (f7 != 7'b0000000); end
            3'b101: begin
              c.alu = f7[5] ? AluSra : AluSrl;
              c.illegal = (f7 != 7'b0000000 && f7 != 7'b0100000);
            end
            default: c.illegal = 1'b1;
          endcase
        end
      end else if (RV64 && opcode == 7'b0111011) begin // OP-32 (RV64): ADDW ... REMUW
        begin
          c.rf_we = 1'b1; c.use_rs1 = 1'b1; c.use_rs2 = 1'b1; c.csr_imm = 1'b1;
          if (f7 == 7'b0000001) begin
            unique case (f3)
              3'b000: c.alu = AluMul;
              3'b100: c.alu = AluDiv;
              3'b101: c.alu = AluDivu;
              3'b110: c.alu = AluRem;
              3'b111: c.alu = AluRemu;
              default: c.illegal = 1'b1;   // no MULHW
            endcase
            c.is_mul = !f3[2];
            c.is_div = f3[2];
          end else begin
            c.is_arith = 1'b1;
            unique case (f3)
              3'b000: c.alu = f7[5] ? AluSub : AluAdd;
              3'b001: c.alu = AluSll;
              3'b101: c.alu = f7[5] ? AluSra : AluSrl;
              default: c.illegal = 1'b1;
            endcase
            c.illegal = c.illegal || !(f7 == 7'b0000000 ||
                                       (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101)));
          end
        end
      end else c.illegal = 1'b1;
      end
    endcase

    if (c.illegal) begin
      // an illegal instruction must have no side effect before it traps in MEM
      c.rf_we = 1'b0; c.is_load = 1'b0; c.is_store = 1'b0; c.is_atomic = 1'b0;
      c.csr_op = CsrNone; c.is_branch = 1'b0; c.is_jal = 1'b0;
      c.is_jalr = 1'b0; c.is_div = 1'b0; c.is_mret = 1'b0; c.is_sret = 1'b0;
      c.is_sfence = 1'b0;
      c.is_wfi = 1'b0; c.is_fencei = 1'b0;
    end
    return c;
  endfunction

  always_comb begin
    ctrl_o = decode_ctrl();
    unique case (opcode)
      7'b0110111, 7'b0010111: imm_o = imm_u;   // LUI, AUIPC
      7'b1101111:             imm_o = imm_j;   // JAL
      7'b1100011:             imm_o = imm_b;   // branches
      7'b0100011:             imm_o = imm_s;   // stores
      7'b0101111:             imm_o = '0;      // AMOs: the address is rs1
      default:                imm_o = imm_i;
    endcase
    ecall_o  = instr_i == 32'h0000_0073;
    ebreak_o = instr_i == 32'h0010_0073;
  end
endmodule
