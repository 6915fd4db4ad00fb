/* sweep_json.c - a strict JSON reader with line numbers: see sweep_json.h. */
#include "ts_json.h"
#include "ts_index.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SJ_MAX_DEPTH 64

typedef struct sj_parser {
    const char *p, *end;
    unsigned line;
    char *err;
    size_t errlen;
    bool failed;
} sj_parser_t;

static void fail(sj_parser_t *ps, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void fail(sj_parser_t *ps, const char *f, ...) {
    if (ps->failed) return;
    ps->failed = true;
    int k = snprintf(ps->err, ps->errlen, "line %u: ", ps->line);
    if (k < 0 || (size_t)k >= ps->errlen) return;
    va_list ap;
    va_start(ap, f);
    vsnprintf(ps->err + k, ps->errlen - (size_t)k, f, ap);
    va_end(ap);
}

static void skip_ws(sj_parser_t *ps) {
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') ps->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        ps->p++;
    }
}

/* what is at p, for "expected X, found Y" */
static const char *found(const sj_parser_t *ps, char *buf, size_t len) {
    if (ps->p >= ps->end) return "the end of the file";
    unsigned char c = (unsigned char)*ps->p;
    if (c >= 0x20 && c < 0x7f) snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", c);
    return buf;
}

static sj_value_t *new_value(sj_parser_t *ps, enum sj_type t) {
    sj_value_t *v = calloc(1, sizeof *v);
    if (!v) {
        fail(ps, "out of memory");
        return NULL;
    }
    v->type = t;
    v->line = ps->line;
    return v;
}

static bool push(void **arr, size_t n, size_t size) {
    if (n & (n - 1)) return true; /* capacity doubles at powers of two */
    void *a = realloc(*arr, (n ? 2 * n : 1) * size);
    if (!a) return false;
    *arr = a;
    return true;
}

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static void put_utf8(char *out, size_t *k, uint32_t cp) {
    if (cp < 0x80) out[(*k)++] = (char)cp;
    else if (cp < 0x800) {
        out[(*k)++] = (char)(0xc0 | (cp >> 6));
        out[(*k)++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out[(*k)++] = (char)(0xe0 | (cp >> 12));
        out[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*k)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        out[(*k)++] = (char)(0xf0 | (cp >> 18));
        out[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*k)++] = (char)(0x80 | (cp & 0x3f));
    }
}

/* a string at p (which is '"'); the decoded text (malloc'd) or NULL */
static char *parse_string(sj_parser_t *ps) {
    const char *q = ps->p + 1;
    size_t cap = 0;
    while (q < ps->end && *q != '"') {
        if (*q == '\\') q++;
        q++;
        cap++;
    }
    if (q >= ps->end) {
        fail(ps, "unterminated string");
        return NULL;
    }
    char *out = malloc(cap * 4 + 1);
    if (!out) {
        fail(ps, "out of memory");
        return NULL;
    }
    size_t k = 0;
    ps->p++;
    for (;;) {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '"') {
            ps->p++;
            break;
        }
        if (c < 0x20) {
            fail(ps, c == '\n' ? "line break inside a string (write \\n)" : "control character 0x%02x inside a string", c);
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[k++] = (char)c;
            ps->p++;
            continue;
        }
        char e = ps->p[1];
        ps->p += 2;
        switch (e) {
        case '"': out[k++] = '"'; break;
        case '\\': out[k++] = '\\'; break;
        case '/': out[k++] = '/'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case 'u': {
            int u = ps->end - ps->p >= 4 ? hex4(ps->p) : -1;
            if (u < 0) {
                fail(ps, "bad \\u escape (four hex digits expected)");
                free(out);
                return NULL;
            }
            ps->p += 4;
            uint32_t cp = (uint32_t)u;
            if (cp >= 0xd800 && cp < 0xdc00) {
                int lo = ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' ? hex4(ps->p + 2) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) {
                    fail(ps, "lone UTF-16 surrogate in a \\u escape");
                    free(out);
                    return NULL;
                }
                ps->p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                fail(ps, "lone UTF-16 surrogate in a \\u escape");
                free(out);
                return NULL;
            }
            if (!cp) {
                fail(ps, "\\u0000 is not allowed in a string");
                free(out);
                return NULL;
            }
            put_utf8(out, &k, cp);
            break;
        }
        default:
            fail(ps, "bad escape '\\%c' in a string", e >= 0x20 && e < 0x7f ? e : '?');
            free(out);
            return NULL;
        }
    }
    out[k] = 0;
    return out;
}

static sj_value_t *parse_value(sj_parser_t *ps, unsigned depth);

static sj_value_t *parse_number(sj_parser_t *ps) {
    const char *s = ps->p, *q = s;
    if (q < ps->end && *q == '-') q++;
    if (q < ps->end && *q == '0') q++;
    else if (q < ps->end && *q >= '1' && *q <= '9')
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    else {
        fail(ps, "bad number");
        return NULL;
    }
    if (q < ps->end && *q == '.') {
        q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            fail(ps, "bad number (digits expected after '.')");
            return NULL;
        }
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-')) q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            fail(ps, "bad number (digits expected in the exponent)");
            return NULL;
        }
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < ps->end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_' || *q == '.')) {
        fail(ps, "bad number");
        return NULL;
    }
    sj_value_t *v = new_value(ps, SJ_NUMBER);
    if (!v) return NULL;
    v->s = malloc((size_t)(q - s) + 1);
    if (!v->s) {
        free(v);
        fail(ps, "out of memory");
        return NULL;
    }
    memcpy(v->s, s, (size_t)(q - s));
    v->s[q - s] = 0;
    ps->p = q;
    return v;
}

static sj_value_t *parse_array(sj_parser_t *ps, unsigned depth) {
    sj_value_t *v = new_value(ps, SJ_ARRAY);
    if (!v) return NULL;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return v;
    }
    for (;;) {
        skip_ws(ps);
        sj_value_t *item = parse_value(ps, depth + 1);
        if (!item) {
            sj_free(v);
            return NULL;
        }
        if (!push((void **)&v->items, v->n, sizeof *v->items)) {
            sj_free(item);
            sj_free(v);
            fail(ps, "out of memory");
            return NULL;
        }
        v->items[v->n++] = item;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ']') {
                fail(ps, "trailing ',' before ']'");
                sj_free(v);
                return NULL;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return v;
        }
        char b[16];
        fail(ps, "expected ',' or ']' in an array, found %s", found(ps, b, sizeof b));
        sj_free(v);
        return NULL;
    }
}

static bool key_eq(const void *ctx, size_t item, const void *key) {
    return !strcmp(((const sj_value_t *)ctx)->keys[item], key);
}

/* the members of an object; duplicate names are found through a hash index (linear time) */
static sj_value_t *parse_members(sj_parser_t *ps, unsigned depth, sj_value_t *v, sw_index_t *names);

static sj_value_t *parse_object(sj_parser_t *ps, unsigned depth) {
    sj_value_t *v = new_value(ps, SJ_OBJECT);
    if (!v) return NULL;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return v;
    }
    sw_index_t names = {0};
    v = parse_members(ps, depth, v, &names);
    sw_index_free(&names);
    return v;
}

static sj_value_t *parse_members(sj_parser_t *ps, unsigned depth, sj_value_t *v, sw_index_t *names) {
    for (;;) {
        skip_ws(ps);
        char b[16];
        if (ps->p >= ps->end || *ps->p != '"') {
            fail(ps, "expected a member name in double quotes, found %s", found(ps, b, sizeof b));
            sj_free(v);
            return NULL;
        }
        unsigned kline = ps->line;
        char *key = parse_string(ps);
        if (!key) {
            sj_free(v);
            return NULL;
        }
        uint64_t kh = sw_hash64_str(key);
        size_t first = sw_index_find(names, kh, key, key_eq, v);
        if (first != SW_INDEX_NONE) {
            ps->line = kline;
            fail(ps, "duplicate member \"%s\" (first on line %u)", key, v->key_lines[first]);
            free(key);
            sj_free(v);
            return NULL;
        }
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            fail(ps, "expected ':' after \"%s\", found %s", key, found(ps, b, sizeof b));
            free(key);
            sj_free(v);
            return NULL;
        }
        ps->p++;
        skip_ws(ps);
        sj_value_t *item = parse_value(ps, depth + 1);
        if (!item) {
            free(key);
            sj_free(v);
            return NULL;
        }
        if (!push((void **)&v->items, v->n, sizeof *v->items) || !push((void **)&v->keys, v->n, sizeof *v->keys) ||
            !push((void **)&v->key_lines, v->n, sizeof *v->key_lines)) {
            free(key);
            sj_free(item);
            sj_free(v);
            fail(ps, "out of memory");
            return NULL;
        }
        v->items[v->n] = item;
        v->keys[v->n] = key;
        v->key_lines[v->n] = kline;
        if (sw_index_add(names, kh, v->n++)) {
            sj_free(v);
            fail(ps, "out of memory");
            return NULL;
        }
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == '}') {
                fail(ps, "trailing ',' before '}'");
                sj_free(v);
                return NULL;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return v;
        }
        fail(ps, "expected ',' or '}' in an object, found %s", found(ps, b, sizeof b));
        sj_free(v);
        return NULL;
    }
}

static sj_value_t *parse_word(sj_parser_t *ps, const char *word, enum sj_type t, bool b) {
    size_t k = strlen(word);
    if ((size_t)(ps->end - ps->p) < k || memcmp(ps->p, word, k)) return NULL;
    sj_value_t *v = new_value(ps, t);
    if (!v) return NULL;
    v->b = b;
    ps->p += k;
    return v;
}

static sj_value_t *parse_value(sj_parser_t *ps, unsigned depth) {
    if (depth > SJ_MAX_DEPTH) {
        fail(ps, "nested more than %d deep", SJ_MAX_DEPTH);
        return NULL;
    }
    skip_ws(ps);
    char b[16];
    if (ps->p >= ps->end) {
        fail(ps, "expected a value, found the end of the file");
        return NULL;
    }
    char c = *ps->p;
    if (c == '{') return parse_object(ps, depth);
    if (c == '[') return parse_array(ps, depth);
    if (c == '"') {
        sj_value_t *v = new_value(ps, SJ_STRING);
        if (!v) return NULL;
        if (!(v->s = parse_string(ps))) {
            free(v);
            return NULL;
        }
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(ps);
    sj_value_t *v = c == 't' ? parse_word(ps, "true", SJ_BOOL, true) : c == 'f' ? parse_word(ps, "false", SJ_BOOL, false) :
                                                                   c == 'n'     ? parse_word(ps, "null", SJ_NULL, false) :
                                                                                  NULL;
    if (!v) fail(ps, "expected a value, found %s%s", found(ps, b, sizeof b),
                 c == '\'' ? " (strings take double quotes)" : c == '/' || c == '#' ? " (JSON has no comments)" :
                                                                                      "");
    return v;
}

sj_value_t *sj_parse(const char *text, size_t len, char *err, size_t errlen) {
    sj_parser_t ps = {text, text + len, 1, err, errlen, false};
    if (errlen) err[0] = 0;
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) ps.p += 3; /* a UTF-8 byte order mark */
    sj_value_t *v = parse_value(&ps, 0);
    if (!v) return NULL;
    skip_ws(&ps);
    if (ps.p < ps.end) {
        char b[16];
        fail(&ps, "unexpected %s after the end of the document", found(&ps, b, sizeof b));
        sj_free(v);
        return NULL;
    }
    return v;
}

void sj_free(sj_value_t *v) {
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        sj_free(v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->key_lines);
    free(v->s);
    free(v);
}

const sj_value_t *sj_get(const sj_value_t *v, const char *key) {
    if (!v || v->type != SJ_OBJECT) return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key)) return v->items[i];
    return NULL;
}

const char *sj_type_name(enum sj_type t) {
    static const char *const names[] = {"null", "true or false", "a number", "a string", "an array", "an object"};
    return names[t];
}
