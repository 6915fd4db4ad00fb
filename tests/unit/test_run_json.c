/* test_run_json.c - trace.json through the strict reader (analysis/run/ts_run_json.h): values
 * read back with their types and ranges, and each defect the issue found in the old text
 * search (no space after the colon, values past 32 bits, negative counts, garbage) is an error
 * naming the file, line and key. Files are written here; expected values by hand. */
#include "ts_run_json.h"
#include "ts_test.h"
#include <unistd.h>

static char path[64];

static int open_text(ts_run_json_t *j, const char *text, char *err, size_t errlen) {
    snprintf(path, sizeof path, "/tmp/ts_run_json.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) TS_FAIL("mkstemp");
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) TS_FAIL("write");
    close(fd);
    int rc = ts_run_json_open(j, path, err, errlen);
    unlink(path);
    return rc;
}

TS_TEST(values) {
    ts_run_json_t j;
    char err[512] = "";
    TS_ASSERT_EQ_I(open_text(&j, "{\"wrapped\":true, \"srcbits\": 4,\n \"sink\": \"sba\", \"bytes\": 18446744073709551615}", err, sizeof err), 1);
    bool b = false;
    uint64_t u = 0;
    const char *s = NULL;
    TS_ASSERT_EQ_I(ts_run_json_bool(&j, "wrapped", &b, err, sizeof err), 1);
    TS_ASSERT(b); /* no space after the colon: still seen */
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "srcbits", 0, 8, &u, err, sizeof err), 1);
    TS_ASSERT_EQ_U(u, 4);
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "bytes", 0, UINT64_MAX, &u, err, sizeof err), 1);
    TS_ASSERT_EQ_U(u, UINT64_MAX);
    TS_ASSERT_EQ_I(ts_run_json_string(&j, "sink", &s, err, sizeof err), 1);
    TS_ASSERT_STR_EQ(s, "sba");
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "harts", 1, 8, &u, err, sizeof err), 0); /* absent */
    ts_run_json_close(&j);
}

TS_TEST(bad_values) {
    ts_run_json_t j;
    char err[512] = "", want[600];
    TS_ASSERT_EQ_I(open_text(&j, "{\n\"srcbits\": 4294967297,\n\"harts\": -1,\n\"wrapped\": 1,\n\"tsbits\": 40.5,\n\"sink\": 7}", err, sizeof err), 1);
    uint64_t u = 77;
    bool b;
    const char *s;
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "srcbits", 0, 8, &u, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: \"srcbits\" must be a whole number from 0 to 8, not 4294967297", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "harts", 1, 8, &u, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: \"harts\" must be a whole number from 1 to 8, not -1", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_I(ts_run_json_bool(&j, "wrapped", &b, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:4: \"wrapped\" must be true or false, not 1", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "tsbits", 1, 64, &u, err, sizeof err), -1);
    TS_ASSERT_EQ_I(ts_run_json_string(&j, "sink", &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:6: \"sink\" must be a string, not 7", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_U(u, 77); /* never written on an error */
    ts_run_json_close(&j);
}

TS_TEST(bad_files) {
    ts_run_json_t j;
    char err[512] = "", want[600];
    TS_ASSERT_EQ_I(open_text(&j, "{\"a\": 1,}", err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: trailing ',' before '}'", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_I(open_text(&j, "[1, 2]", err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: the top level must be an object, not an array", path);
    TS_ASSERT_STR_EQ(err, want);
    TS_ASSERT_EQ_I(open_text(&j, "garbage", err, sizeof err), -1);
    TS_ASSERT_EQ_I(ts_run_json_open(&j, "/no/such/dir/trace.json", err, sizeof err), 0); /* no file: not an error */
    uint64_t u;
    TS_ASSERT_EQ_I(ts_run_json_uint(&j, "srcbits", 0, 8, &u, err, sizeof err), 0);
    TS_ASSERT_EQ_I(ts_run_json_open(&j, "/tmp", err, sizeof err), -1); /* a folder */
    TS_ASSERT_STR_EQ(err, "/tmp is not a regular file");
}

TS_TEST_MAIN()
