// ts_decode: RV32IM + Zicsr + privileged (mret, sret, wfi, sfence.vma) decoder (ID stage).
// Input is a 32-bit instruction (compressed ones already expanded by ts_decompress).
// Anything not in RV32IM/Zicsr/Zifencei/privileged sets ctrl_o.illegal; privilege checks
// (mret/sret/wfi/sfence.vma/CSRs in a lower mode) are made in MEM by the core.
// Not traced in waves: its outputs are visible as the core's ID/IF signals, and tracing
// every decode intermediate would slow waveform dumping for little benefit.
/* verilator tracing_off */
module ts_decode import ts_core_pkg::*; (
  input  logic [31:0] instr_i,
  input  logic        is_c_i,
  output ctrl_t       ctrl_o,
  output logic        ecall_o,
  output logic        ebreak_o,
  output logic [31:0] imm_o
);
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

  always_comb begin
    ctrl_o          = '0;
    ecall_o         = 1'b0;
    ebreak_o        = 1'b0;
    ctrl_o.rd       = instr_i[11:7];
    ctrl_o.rs1      = instr_i[19:15];
    ctrl_o.rs2      = instr_i[24:20];
    ctrl_o.alu      = AluAdd;
    ctrl_o.csr_op   = CsrNone;
    ctrl_o.csr_addr = instr_i[31:20];
    ctrl_o.br_f3    = f3;
    ctrl_o.is_c     = is_c_i;
    imm_o           = imm_i;

    unique case (opcode)
      7'b0110111: begin // LUI
        ctrl_o.rf_we = 1'b1; ctrl_o.is_lui = 1'b1; ctrl_o.is_arith = 1'b1; imm_o = imm_u;
      end
      7'b0010111: begin // AUIPC
        ctrl_o.rf_we = 1'b1; ctrl_o.a_pc = 1'b1; ctrl_o.b_imm = 1'b1; ctrl_o.is_arith = 1'b1;
        imm_o = imm_u;
      end
      7'b1101111: begin // JAL
        ctrl_o.rf_we = 1'b1; ctrl_o.is_jal = 1'b1; imm_o = imm_j;
      end
      7'b1100111: begin // JALR
        ctrl_o.rf_we = 1'b1; ctrl_o.is_jalr = 1'b1; ctrl_o.use_rs1 = 1'b1;
        ctrl_o.illegal = (f3 != 3'b000);
      end
      7'b1100011: begin // branches
        ctrl_o.is_branch = 1'b1; ctrl_o.use_rs1 = 1'b1; ctrl_o.use_rs2 = 1'b1; imm_o = imm_b;
        ctrl_o.illegal = (f3 == 3'b010 || f3 == 3'b011);
      end
      7'b0000011: begin // loads
        ctrl_o.rf_we = 1'b1; ctrl_o.is_load = 1'b1; ctrl_o.use_rs1 = 1'b1;
        ctrl_o.ls_size = f3[1:0]; ctrl_o.ls_unsigned = f3[2];
        ctrl_o.illegal = (f3 == 3'b011 || f3 == 3'b110 || f3 == 3'b111);
      end
      7'b0100011: begin // stores
        ctrl_o.is_store = 1'b1; ctrl_o.use_rs1 = 1'b1; ctrl_o.use_rs2 = 1'b1;
        ctrl_o.ls_size = f3[1:0]; imm_o = imm_s;
        ctrl_o.illegal = (f3[2] || f3[1:0] == 2'b11);
      end
      7'b0010011: begin // OP-IMM
        ctrl_o.rf_we = 1'b1; ctrl_o.use_rs1 = 1'b1; ctrl_o.b_imm = 1'b1; ctrl_o.is_arith = 1'b1;
        unique case (f3)
          3'b000: ctrl_o.alu = AluAdd;
          3'b010: ctrl_o.alu = AluSlt;
          3'b011: ctrl_o.alu = AluSltu;
          3'b100: ctrl_o.alu = AluXor;
          3'b110: ctrl_o.alu = AluOr;
          3'b111: ctrl_o.alu = AluAnd;
          3'b001: begin ctrl_o.alu = AluSll; ctrl_o.illegal = (f7 != 7'b0000000); end
          default: begin // 101
            ctrl_o.alu = f7[5] ? AluSra : AluSrl;
            ctrl_o.illegal = (f7 != 7'b0000000 && f7 != 7'b0100000);
          end
        endcase
      end
      7'b0110011: begin // OP
        ctrl_o.rf_we = 1'b1; ctrl_o.use_rs1 = 1'b1; ctrl_o.use_rs2 = 1'b1;
        if (f7 == 7'b0000001) begin
          unique case (f3)
            3'b000: ctrl_o.alu = AluMul;
            3'b001: ctrl_o.alu = AluMulh;
            3'b010: ctrl_o.alu = AluMulhsu;
            3'b011: ctrl_o.alu = AluMulhu;
            3'b100: ctrl_o.alu = AluDiv;
            3'b101: ctrl_o.alu = AluDivu;
            3'b110: ctrl_o.alu = AluRem;
            default: ctrl_o.alu = AluRemu;
          endcase
          ctrl_o.is_mul = !f3[2];
          ctrl_o.is_div = f3[2];
        end else begin
          ctrl_o.is_arith = 1'b1;
          unique case (f3)
            3'b000: ctrl_o.alu = f7[5] ? AluSub : AluAdd;
            3'b001: ctrl_o.alu = AluSll;
            3'b010: ctrl_o.alu = AluSlt;
            3'b011: ctrl_o.alu = AluSltu;
            3'b100: ctrl_o.alu = AluXor;
            3'b101: ctrl_o.alu = f7[5] ? AluSra : AluSrl;
            3'b110: ctrl_o.alu = AluOr;
            default: ctrl_o.alu = AluAnd;
          endcase
          ctrl_o.illegal = !(f7 == 7'b0000000 ||
                             (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101)));
        end
      end
      7'b0001111: begin // FENCE / FENCE.I
        ctrl_o.is_system = 1'b1;
        ctrl_o.is_fencei = (f3 == 3'b001);
        ctrl_o.illegal   = (f3 != 3'b000 && f3 != 3'b001);
      end
      7'b1110011: begin // SYSTEM
        ctrl_o.is_system = 1'b1;
        if (f3 == 3'b000) begin
          unique case (instr_i[31:7])
            25'h0000000:                      ecall_o        = 1'b1;
            25'h0002000:                      ebreak_o       = 1'b1;
            {12'h302, 13'h0}:                 ctrl_o.is_mret = 1'b1;
            {12'h102, 13'h0}:                 ctrl_o.is_sret = 1'b1;
            {12'h105, 13'h0}:                 ctrl_o.is_wfi  = 1'b1;
            default: begin
              // sfence.vma rs1, rs2 (rd = 0): a no-op with bare addressing
              if (f7 == 7'b0001001 && instr_i[11:7] == 5'd0) ctrl_o.is_sfence = 1'b1;
              else                                           ctrl_o.illegal   = 1'b1;
            end
          endcase
        end else if (f3 == 3'b100) begin
          ctrl_o.illegal = 1'b1;
        end else begin
          ctrl_o.rf_we   = 1'b1;
          ctrl_o.csr_imm = f3[2];
          ctrl_o.use_rs1 = !f3[2];
          unique case (f3[1:0])
            2'b01:   ctrl_o.csr_op = CsrRw;
            2'b10:   ctrl_o.csr_op = CsrRs;
            default: ctrl_o.csr_op = CsrRc;
          endcase
        end
      end
      default: ctrl_o.illegal = 1'b1;
    endcase

    if (ctrl_o.illegal) begin
      // an illegal instruction must have no side effect before it traps in MEM
      ctrl_o.rf_we = 1'b0; ctrl_o.is_load = 1'b0; ctrl_o.is_store = 1'b0;
      ctrl_o.csr_op = CsrNone; ctrl_o.is_branch = 1'b0; ctrl_o.is_jal = 1'b0;
      ctrl_o.is_jalr = 1'b0; ctrl_o.is_div = 1'b0; ctrl_o.is_mret = 1'b0; ctrl_o.is_sret = 1'b0;
      ctrl_o.is_sfence = 1'b0;
      ctrl_o.is_wfi = 1'b0; ctrl_o.is_fencei = 1'b0; ecall_o = 1'b0; ebreak_o = 1'b0;
    end
  end
endmodule
