/* test_run_folder.c - harness/decoder/run_folder.c: relative paths between folders (worked
 * by hand), the FNV-1a 64 hash (the published test vectors of the FNV reference: "" and
 * "a"), stats.txt lookups. */
#include "run_folder.h"
#include "ts_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *rel(const char *from, const char *to) {
    static char buf[256];
    if (ts_rel_path(from, to, buf, sizeof buf)) return "(error)";
    return buf;
}

TS_TEST(rel_path_by_hand) {
    TS_ASSERT_STR_EQ(rel("/a/b/runs/x", "/a/b/build/fw.elf"), "../../build/fw.elf");
    TS_ASSERT_STR_EQ(rel("/a/b", "/a/b/c/fw.elf"), "c/fw.elf");
    TS_ASSERT_STR_EQ(rel("/a/b", "/a/bc/x"), "../bc/x");         /* "b" is no prefix of "bc" */
    TS_ASSERT_STR_EQ(rel("/", "/x/y"), "x/y");
    TS_ASSERT_STR_EQ(rel("/a/run", "/a/run/w.fst"), "w.fst");
    TS_ASSERT_STR_EQ(rel("/a/run", "/elsewhere/fw.elf"), "../../elsewhere/fw.elf");
    char small[8];
    TS_ASSERT_EQ_I(ts_rel_path("/a/b/c/d", "/x/y/z", small, sizeof small), -1);   /* does not fit */
}

static char *tmpfile_with(const char *text, size_t n) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ts_rf_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    if (n && write(fd, text, n) != (ssize_t)n) { close(fd); return NULL; }
    close(fd);
    return path;
}

TS_TEST(fnv1a64_reference_vectors) {
    uint64_t h = 0;
    char *p = tmpfile_with("", 0);
    TS_ASSERT(p);
    TS_ASSERT_EQ_I(ts_file_fnv1a64(p, &h), 0);
    TS_ASSERT_EQ_U(h, 0xcbf29ce484222325ull);                    /* FNV-1a 64 of "" */
    unlink(p);
    p = tmpfile_with("a", 1);
    TS_ASSERT_EQ_I(ts_file_fnv1a64(p, &h), 0);
    TS_ASSERT_EQ_U(h, 0xaf63dc4c8601ec8cull);                    /* FNV-1a 64 of "a" */
    unlink(p);
    TS_ASSERT_EQ_I(ts_file_fnv1a64("/tmp", &h), -1);             /* a folder is no input */
}

TS_TEST(stats_lookup_and_missing_elf) {
    char dir[] = "/tmp/ts_rfd_XXXXXX";
    TS_ASSERT(mkdtemp(dir));
    char path[128], out[256], err[512];
    snprintf(path, sizeof path, "%s/stats.txt", dir);
    FILE *f = fopen(path, "w");
    TS_ASSERT(f);
    fputs("elf /no/such/fw.elf\nelf_rel ../no/fw.elf\ncycles 12\nwaves_rel w.fst\n", f);
    fclose(f);
    TS_ASSERT(ts_run_stat(dir, "cycles", out, sizeof out));
    TS_ASSERT_STR_EQ(out, "12");
    TS_ASSERT(!ts_run_stat(dir, "cycle", out, sizeof out));      /* whole keys only */
    TS_ASSERT_EQ_I(ts_run_elf(dir, NULL, out, sizeof out, err, sizeof err), 0);
    TS_ASSERT(strstr(err, "cannot find the ELF") && strstr(err, "--elf"));
    TS_ASSERT_EQ_I(ts_run_path(dir, "waves", out, sizeof out), 0);   /* recorded, not there */
    TS_ASSERT_EQ_I(ts_run_path(dir, "trace", out, sizeof out), -1);  /* not recorded */
    TS_ASSERT_EQ_I(ts_run_elf(dir, "/no/such.elf", out, sizeof out, err, sizeof err), -1);
    unlink(path);
    rmdir(dir);
}

TS_TEST_MAIN()
