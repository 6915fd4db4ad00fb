/* sweep_json.h - a strict JSON reader (RFC 8259) that keeps the line of every value and
 * member name, so that a sweep spec's mistakes can be reported as FILE:LINE.
 *
 * Strict: no comments, no trailing commas, no duplicate member names, nothing after the
 * top-level value, nesting at most 64 deep. Strings are decoded (escapes, \uXXXX with
 * surrogate pairs, to UTF-8); numbers are kept as their source text (and checked against the
 * JSON grammar). The whole document is one tree; free it with sj_free(). */
#ifndef TS_SWEEP_JSON_H
#define TS_SWEEP_JSON_H
#include <stdbool.h>
#include <stddef.h>

enum sj_type { SJ_NULL,
               SJ_BOOL,
               SJ_NUMBER,
               SJ_STRING,
               SJ_ARRAY,
               SJ_OBJECT };

typedef struct sj_value sj_value_t;
struct sj_value {
    enum sj_type type;
    unsigned line;       /* line of the value's first character (1-based) */
    bool b;              /* SJ_BOOL */
    char *s;             /* SJ_STRING: decoded text; SJ_NUMBER: the number as written */
    size_t n;            /* SJ_ARRAY, SJ_OBJECT: number of items/members */
    sj_value_t **items;  /* SJ_ARRAY items, SJ_OBJECT member values */
    char **keys;         /* SJ_OBJECT member names */
    unsigned *key_lines; /* SJ_OBJECT: line of each member name */
};

/* parses text[0..len); NULL on error with "line N: what" in err */
sj_value_t *sj_parse(const char *text, size_t len, char *err, size_t errlen);
void sj_free(sj_value_t *v);
/* the member `key` of an object, or NULL (also NULL when v is not an object) */
const sj_value_t *sj_get(const sj_value_t *v, const char *key);
/* "a string", "an array", ... for error messages */
const char *sj_type_name(enum sj_type t);
#endif
