/* gen_docs.c - prints the docs' register and event tables from the single-source
 * tables in rtl_model/regs/ and runfolder/run_files.def (soc_map.def, hpm_events.def,
 * sbi_events.def, sbi_fw_events.def, trace_regs.def, stm.def, nexus.def, perf_wire.def,
 * exit_status.def). tests/check_docs.sh compares
 * the docs (README.md, docs/) with this output, so the docs cannot drift from what the code uses. */
#include <stdio.h>
#include <string.h>

static void soc_map(void) {
    puts("| region | base | size | description |");
    puts("|---|---|---|---|");
#define TS_REGION(name, base, size, desc) \
    printf("| %s | 0x%08x | 0x%x | %s |\n", #name, (unsigned)(base), (unsigned)(size), desc);
#include "soc_map.def"
}

static void soc_regs(void) {
    puts("| block | register | offset | access | meaning |");
    puts("|---|---|---|---|---|");
#define TS_REG(block, name, off, acc, desc) \
    printf("| %s | %s | 0x%02x | %s | %s |\n", #block, #name, (unsigned)(off), acc, desc);
#include "soc_map.def"
}

static void hpm_events(void) {
    puts("| event | mhpmevent | CSV column | meaning |");
    puts("|---|---|---|---|");
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc)                                 \
    if ((cls) < 0) printf("| %s | (fixed counter) | %s | %s |\n", #id, csv, desc); \
    else                                                                           \
        printf("| %s | class %d, bit %d: 0x%x | %s | %s |\n", #id, cls, bit,       \
               (1u << ((bit) < 0 ? 0 : (bit))) | (unsigned)(cls), csv, desc);
#include "hpm_events.def"
#undef TS_EVENT
}

static void sbi_events(void) {
    puts("| SBI event | code | counted by |");
    puts("|---|---|---|");
#define TS_SBI_GENERAL(code, name, counter, ev)                                                                    \
    if ((counter) >= 0) printf("| %s | type 0, code %d | %s |\n", #name, code, (counter) ? "minstret" : "mcycle"); \
    else if (ev)                                                                                                   \
        printf("| %s | type 0, code %d | mhpmevent 0x%x |\n", #name, code, (unsigned)(ev));                        \
    else                                                                                                           \
        printf("| %s | type 0, code %d | not supported |\n", #name, code);
#define TS_SBI_CACHE(cache, op, result, name, ev)                                                                                         \
    if (ev) printf("| %s | type 1, event_idx 0x%x | mhpmevent 0x%x |\n", #name, ((cache) << 3) | ((op) << 1) | (result), (unsigned)(ev)); \
    else                                                                                                                                  \
        printf("| %s | type 1, event_idx 0x%x | not supported |\n", #name, ((cache) << 3) | ((op) << 1) | (result));
#include "sbi_events.def"
}

static void sbi_fw_events(void) {
    puts("| SBI firmware event | code | counted | where |");
    puts("|---|---|---|---|");
#define TS_SBI_FW(code, name, counted, desc) \
    printf("| %s | type 15, code %d | %s | %s |\n", #name, code, (counted) ? "yes" : "no (NOT_SUPPORTED)", desc);
#include "sbi_fw_events.def"
}

static void trace_regs(void) {
    puts("| block | register | offset | access | meaning |");
    puts("|---|---|---|---|---|");
#define TS_TREG(block, name, off, acc, desc) \
    printf("| %s | %s | 0x%03x | %s | %s |\n", #block, #name, (unsigned)(off), acc, desc);
#include "trace_regs.def"
}

static void trace_fields(void) {
    puts("| register | field | bits | meaning |");
    puts("|---|---|---|---|");
#define TS_TFIELD(reg, name, lsb, width, desc)                                   \
    if ((width) == 1) printf("| %s | %s | %d | %s |\n", #reg, #name, lsb, desc); \
    else                                                                         \
        printf("| %s | %s | %d:%d | %s |\n", #reg, #name, ((lsb) + (width)) - 1, lsb, desc);
#include "trace_regs.def"
}

static void stm(void) {
    puts("| kind | name | value | meaning |");
    puts("|---|---|---|---|");
#define TS_STM_CONST(name, value, desc) printf("| constant | %s | 0x%x | %s |\n", #name, (unsigned)(value), desc);
#define TS_STM_GROUP(name, first, last, desc)                                                        \
    if ((first) == (last)) printf("| group | %s | 0x%04x | %s |\n", #name, (unsigned)(first), desc); \
    else                                                                                             \
        printf("| group | %s | 0x%04x-0x%04x | %s |\n", #name, (unsigned)(first), (unsigned)(last), desc);
#define TS_STM_EVENT(name, id, desc) printf("| event | %s | 0x%04x | %s |\n", #name, (unsigned)(id), desc);
#include "stm.def"
}

/* docs/reference/run-folder.md: every run-folder file (runfolder/run_files.def) */
static void run_files(void) {
    puts("| file | written by | read by | largest | contents | columns |");
    puts("|---|---|---|---|---|---|");
#define RF_FILE(name, kind, cap, cap_text, empty_ok, writer, readers, columns, contents, header) \
    printf("| `%s` | %s | %s | %s | %s | %s |\n", name, writer, readers, cap_text, contents, columns);
#include "run_files.def"
#undef RF_FILE
}

/* docs/reference/nexus.md: the TCODEs, the fixed fields and their codes (nexus.def) */
static void nexus_tcodes(void) {
    puts("| TCODE | name | dqr's name | timestamp | program trace | fields after TCODE and SRC |");
    puts("|---|---|---|---|---|---|");
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) \
    printf("| %d | `NX_%s` | %s | %s | %s | %s |\n", tcode, #name, text, ts ? "full" : "relative", prog ? "yes" : "no", fields);
#include "nexus.def"
}
static void nexus_fields(void) {
    puts("| field | bits | meaning |");
    puts("|---|---|---|");
#define TS_NX_FIELD(name, bits, desc) printf("| %s | %d | %s |\n", #name, bits, desc);
#include "nexus.def"
}
static void nexus_codes(void) {
    puts("| field | value | name | meaning |");
    puts("|---|---|---|---|");
#define TS_NX_CODE(field, name, value, desc) printf("| %s | %d | `NX_%s_%s` | %s |\n", #field, value, #field, #name, desc);
#include "nexus.def"
}

/* waves/filters/tcode.txt: GTKWave's names of the TCODE probe (nexus.def) */
static void tcode_filter(void) {
    puts("# Nexus TCODE (decimal) -> name; for probe_te_tcode_i (SiFive decoder's names, shortened)");
    puts("0 -");
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) printf("%d %s\n", tcode, #name);
#include "nexus.def"
}

/* docs/reference/perf-wire.md: the perf library's wire format (perf_wire.def) */
static void perf_wire_consts(void) {
    puts("| name | value | meaning |");
    puts("|---|---|---|");
#define TS_PW_CONST(name, value, desc) printf((value) > 255 || strstr(#name, "MASK") ? "| `TS_PW_%s` | 0x%x | %s |\n" : "| `TS_PW_%s` | %u | %s |\n", #name, (unsigned)(value), desc);
#include "perf_wire.def"
}
static void perf_wire_types(void) {
    puts("| kind | value | name | SiFive's name | meaning |");
    puts("|---|---|---|---|---|");
#define TS_PW_COUNT(name, value, sifive, desc) \
    printf("| count type | %d | `TS_PW_COUNT_%s` | `perfCount_%s` | %s |\n", value, #name, #sifive, desc);
#define TS_PW_RECORD(name, value, sifive, addrs, desc) \
    printf("| record type | %d | `TS_PW_REC_%s` | `perfRecord_%s` | %s (%d address%s) |\n", value, #name, #sifive, desc, addrs, addrs == 1 ? "" : "es");
#define TS_PW_EVENT(name, value, sifive, words, desc) \
    printf("| event type | %d | `TS_PW_EV_%s` | `perfEvent%s` | %s (%d word%s after the type) |\n", value, #name, #sifive, desc, words, words == 1 ? "" : "s");
#include "perf_wire.def"
}
static void perf_wire_stores(void) {
    puts("| part | store | bytes | when | value |");
    puts("|---|---|---|---|---|");
#define TS_PW_STORE(part, name, bytes, when, value) \
    printf("| %s | %s | %d | %s | %s |\n", #part, #name, bytes, *(when) ? (when) : "always", value);
#include "perf_wire.def"
}

/* docs/reference/exit-status.md: every exit status (exit_status.def) */
static void exit_status(void) {
    puts("| status | name | commands | meaning |");
    puts("|---|---|---|---|");
#define TS_EXIT(name, status, cmds, meaning) printf("| %d | `TS_EXIT_%s` | %s | %s |\n", status, #name, cmds, meaning);
#include "exit_status.def"
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_docs soc_map|soc_regs|hpm_events|sbi_events|sbi_fw_events|trace_regs|trace_fields|stm|run_files|"
                        "nexus_tcodes|nexus_fields|nexus_codes|tcode_filter|perf_wire_consts|perf_wire_types|perf_wire_stores|exit_status\n");
        return 2;
    }
    if (!strcmp(argv[1], "soc_map")) soc_map();
    else if (!strcmp(argv[1], "soc_regs"))
        soc_regs();
    else if (!strcmp(argv[1], "hpm_events"))
        hpm_events();
    else if (!strcmp(argv[1], "sbi_events"))
        sbi_events();
    else if (!strcmp(argv[1], "sbi_fw_events"))
        sbi_fw_events();
    else if (!strcmp(argv[1], "trace_regs"))
        trace_regs();
    else if (!strcmp(argv[1], "trace_fields"))
        trace_fields();
    else if (!strcmp(argv[1], "stm"))
        stm();
    else if (!strcmp(argv[1], "run_files"))
        run_files();
    else if (!strcmp(argv[1], "nexus_tcodes"))
        nexus_tcodes();
    else if (!strcmp(argv[1], "nexus_fields"))
        nexus_fields();
    else if (!strcmp(argv[1], "nexus_codes"))
        nexus_codes();
    else if (!strcmp(argv[1], "tcode_filter"))
        tcode_filter();
    else if (!strcmp(argv[1], "perf_wire_consts"))
        perf_wire_consts();
    else if (!strcmp(argv[1], "perf_wire_types"))
        perf_wire_types();
    else if (!strcmp(argv[1], "perf_wire_stores"))
        perf_wire_stores();
    else if (!strcmp(argv[1], "exit_status"))
        exit_status();
    else {
        fprintf(stderr, "gen_docs: unknown table '%s'\n", argv[1]);
        return 2;
    }
    return 0;
}
