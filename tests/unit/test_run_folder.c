/* test_run_folder.c - analysis/run/run_folder.c: relative paths between folders (worked
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
    TS_ASSERT_STR_EQ(rel("/a/b", "/a/bc/x"), "../bc/x"); /* "b" is no prefix of "bc" */
    TS_ASSERT_STR_EQ(rel("/", "/x/y"), "x/y");
    TS_ASSERT_STR_EQ(rel("/a/run", "/a/run/w.fst"), "w.fst");
    TS_ASSERT_STR_EQ(rel("/a/run", "/elsewhere/fw.elf"), "../../elsewhere/fw.elf");
    char small[8];
    TS_ASSERT_EQ_I(ts_rel_path("/a/b/c/d", "/x/y/z", small, sizeof small), -1); /* does not fit */
}

static char *tmpfile_with(const char *text, size_t n) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ts_rf_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    if (n && write(fd, text, n) != (ssize_t)n) {
        close(fd);
        return NULL;
    }
    close(fd);
    return path;
}

TS_TEST(fnv1a64_reference_vectors) {
    uint64_t h = 0;
    char *p = tmpfile_with("", 0);
    TS_ASSERT(p);
    TS_ASSERT_EQ_I(ts_file_fnv1a64(p, &h), 0);
    TS_ASSERT_EQ_U(h, 0xcbf29ce484222325ull); /* FNV-1a 64 of "" */
    unlink(p);
    p = tmpfile_with("a", 1);
    TS_ASSERT_EQ_I(ts_file_fnv1a64(p, &h), 0);
    TS_ASSERT_EQ_U(h, 0xaf63dc4c8601ec8cull); /* FNV-1a 64 of "a" */
    unlink(p);
    TS_ASSERT_EQ_I(ts_file_fnv1a64("/tmp", &h), -1); /* a folder is no input */
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
    TS_ASSERT(!ts_run_stat(dir, "cycle", out, sizeof out)); /* whole keys only */
    TS_ASSERT_EQ_I(ts_run_elf(dir, NULL, out, sizeof out, err, sizeof err), 0);
    TS_ASSERT(strstr(err, "cannot find the ELF") && strstr(err, "--elf"));
    TS_ASSERT_EQ_I(ts_run_path(dir, "waves", out, sizeof out), 0);  /* recorded, not there */
    TS_ASSERT_EQ_I(ts_run_path(dir, "trace", out, sizeof out), -1); /* not recorded */
    TS_ASSERT_EQ_I(ts_run_elf(dir, "/no/such.elf", out, sizeof out, err, sizeof err), -1);
    unlink(path);
    rmdir(dir);
}


/* a run folder in /tmp with the given files (name, content; NULL content: a link to target) */
static void put(const char *dir, const char *name, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}
static bool exists(const char *dir, const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return !access(p, F_OK);
}

/* the three states of a run (docs/commands/run.md "Interrupting a run"), worked by hand */
TS_TEST(run_unfinished_states) {
    char dir[] = "/tmp/ts_rf_unf_XXXXXX", msg[4700];
    TS_ASSERT(mkdtemp(dir) != NULL);
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_FINISHED); /* no run folder at all */
    put(dir, "uart.txt", "");
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_INCOMPLETE); /* killed before stats.txt */
    TS_ASSERT(strstr(msg, "the run did not finish (killed before it wrote stats.txt)") != NULL);
    put(dir, "stats.txt", "elf x\nexit_reason running\n");
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_INCOMPLETE); /* no end marker */
    TS_ASSERT(strstr(msg, "no end marker 'end ok'") != NULL);
    put(dir, "stats.txt", "exit_reason interrupted\ninterrupted_by SIGTERM\ninterrupted_cycle 1234\ncycles 1234\nend ok\n");
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_INTERRUPTED);
    TS_ASSERT(strstr(msg, "the run did not finish (interrupted by SIGTERM at cycle 1234): its files end at that cycle") != NULL);
    put(dir, "stats.txt", "exit_reason interrupted\ninterrupted_by $(x)\ninterrupted_cycle 12;rm\nend ok\n");
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_INTERRUPTED); /* junk is not echoed */
    TS_ASSERT(strstr(msg, "(interrupted by a signal at cycle ?)") != NULL);
    put(dir, "stats.txt", "exit_reason exit\nend ok\n");
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_FINISHED);
    put(dir, "stats.txt", "exit_reason exit\nend ok\nelf x\n"); /* the marker is not last */
    TS_ASSERT_EQ_I(ts_run_unfinished(dir, msg, sizeof msg), TS_RUN_INCOMPLETE);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TS_ASSERT_EQ_I(system(cmd), 0);
}

/* a rerun's clean-up removes tracesim's files and the recorded waves inside the folder, never a
 * user's file, a link's target or a waves file outside the folder */
TS_TEST(run_clear_previous_only_ours) {
    char dir[] = "/tmp/ts_rf_clr_XXXXXX", outside[] = "/tmp/ts_rf_out_XXXXXX", err[512], p[600];
    TS_ASSERT(mkdtemp(dir) != NULL);
    TS_ASSERT(mkdtemp(outside) != NULL);
    put(dir, "notes.txt", "mine");
    put(dir, "markers.txt", "old");
    TS_ASSERT_EQ_I(ts_run_clear_previous(dir, err, sizeof err), 0); /* no earlier run: nothing goes */
    TS_ASSERT(exists(dir, "markers.txt"));
    put(outside, "target", "keep");
    snprintf(p, sizeof p, "%s/target", outside);
    char link[600];
    snprintf(link, sizeof link, "%s/trace.rtd", dir);
    TS_ASSERT_EQ_I(symlink(p, link), 0);
    put(dir, "w.fst", "waves");
    put(dir, "w.fst.tmp.fst", "waves");
    put(dir, "uart.txt", "");
    put(dir, "stats.txt", "waves_rel w.fst\n");
    TS_ASSERT_EQ_I(ts_run_clear_previous(dir, err, sizeof err), 0);
    TS_ASSERT(!exists(dir, "stats.txt") && !exists(dir, "uart.txt") && !exists(dir, "markers.txt"));
    TS_ASSERT(!exists(dir, "w.fst") && !exists(dir, "w.fst.tmp.fst"));
    TS_ASSERT(!exists(dir, "trace.rtd") && exists(outside, "target")); /* the link, not its target */
    TS_ASSERT(exists(dir, "notes.txt"));
    /* a recorded waves file outside the folder stays */
    put(dir, "uart.txt", "");
    snprintf(p, sizeof p, "waves_rel ../%s/target\n", strrchr(outside, '/') + 1);
    put(dir, "stats.txt", p);
    TS_ASSERT_EQ_I(ts_run_clear_previous(dir, err, sizeof err), 0);
    TS_ASSERT(exists(outside, "target"));
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, outside);
    TS_ASSERT_EQ_I(system(cmd), 0);
}

TS_TEST_MAIN()
