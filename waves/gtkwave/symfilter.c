/* symfilter.c - GTKWave translate process filter for PCs; see symfilter.h.
 *
 * GTKWave starts the filter once and, for every value it draws, writes the value in the
 * trace's display format and a newline to the filter's stdin, then reads one line back; the
 * filter must answer every line and flush, or GTKWave waits. */
#include "symfilter.h"
#include "ts_text.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

bool ts_filter_value(const char *in, char *v, size_t vlen, size_t bin_digits, uint64_t max, uint64_t *val) {
    size_t n = 0;
    while (*in && isspace((unsigned char)*in)) in++;
    while (in[n] && !isspace((unsigned char)in[n]) && n < vlen - 1) {
        v[n] = in[n];
        n++;
    }
    v[n] = 0;
    const char *d = v;
    unsigned base = 16;
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d += 2;
    else if (n > bin_digits && strspn(d, "01") == n)
        base = 2;
    uint64_t a = 0;
    bool ok = *d != 0;
    for (const char *c = d; *c && ok; c++) {
        int x = isdigit((unsigned char)*c) ? *c - '0' : isxdigit((unsigned char)*c) ? tolower((unsigned char)*c) - 'a' + 10 :
                                                                                      -1;
        if (x < 0 || (unsigned)x >= base || a > (max - (unsigned)x) / base) ok = false;
        else
            a = a * base + (unsigned)x;
    }
    *val = a;
    return ok;
}

int ts_filter_loop(void (*line)(void *ctx, const char *in, char *out, size_t outlen), void *ctx) {
    char in[4096], out[4096];
    for (;;) {
        /* one line, however long: its first 4095 bytes are the value, the rest is skipped,
         * so that every line GTKWave writes gets exactly one answer */
        size_t n = 0;
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            if (n < sizeof in - 1) in[n++] = (char)c;
        if (c == EOF && n == 0) break;
        in[n] = 0;
        line(ctx, in, out, sizeof out);
        /* a control character in the answer (a newline in a symbol name) would be read as
         * the answer's end and desynchronise GTKWave */
        for (char *p = out; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
        fputs(out, stdout);
        fputc('\n', stdout);
        if (fflush(stdout) || ferror(stdout)) return -1; /* GTKWave gone or stdout full: stop */
        if (c == EOF) break;
    }
    return 0;
}

void ts_symfilter_line(const elf_syms_t *syms, const char *in, char *out, size_t outlen) {
    char v[128];
    uint64_t a;
    const elf_sym_t *s = ts_filter_value(in, v, sizeof v, 8, UINT64_MAX, &a) ? elf_syms_lookup(syms, a) : NULL;
    char nb[512]; /* one answer line: a name's control characters as \xNN */
    if (!s) snprintf(out, outlen, "%s", v);
    else if (a == s->addr)
        snprintf(out, outlen, "%s", ts_text_esc(s->name, nb, sizeof nb));
    else
        snprintf(out, outlen, "%s+0x%" PRIx64, ts_text_esc(s->name, nb, sizeof nb), a - s->addr);
}

static void sym_line(void *ctx, const char *in, char *out, size_t outlen) { ts_symfilter_line(ctx, in, out, outlen); }

int ts_symfilter_run(const ts_symfilter_cfg_t *cfg) {
    elf_syms_t syms = {0};
    char err[512];
    if (elf_syms_load(&syms, cfg->elf, err, sizeof err)) {
        fprintf(stderr, "tracesim: symfilter: %s\n", err);
        return TS_EXIT_BAD_ELF;
    }
    int rc = ts_filter_loop(sym_line, &syms);
    elf_syms_free(&syms);
    return rc ? TS_EXIT_HOST : 0; /* the one line: main's check of stdout */
}
