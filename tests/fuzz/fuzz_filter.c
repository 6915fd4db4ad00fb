/* fuzz_filter.c - libFuzzer target over the GTKWave translate-filter protocol
 * (waves/gtkwave/symfilter.c ts_filter_loop with the symfilter and stmfilter answers): the
 * input is what GTKWave would write to the filter's stdin (lines of any length, a last line
 * without newline, binary junk); the loop must answer every line with exactly one line. The
 * first byte picks the filter. A crash, hang, leak, out-of-bounds access or a count of answer
 * lines that differs from the count of input lines is a failure (tests/fuzz/fuzz.cmake:
 * fuzz.filter). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "elf_syms.h"
#include "stmfilter.h"
#include "symfilter.h"

static elf_syms_t syms;

static void sym_line(void *ctx, const char *in, char *out, size_t outlen) { ts_symfilter_line(ctx, in, out, outlen); }
static void stm_line(void *ctx, const char *in, char *out, size_t outlen) {
    (void)ctx;
    ts_stmfilter_line(in, out, outlen);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    char err[512];
#define STR2(x) #x
#define STR(x) STR2(x)
    if (elf_syms_load(&syms, STR(FUZZ_FILTER_ELF), err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int in = memfd_create("in", 0), out = memfd_create("out", 0);
    if (in < 0 || out < 0) abort();
    if (size > 1 && write(in, data + 1, size - 1) != (ssize_t)(size - 1)) abort();
    lseek(in, 0, SEEK_SET);
    /* the filter reads stdin and writes stdout: point them at the two memory files */
    fflush(stdout);
    int saved_in = dup(0), saved_out = dup(1);
    dup2(in, 0);
    dup2(out, 1);
    clearerr(stdin);
    if (data[0] & 1) ts_filter_loop(sym_line, &syms);
    else
        ts_filter_loop(stm_line, NULL);
    fflush(stdout);
    dup2(saved_in, 0);
    dup2(saved_out, 1);
    close(saved_in);
    close(saved_out);
    clearerr(stdin);
    /* one answer line per input line (a last line without newline counts) */
    size_t lines = 0;
    for (size_t i = 1; i < size; i++) lines += data[i] == '\n';
    if (size > 1 && data[size - 1] != '\n') lines++;
    off_t olen = lseek(out, 0, SEEK_END);
    size_t answers = 0;
    if (olen > 0) {
        char *o = malloc((size_t)olen);
        if (!o || pread(out, o, (size_t)olen, 0) != olen) abort();
        for (off_t i = 0; i < olen; i++) answers += o[i] == '\n';
        free(o);
    }
    close(in);
    close(out);
    if (answers != lines) {
        fprintf(stderr, "fuzz_filter: %zu answers to %zu lines\n", answers, lines);
        abort();
    }
    return 0;
}
