/* test_sweep.c - the sweep runner's JSON reader, spec checks and point planning
 * (sweep/): values and lines read back, every spec mistake as FILE:LINE with its
 * message, point order, exclusions, ignored axes, --only, names and their hashes, and the
 * baseline of a point. Expected values are written by hand from the spec text. */
#include "ts_index.h"
#include "ts_json.h"
#include "sweep_spec.h"
#include "ts_test.h"
#include <sys/stat.h>
#include <unistd.h>

/* ---- JSON ------------------------------------------------------------------------------ */

static sj_value_t *parse_ok(const char *text) {
    char err[256];
    sj_value_t *v = sj_parse(text, strlen(text), err, sizeof err);
    if (!v) TS_FAIL("parse failed: %s", err);
    return v;
}
static void parse_bad(const char *text, const char *want) {
    char err[256];
    sj_value_t *v = sj_parse(text, strlen(text), err, sizeof err);
    if (v) {
        sj_free(v);
        TS_FAIL("parsed, expected \"%s\": %s", want, text);
    }
    TS_ASSERT_STR_EQ(err, want);
}

TS_TEST(json_values_and_lines) {
    sj_value_t *v = parse_ok("{\n  \"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\\n\"],\n\n  \"b\": {\"c\": true, \"d\": null}\n}");
    TS_ASSERT_EQ_U(v->type, SJ_OBJECT);
    TS_ASSERT_EQ_U(v->n, 2);
    TS_ASSERT_EQ_U(v->key_lines[0], 2);
    TS_ASSERT_EQ_U(v->key_lines[1], 4);
    const sj_value_t *a = sj_get(v, "a");
    TS_ASSERT_EQ_U(a->n, 3);
    TS_ASSERT_STR_EQ(a->items[0]->s, "1");
    TS_ASSERT_STR_EQ(a->items[1]->s, "-2.5e3");
    TS_ASSERT_STR_EQ(a->items[2]->s, "x\xc3\xa9\xf0\x9f\x98\x80\n");
    TS_ASSERT_EQ_U(a->items[2]->line, 2);
    const sj_value_t *b = sj_get(v, "b");
    TS_ASSERT_EQ_U(b->line, 4);
    TS_ASSERT(sj_get(b, "c")->type == SJ_BOOL && sj_get(b, "c")->b);
    TS_ASSERT_EQ_U(sj_get(b, "d")->type, SJ_NULL);
    TS_ASSERT(sj_get(b, "e") == NULL);
    sj_free(v);
}

TS_TEST(json_errors) {
    parse_bad("{\"a\": 1,}", "line 1: trailing ',' before '}'");
    parse_bad("[1, 2,\n]", "line 2: trailing ',' before ']'");
    parse_bad("{\"a\": 1,\n \"a\": 2}", "line 2: duplicate member \"a\" (first on line 1)");
    parse_bad("{\n'a': 1}", "line 2: expected a member name in double quotes, found '''");
    parse_bad("[1]\n// x", "line 2: unexpected '/' after the end of the document");
    parse_bad("{\"a\" 1}", "line 1: expected ':' after \"a\", found '1'");
    parse_bad("[01]", "line 1: expected ',' or ']' in an array, found '1'");
    parse_bad("[1.]", "line 1: bad number (digits expected after '.')");
    parse_bad("[\"a\nb\"]", "line 1: line break inside a string (write \\n)");
    parse_bad("[\"\\x\"]", "line 1: bad escape '\\x' in a string");
    parse_bad("[\"\\ud800\"]", "line 1: lone UTF-16 surrogate in a \\u escape");
    parse_bad("[tru]", "line 1: expected a value, found 't'");
    parse_bad("\n\n[", "line 3: expected a value, found the end of the file");
    parse_bad("\"abc", "line 1: unterminated string");
    parse_bad("", "line 1: expected a value, found the end of the file");
    char deep[200];
    memset(deep, '[', 70);
    deep[70] = 0;
    parse_bad(deep, "line 1: nested more than 64 deep");
}

/* ---- specs ----------------------------------------------------------------------------- */

static char fw_path[256];

/* the spec text with FW replaced by an existing file */
static int spec_parse(sw_spec_t *s, const char *text, char *err, size_t errlen) {
    char buf[8192];
    size_t k = 0;
    for (const char *p = text; *p && k + 256 < sizeof buf;) {
        if (!strncmp(p, "FW", 2)) {
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", fw_path);
            p += 2;
        } else
            buf[k++] = *p++;
    }
    buf[k] = 0;
    return sw_spec_parse(s, buf, k, "t.json", err, errlen);
}

static void setup_fw(void) {
    snprintf(fw_path, sizeof fw_path, "/tmp/ts_sweep_unit_%d.elf", (int)getpid());
    FILE *f = fopen(fw_path, "w");
    TS_ASSERT(f != NULL);
    fputs("x", f);
    fclose(f);
}

static void spec_bad(const char *text, const char *want) {
    sw_spec_t s;
    char err[512];
    int rc = spec_parse(&s, text, err, sizeof err);
    if (!rc) {
        sw_spec_free(&s);
        TS_FAIL("spec accepted, expected \"%s\"", want);
    }
    sw_spec_free(&s);
    TS_ASSERT_STR_EQ(err, want);
}

static void plan_bad(const char *text, const char *const *only, const char *want) {
    sw_spec_t s;
    char err[512];
    if (spec_parse(&s, text, err, sizeof err)) TS_FAIL("spec rejected: %s", err);
    int *sel[SW_MAX_AXES] = {0};
    int rc = 0;
    for (const char *const *o = only; o && *o && !rc; o++) rc = sw_only_parse(&s, *o, sel, err, sizeof err);
    sw_plan_t p;
    if (!rc && !(rc = sw_plan(&s, sel, "/b", &p, err, sizeof err))) sw_plan_free(&p);
    for (int a = 0; a < SW_MAX_AXES; a++) free(sel[a]);
    sw_spec_free(&s);
    if (!rc) TS_FAIL("planned, expected \"%s\"", want);
    TS_ASSERT_STR_EQ(err, want);
}

TS_TEST(spec_errors) {
    setup_fw();
    spec_bad("[]", "t.json:1: a sweep spec must be an object, not an array");
    spec_bad("{\"firmware\": \"FW\",\n \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"colect\": []}",
             "t.json:3: unknown key \"colect\" in the spec (known: name, firmware, run, axes, exclude, check, "
             "expect_exit, perf_channel, baseline, baselines, collect)");
    spec_bad("{\"firmware\": \"FW\",\n \"axes\": []}", "t.json:2: \"axes\" is empty (at least one axis)");
    spec_bad("{\"firmware\": \"FW\",\n \"axes\": [\n {\"name\": \"a\",\n \"values\": []}]}", "t.json:4: axis \"a\" has no values");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]},\n {\"name\": \"a\", \"values\": [2]}]}",
             "t.json:2: duplicate axis \"a\" (first on line 1)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1,\n 1]}]}",
             "t.json:2: axis \"a\": duplicate value \"1\" (first on line 1)");
    spec_bad("{\"firmware\": 7, \"axes\": [{\"name\": \"a\", \"values\": [1]}]}",
             "t.json:1: \"firmware\" must be a string, not a number");
    spec_bad("{\"axes\": [{\"name\": \"a\", \"values\": [1]}]}",
             "t.json:1: the spec needs \"firmware\" (an ELF path; {axis} placeholders allowed)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [true]}]}",
             "t.json:1: axis \"a\": a value must be a string, a number or an object, not true or false");
    spec_bad("{\"firmware\": \"{b}.elf\", \"axes\": [{\"name\": \"a\", \"values\": [1]}]}",
             "t.json:1: \"firmware\" \"{b}.elf\": unknown placeholder {b} (axes, {build} or {spec_dir})");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"run\": [\"--x\", [1]], \"values\": [1]}]}",
             "t.json:1: \"run\": items must be strings, not an array");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"1a\", \"values\": [1]}]}",
             "t.json:1: axis name \"1a\": letters, digits and '_', not starting with a digit (and not build, spec_dir, "
             "point, status, exit, check, seconds or error)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [{\"value\": 1, \"ignore\": [\"z\"]}]}]}",
             "t.json:1: \"ignore\": unknown axis \"z\"");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [{\"valu\": 1}]}]}",
             "t.json:1: unknown key \"valu\" in an axis value (known: value, run, firmware, ignore)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"exclude\": [{\"a\": 2}]}",
             "t.json:2: \"exclude\": axis \"a\" has no value \"2\"");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"collect\": [\"stats.cycles\", \"cycles\"]}",
             "t.json:2: \"collect\": unknown figure \"cycles\" (stats.KEY, hpm.COUNTER, events.COLUMN, trace.KEY, "
             "perf.records, check, overhead.FIGURE, per_record.FIGURE)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"collect\": [\"check\"]}",
             "t.json:2: \"collect\": \"check\" needs \"check\": true");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"collect\": [\"overhead.stats.cycles\"]}",
             "t.json:2: \"collect\": \"overhead.stats.cycles\" needs a \"baseline\"");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}], \"baseline\": {\"a\": 1},\n"
             " \"collect\": [\"stats.cycles\",\n \"stats.cycles\"]}",
             "t.json:3: \"collect\": \"stats.cycles\" twice (first on line 2)");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"baseline\": {\"a\": 3}}",
             "t.json:2: \"baseline\": axis \"a\" has no value 3");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}], \"baselines\": {\"one\": {\"a\": 1}},\n"
             " \"collect\": [\"per_record.stats.cycles@two\"]}",
             "t.json:2: \"collect\": \"per_record.stats.cycles@two\": no baseline \"two\" in \"baselines\"");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"baselines\": {\"one\": {\"b\": 1}}}",
             "t.json:2: baseline \"one\": unknown axis \"b\"");
    spec_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1]}],\n \"check\": \"yes\"}",
             "t.json:2: \"check\" must be true, false or an object, not a string");
    spec_bad("{\"firmware\": \"FW\",\n \"axes\": [{\"name\": \"a\", \"values\": [1]}],,}",
             "t.json:2: expected a member name in double quotes, found ','");
    unlink(fw_path);
}

TS_TEST(plan_errors) {
    setup_fw();
    plan_bad("{\"firmware\": \"/no/such/{a}.elf\",\n \"axes\": [{\"name\": \"a\", \"values\": [\"x\"]}]}", NULL,
             "t.json:1: firmware /no/such/x.elf of point x not found");
    plan_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1, 2]}],\n \"exclude\": [{\"a\": [1, 2]}]}", NULL,
             "t.json:1: no points (every combination is excluded or left out by --only)");
    const char *only[] = {"a=3", NULL};
    plan_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1, 2]}]}", only,
             "--only: axis \"a\" has no value \"3\"");
    const char *only2[] = {"b=1", NULL};
    plan_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [1, 2]}]}", only2,
             "--only: t.json has no axis \"b\"");
    /* a template that uses an axis which the point's value ignores */
    plan_bad("{\"firmware\": \"FW\", \"axes\": [{\"name\": \"m\", \"values\": [{\"value\": \"out\", \"ignore\": [\"s\"]}]},\n"
             " {\"name\": \"s\", \"values\": [1]}],\n \"run\": [\"--sink={s}\"]}",
             NULL,
             "t.json:3: \"--sink={s}\" uses {s}, which the point's value of another axis ignores");
    unlink(fw_path);
}

static const char *value_of(const sw_spec_t *s, const sw_point_t *pt, size_t a) {
    return pt->vi[a] == SW_IGNORED ? "-" : s->axes[a].values[pt->vi[a]].text;
}

TS_TEST(plan_points) {
    setup_fw();
    const char *text =
        "{\"firmware\": \"FW\", \"run\": [\"-n\", \"1000\"],\n"
        " \"axes\": [\n"
        "  {\"name\": \"ex\", \"values\": [\"fib\", \"manual\"]},\n"
        "  {\"name\": \"mode\", \"values\": [{\"value\": \"out\", \"ignore\": [\"sink\"], \"firmware\": \"{build}/{ex}_out.elf\"},\n"
        "                                 {\"value\": \"on\", \"run\": [\"--funnel\"]}]},\n"
        "  {\"name\": \"sink\", \"run\": [\"--sink-width\", \"{sink}\"], \"values\": [4, 8]}],\n"
        " \"exclude\": [{\"ex\": \"manual\", \"sink\": 8}],\n"
        " \"baseline\": {\"mode\": \"out\"}, \"baselines\": {\"four\": {\"sink\": 4}}}";
    sw_spec_t s;
    char err[512];
    if (spec_parse(&s, text, err, sizeof err)) TS_FAIL("%s", err);
    sw_plan_t p;
    /* {build} is where the "out" firmware is: make it exist */
    char build[128], path[192];
    snprintf(build, sizeof build, "/tmp/ts_sweep_unit_%d.d", (int)getpid());
    mkdir(build, 0777);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s_out.elf", build, i ? "manual" : "fib");
        FILE *f = fopen(path, "w");
        TS_ASSERT(f != NULL);
        fclose(f);
    }
    if (sw_plan(&s, NULL, build, &p, err, sizeof err)) TS_FAIL("%s", err);
    /* product order ex, mode, sink; out ignores sink (one point); manual with sink 8 excluded */
    static const char *const want[][4] = {
        {"fib_out", "fib", "out", "-"}, {"fib_on_4", "fib", "on", "4"}, {"fib_on_8", "fib", "on", "8"}, {"manual_out", "manual", "out", "-"}, {"manual_on_4", "manual", "on", "4"}};
    TS_ASSERT_EQ_U(p.n, 5);
    for (size_t i = 0; i < p.n; i++) {
        TS_ASSERT_EQ_U(p.points[i].index, i);
        TS_ASSERT_STR_EQ(p.points[i].name, want[i][0]);
        for (size_t a = 0; a < 3; a++) TS_ASSERT_STR_EQ(value_of(&s, &p.points[i], a), want[i][a + 1]);
    }
    snprintf(path, sizeof path, "%s/fib_out.elf", build);
    TS_ASSERT_STR_EQ(p.points[0].elf, path);
    TS_ASSERT_STR_EQ(p.points[1].elf, fw_path);
    /* options: the spec's, then per axis its own and its value's */
    TS_ASSERT_EQ_U(p.points[0].n_args, 2);
    TS_ASSERT_EQ_U(p.points[2].n_args, 5);
    const char *args2[] = {"-n", "1000", "--funnel", "--sink-width", "8"};
    for (size_t i = 0; i < 5; i++) TS_ASSERT_STR_EQ(p.points[2].args[i], args2[i]);
    /* baselines: the "out" point of the same example; out is its own */
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[2], 0) == &p.points[0]);
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[4], 0) == &p.points[3]);
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[0], 0) == &p.points[0]);
    /* the named baseline "four": the same point with sink 4 */
    TS_ASSERT_STR_EQ(s.baselines[1].name, "four");
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[2], 1) == &p.points[1]);
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[1], 1) == &p.points[1]);
    TS_ASSERT(sw_plan_baseline(&s, &p, &p.points[2], 2) == NULL);
    sw_plan_free(&p);
    /* --only keeps the order and the ignore merging; exclusions apply to the product before
     * the merging, so manual_out (from manual, out, 8) is excluded here */
    int *sel[SW_MAX_AXES] = {0};
    if (sw_only_parse(&s, "sink=8", sel, err, sizeof err)) TS_FAIL("%s", err);
    if (sw_plan(&s, sel, build, &p, err, sizeof err)) TS_FAIL("%s", err);
    TS_ASSERT_EQ_U(p.n, 2);
    TS_ASSERT_STR_EQ(p.points[0].name, "fib_out");
    TS_ASSERT_STR_EQ(p.points[1].name, "fib_on_8");
    sw_plan_free(&p);
    for (int a = 0; a < SW_MAX_AXES; a++) free(sel[a]);
    sw_spec_free(&s);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s_out.elf", build, i ? "manual" : "fib");
        unlink(path);
    }
    rmdir(build);
    unlink(fw_path);
}

TS_TEST(point_names) {
    setup_fw();
    char buf[64];
    sw_sanitize("a b/c.d+e_f", buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "a-b-c.d+e_f");
    sw_sanitize("..x", buf, sizeof buf);
    TS_ASSERT_STR_EQ(buf, "-.x");
    /* FNV-1a 32 of "a" (the published test vector) */
    TS_ASSERT_EQ_U(sw_hash("a"), 0xe40c292cu);
    TS_ASSERT_EQ_U(sw_hash(""), 0x811c9dc5u);
    /* values that clash after sanitising get the hash of axis=value lines; long names are cut */
    const char *text = "{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [\"x y\", \"x/y\", \"z\", "
                       "\"0123456789012345678901234567890123456789012345678901234567890123456789\"]}]}";
    /* '_' joins values: "p_q" + "r" and "p" + "q_r" clash and get hashes too */
    const char *text2 = "{\"firmware\": \"FW\", \"axes\": [{\"name\": \"a\", \"values\": [\"p_q\", \"p\"]},"
                        " {\"name\": \"b\", \"values\": [\"r\", \"q_r\"]}]}";
    sw_spec_t s;
    char err[512], want[64];
    if (spec_parse(&s, text, err, sizeof err)) TS_FAIL("%s", err);
    sw_plan_t p;
    if (sw_plan(&s, NULL, "/b", &p, err, sizeof err)) TS_FAIL("%s", err);
    TS_ASSERT_EQ_U(p.n, 4);
    snprintf(want, sizeof want, "x-y-%08x", sw_hash("a=x y\n"));
    TS_ASSERT_STR_EQ(p.points[0].name, want);
    snprintf(want, sizeof want, "x-y-%08x", sw_hash("a=x/y\n"));
    TS_ASSERT_STR_EQ(p.points[1].name, want);
    TS_ASSERT_STR_EQ(p.points[2].name, "z");
    snprintf(want, sizeof want, "012345678901234567890123456789012345678-%08x",
             sw_hash("a=0123456789012345678901234567890123456789012345678901234567890123456789\n"));
    TS_ASSERT_STR_EQ(p.points[3].name, want);
    TS_ASSERT_EQ_U(strlen(p.points[3].name), 48);
    /* deterministic: the same spec plans the same names */
    sw_plan_t q;
    if (sw_plan(&s, NULL, "/b", &q, err, sizeof err)) TS_FAIL("%s", err);
    for (size_t i = 0; i < p.n; i++) TS_ASSERT_STR_EQ(q.points[i].name, p.points[i].name);
    sw_plan_free(&q);
    sw_plan_free(&p);
    sw_spec_free(&s);
    if (spec_parse(&s, text2, err, sizeof err)) TS_FAIL("%s", err);
    if (sw_plan(&s, NULL, "/b", &p, err, sizeof err)) TS_FAIL("%s", err);
    TS_ASSERT_EQ_U(p.n, 4);
    snprintf(want, sizeof want, "p_q_r-%08x", sw_hash("a=p_q\nb=r\n"));
    TS_ASSERT_STR_EQ(p.points[0].name, want);
    TS_ASSERT_STR_EQ(p.points[1].name, "p_q_q_r");
    TS_ASSERT_STR_EQ(p.points[2].name, "p_r");
    snprintf(want, sizeof want, "p_q_r-%08x", sw_hash("a=p\nb=q_r\n"));
    TS_ASSERT_STR_EQ(p.points[3].name, want);
    sw_plan_free(&p);
    sw_spec_free(&s);
    unlink(fw_path);
}

/* ---- the hash index (sweep_index.h) ------------------------------------------------------ */

static bool int_eq(const void *ctx, size_t item, const void *key) {
    return ((const int *)ctx)[item] == *(const int *)key;
}

TS_TEST(index_find_add_grow) {
    enum { N = 5000 };
    static int items[N];
    sw_index_t ix = {0};
    int k = 7;
    TS_ASSERT_EQ_U(sw_index_find(&ix, 1, &k, int_eq, items), SW_INDEX_NONE); /* empty, never added */
    /* hash h = value % 3: many equal hashes, so equality alone must tell the items apart */
    for (int i = 0; i < N; i++) {
        items[i] = 10 * i;
        TS_ASSERT_EQ_U(sw_index_find(&ix, (uint64_t)(items[i] % 3), &items[i], int_eq, items), SW_INDEX_NONE);
        TS_ASSERT_EQ_I(sw_index_add(&ix, (uint64_t)(items[i] % 3), (size_t)i), 0);
    }
    TS_ASSERT_EQ_U(ix.n, N);
    TS_ASSERT(2 * ix.n <= ix.mask + 1); /* at most half full after growing */
    for (int i = 0; i < N; i++) {
        int key = 10 * i;
        TS_ASSERT_EQ_U(sw_index_find(&ix, (uint64_t)(key % 3), &key, int_eq, items), (size_t)i);
        key = 10 * i + 1; /* never added */
        TS_ASSERT_EQ_U(sw_index_find(&ix, (uint64_t)(key % 3), &key, int_eq, items), SW_INDEX_NONE);
    }
    sw_index_free(&ix);
    TS_ASSERT(ix.slot == NULL && ix.n == 0);
}

TS_TEST(index_hash64) {
    /* 64-bit FNV-1a: offset basis for "", and "a" by hand: (basis ^ 0x61) * prime mod 2^64 */
    TS_ASSERT_EQ_U(sw_hash64_str(""), 14695981039346656037ull);
    TS_ASSERT_EQ_U(sw_hash64_str("a"), 0xaf63dc4c8601ec8cull);
    TS_ASSERT_EQ_U(sw_hash64("ab", 1), sw_hash64_str("a"));
}

TS_TEST_MAIN()
