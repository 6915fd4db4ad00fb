/* ts_text.h - text from an ELF, a trace or a run folder on its way out, shared by every
 * writer (header only: every target that includes the decoder's folder has it):
 *  - ts_csv_field: one CSV field per RFC 4180: quoted when it holds a comma, a double quote,
 *    CR or LF, with double quotes doubled; used by every CSV writer (decode -f csv,
 *    report -f csv, overhead -f csv);
 *  - ts_text_put / ts_text_esc: for a human reading a terminal or a log, every control
 *    character (C0 and DEL, ESC included) as \xNN, so no escape sequence from a symbol name
 *    reaches the terminal (markers.txt's ts_log_text is this); ts_text_cpy into a buffer;
 *    ts_text_write_lines for text a trace carries (itcprint), its lines kept. */
#ifndef TS_TEXT_H
#define TS_TEXT_H
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline bool ts_text_is_ctl(unsigned char c) { return c < 0x20 || c == 0x7f; }

static inline bool ts_text_has_ctl(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (ts_text_is_ctl(*p)) return true;
    return false;
}

/* s written with its control characters as \xNN */
static inline void ts_text_put(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (ts_text_is_ctl(*p)) fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
}

/* the first n bytes of s (or fewer, at a NUL) escaped into dst, at most room bytes, never a
 * character cut in half; the number of bytes written (no NUL added) */
static inline size_t ts_text_cpy(char *dst, size_t room, const char *s, size_t n) {
    static const char hx[] = "0123456789abcdef";
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; n && *p; p++, n--) {
        if (ts_text_is_ctl(*p)) {
            if (k + 4 > room) break;
            dst[k++] = '\\';
            dst[k++] = 'x';
            dst[k++] = hx[*p >> 4];
            dst[k++] = hx[*p & 15];
        } else {
            if (k + 1 > room) break;
            dst[k++] = (char)*p;
        }
    }
    return k;
}

/* s itself when it holds no control character, else its escaped copy in buf (cut to len) */
static inline const char *ts_text_esc(const char *s, char *buf, size_t len) {
    if (!ts_text_has_ctl(s) || !len) return s;
    buf[ts_text_cpy(buf, len - 1, s, (size_t)-1)] = 0;
    return buf;
}

/* n bytes of text from a trace (ITC print strings): line feeds and tabs as they are, every
 * other control character (ESC, CR, NUL included) as \xNN */
static inline void ts_text_write_lines(FILE *f, const char *s, size_t n) {
    size_t k = 0;
    while (k < n && (!ts_text_is_ctl((unsigned char)s[k]) || s[k] == '\n' || s[k] == '\t')) k++;
    if (k == n) {
        fwrite(s, 1, n, f);
        return;
    } /* the usual case: nothing to escape */
    for (const unsigned char *p = (const unsigned char *)s; n; p++, n--)
        if (ts_text_is_ctl(*p) && *p != '\n' && *p != '\t') fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
}

/* s as one CSV field (RFC 4180) */
static inline void ts_csv_field(FILE *o, const char *s) {
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, o);
        return;
    }
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"') fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}
#endif
