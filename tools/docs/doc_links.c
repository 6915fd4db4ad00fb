/* doc_links.c - checks the links of Markdown files: every relative link must name a file or
 * folder inside the repository, and every #anchor a heading (or an explicit <a id/name>) of
 * the file it points into. Links inside fenced code blocks and inline code are not links;
 * http(s) and mailto links are not followed. Anchors follow GitHub's rule: the heading text
 * lower-cased, markup backticks dropped, characters other than letters, digits, spaces, '-'
 * and '_' dropped, spaces turned into '-', and "-1", "-2" ... appended to repeats.
 *
 *   doc_links ROOT FILE.md...    prints one line per broken link (FILE:LINE: what) and exits
 *                                1 if there is any, 0 if all resolve (2: usage, unreadable)
 *
 * Used by the docs.links test (tests/CMakeLists.txt) on README.md and docs/. */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct strs {
    char **s;
    size_t n, cap;
} strs_t;

static void strs_add(strs_t *v, const char *s, size_t n) {
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->s = realloc(v->s, v->cap * sizeof *v->s);
        if (!v->s) {
            fputs("doc_links: out of memory\n", stderr);
            exit(2);
        }
    }
    char *c = malloc(n + 1);
    if (!c) {
        fputs("doc_links: out of memory\n", stderr);
        exit(2);
    }
    memcpy(c, s, n);
    c[n] = 0;
    v->s[v->n++] = c;
}

static bool strs_has(const strs_t *v, const char *s) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->s[i], s)) return true;
    return false;
}

static void strs_free(strs_t *v) {
    for (size_t i = 0; i < v->n; i++) free(v->s[i]);
    free(v->s);
    memset(v, 0, sizeof *v);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* a fence line: ``` or ~~~ after up to three spaces */
static bool is_fence(const char *line) {
    while (*line == ' ') line++;
    return !strncmp(line, "```", 3) || !strncmp(line, "~~~", 3);
}

/* GitHub's anchor of a heading text */
static void slug(const char *text, size_t n, char *out, size_t len) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x80) out[k++] = (char)c; /* UTF-8 letters are kept as they are */
        else if (isalnum(c) || c == '_' || c == '-')
            out[k++] = (char)tolower(c);
        else if (c == ' ')
            out[k++] = '-';
    }
    out[k] = 0;
}

/* the anchors of a Markdown file: its headings' slugs and explicit <a id=".."> / name=".." */
static void anchors_of(const char *text, strs_t *a) {
    bool fenced = false;
    strs_t seen = {0};
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (is_fence(line)) fenced = !fenced;
        else if (!fenced && line[0] == '#') {
            size_t h = 0;
            while (h < n && line[h] == '#') h++;
            if (h <= 6 && h < n && line[h] == ' ') {
                const char *t = line + h + 1;
                size_t tn = n - h - 1;
                while (tn && (t[tn - 1] == ' ' || t[tn - 1] == '#')) tn--;
                char s[512], u[540];
                slug(t, tn, s, sizeof s);
                /* repeats: -1, -2, ... */
                snprintf(u, sizeof u, "%s", s);
                for (unsigned r = 1; strs_has(&seen, u); r++) snprintf(u, sizeof u, "%s-%u", s, r);
                strs_add(&seen, u, strlen(u));
                strs_add(a, u, strlen(u));
            }
        }
        for (const char *p = line; !fenced && p < line + n; p++) {
            const char *q = NULL;
            if (!strncmp(p, "<a id=\"", 7) || !strncmp(p, "<a name=\"", 9)) q = strchr(p, '"') + 1;
            if (q) {
                const char *e = strchr(q, '"');
                if (e && e < line + n) strs_add(a, q, (size_t)(e - q));
            }
        }
        line = end ? end + 1 : line + n;
    }
    strs_free(&seen);
}

static int check_link(const char *root_real, const char *file, unsigned lineno, const char *target, size_t tn) {
    char t[4096];
    if (tn >= sizeof t) tn = sizeof t - 1;
    memcpy(t, target, tn);
    t[tn] = 0;
    /* a title: [x](path "title") */
    char *sp = strchr(t, ' ');
    if (sp) *sp = 0;
    if (!strncmp(t, "http://", 7) || !strncmp(t, "https://", 8) || !strncmp(t, "mailto:", 7)) return 0;
    char *hash = strchr(t, '#');
    if (hash) *hash++ = 0;
    char path[8192];
    if (!*t) {
        snprintf(path, sizeof path, "%s", file);
    } else {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", file);
        char *slash = strrchr(dir, '/');
        if (slash) slash[1] = 0;
        else
            snprintf(dir, sizeof dir, "./");
        snprintf(path, sizeof path, "%s%s", dir, t);
    }
    char real[PATH_MAX];
    struct stat sb;
    if (!realpath(path, real) || stat(real, &sb)) {
        printf("%s:%u: link to %s: no such file or folder\n", file, lineno, t);
        return 1;
    }
    size_t rl = strlen(root_real);
    if (strncmp(real, root_real, rl) || (real[rl] && real[rl] != '/')) {
        printf("%s:%u: link to %s: outside the repository\n", file, lineno, t);
        return 1;
    }
    if (!hash || !*hash) return 0;
    if (!S_ISREG(sb.st_mode)) {
        printf("%s:%u: link to %s#%s: an anchor in a folder\n", file, lineno, t, hash);
        return 1;
    }
    char *text = read_all(real);
    if (!text) {
        printf("%s:%u: link to %s: cannot read it\n", file, lineno, t);
        return 1;
    }
    strs_t a = {0};
    anchors_of(text, &a);
    bool ok = strs_has(&a, hash);
    strs_free(&a);
    free(text);
    if (!ok) printf("%s:%u: link to %s#%s: no such heading or anchor\n", file, lineno, *t ? t : "(this file)", hash);
    return ok ? 0 : 1;
}

static int check_file(const char *root_real, const char *file) {
    char *text = read_all(file);
    if (!text) {
        fprintf(stderr, "doc_links: cannot read %s\n", file);
        return 2;
    }
    int bad = 0;
    bool fenced = false;
    unsigned lineno = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        lineno++;
        if (is_fence(line)) {
            fenced = !fenced;
        } else if (!fenced && strncmp(line, "    ", 4)) { /* not an indented code block */
            bool code = false;
            for (size_t i = 0; i < n; i++) {
                if (line[i] == '`') code = !code;
                if (code || line[i] != ']' || i + 1 >= n || line[i + 1] != '(') continue;
                const char *t = line + i + 2, *close = memchr(t, ')', n - (size_t)(t - line));
                if (!close) continue;
                bad |= check_link(root_real, file, lineno, t, (size_t)(close - t));
            }
        }
        line = end ? end + 1 : line + n;
    }
    free(text);
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fputs("usage: doc_links ROOT FILE.md...\n", stderr);
        return 2;
    }
    char root_real[PATH_MAX];
    if (!realpath(argv[1], root_real)) {
        fprintf(stderr, "doc_links: no such folder %s\n", argv[1]);
        return 2;
    }
    int rc = 0;
    for (int i = 2; i < argc; i++) {
        int r = check_file(root_real, argv[i]);
        if (r > rc) rc = r;
    }
    return rc;
}
