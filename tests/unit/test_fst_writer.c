/* test_fst_writer.c - the project's FST writer (waves/fst/fst_writer.c), read back by
 * GTKWave's fst2vcd: hand-chosen variables and changes against VCD text written by hand, and
 * the writer's errors. Without fst2vcd the reading cases are skipped (exit 77). */
#include "fst_writer.h"
#include "ts_test.h"

#include <errno.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SKIP 77

static char dir_[64];
static char made_[4][300];
static int nmade_;

static void cleanup(void) { /* the files a case made, then the folder */
    for (int i = 0; i < nmade_; i++) {
        char vcd[320];
        snprintf(vcd, sizeof vcd, "%s.vcd", made_[i]);
        unlink(made_[i]);
        unlink(vcd);
    }
    if (dir_[0]) rmdir(dir_);
}

static const char *tmpdir(void) {
    if (!dir_[0]) {
        snprintf(dir_, sizeof dir_, "/tmp/ts_fstw_XXXXXX");
        if (!mkdtemp(dir_)) TS_FAIL("mkdtemp: %s", strerror(errno));
        atexit(cleanup);
    }
    return dir_;
}

static int have_fst2vcd(void) {
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/fst2vcd", (int)n, path);
        if (!access(buf, X_OK)) return 1;
        path += n + (e ? 1 : 0);
    }
    return 0;
}

static int cmp_line(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the value lines of each time point sorted (fst2vcd's order among the changes of one time
 * point follows its own lists, not the file); text is rewritten in place */
static void sort_time_points(char *text) {
    size_t n = 0, len = strlen(text);
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    char **lines = malloc((n + 1) * sizeof *lines), *copy = strdup(text), *save = NULL;
    size_t k = 0;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) lines[k++] = l;
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j < k && lines[j][0] != '#' && lines[j][0] != '$' && lines[j][0] != '\t') j++;
        if (j > i) qsort(lines + i, j - i, sizeof *lines, cmp_line);
        i = j == i ? i + 1 : j;
    }
    char *o = text;
    for (size_t i = 0; i < k; i++) o += sprintf(o, "%s\n", lines[i]);
    *o = 0;
    free(lines);
    free(copy);
}

/* fst2vcd of FST without its $date and $version blocks, each time point's changes sorted;
 * the caller frees it */
static char *vcd_of(const char *fst) {
    if (!have_fst2vcd()) {
        printf("SKIP: fst2vcd (GTKWave) not found; the FST files are not read back\n");
        exit(SKIP);
    }
    char vcd[300];
    snprintf(vcd, sizeof vcd, "%s.vcd", fst);
    char *argv[] = {"fst2vcd", "-f", (char *)fst, "-o", vcd, NULL};
    pid_t pid;
    int st = 0;
    if (posix_spawnp(&pid, "fst2vcd", NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0 ||
        !WIFEXITED(st) || WEXITSTATUS(st))
        TS_FAIL("fst2vcd failed on %s", fst);
    FILE *f = fopen(vcd, "r");
    TS_ASSERT(f);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap), line[4096];
    int skip = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "$date", 5) || !strncmp(line, "$version", 8)) skip = 1;
        if (!skip) {
            size_t n = strlen(line);
            while (len + n + 1 > cap) out = realloc(out, cap *= 2);
            memcpy(out + len, line, n);
            len += n;
        }
        if (skip && !strncmp(line, "$end", 4)) skip = 0;
    }
    out[len] = 0;
    fclose(f);
    sort_time_points(out);
    return out;
}

static fstw_t *open_in_tmp(const char *name, char *path, size_t n) {
    char err[400];
    snprintf(path, n, "%s/%s", tmpdir(), name);
    if (nmade_ < 4) snprintf(made_[nmade_++], sizeof made_[0], "%s", path);
    fstw_t *w = fstw_open(path, err, sizeof err);
    if (!w) TS_FAIL("fstw_open: %s", err);
    return w;
}

static void close_ok(fstw_t *w) {
    char err[400] = "";
    if (fstw_close(w, err, sizeof err)) TS_FAIL("fstw_close: %s", err);
}

/* 1, 5, 32, 64 and 70 bits (words), an alias, a variable that never changes; changes at time
 * 0, gaps between times, three blocks (two flushes) */
TS_TEST(widths_times_blocks) {
    char path[300];
    fstw_t *w = open_in_tmp("widths.fst", path, sizeof path);
    fstw_scope(w, FSTW_ST_VCD_MODULE, "top", NULL);
    uint32_t a = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 1, "a", 0);
    uint32_t b = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 5, "b [4:0]", 0);
    fstw_scope(w, FSTW_ST_VCD_MODULE, "sub", NULL);
    uint32_t c = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 32, "c [31:0]", 0);
    uint32_t d = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 64, "d [63:0]", 0);
    fstw_upscope(w);
    uint32_t e = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 70, "e [69:0]", 0);
    uint32_t f = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 8, "f [7:0]", 0);
    TS_ASSERT_EQ_U(fstw_var(w, FSTW_VT_SV_LOGIC, 0, 32, "c_again [31:0]", c), c); /* an alias */
    fstw_upscope(w);
    TS_ASSERT_EQ_U(a, 1);
    TS_ASSERT_EQ_U(f, 6);

    fstw_time(w, 0);
    fstw_bit(w, a, 1);
    fstw_u32(w, b, 0x15); /* 10101 */
    fstw_u32(w, c, 0xdeadbeefu);
    fstw_u64(w, d, 0x8000000000000001ull);
    const uint32_t e0[3] = {0x00000003u, 0x80000000u, 0x25u}; /* bits 69..64: 100101 */
    fstw_words(w, e, e0);
    fstw_u32(w, f, 0x5a); /* the only value f ever gets */
    fstw_time(w, 3);
    fstw_bit(w, a, 0);
    fstw_u32(w, c, 1);
    fstw_flush(w); /* the block ends at the next time point */
    fstw_time(w, 10);
    fstw_u32(w, b, 0x1f);
    fstw_time(w, 11);
    fstw_u64(w, d, 0x0123456789abcdefull);
    fstw_flush(w);
    fstw_time(w, 100);
    const uint32_t e1[3] = {0xffffffffu, 0x00000000u, 0x3fu};
    fstw_words(w, e, e1);
    fstw_bit(w, a, 1);
    close_ok(w);

    char *vcd = vcd_of(path);
    char expect[4096] =
        "$timescale\n"
        "\t1ns\n"
        "$end\n"
        "$scope module top $end\n"
        "$var logic 1 ! a $end\n"
        "$var logic 5 \" b [4:0] $end\n"
        "$scope module sub $end\n"
        "$var logic 32 # c [31:0] $end\n"
        "$var logic 64 $ d [63:0] $end\n"
        "$upscope $end\n"
        "$var logic 70 % e [69:0] $end\n"
        "$var logic 8 & f [7:0] $end\n"
        "$var logic 32 # c_again [31:0] $end\n"
        "$upscope $end\n"
        "$enddefinitions $end\n"
        "#0\n"
        "$dumpvars\n"
        "1!\n"
        "b10101 \"\n"
        "b11011110101011011011111011101111 #\n"
        "b1000000000000000000000000000000000000000000000000000000000000001 $\n"
        "b1001011000000000000000000000000000000000000000000000000000000000000011 %\n"
        "b01011010 &\n"
        "$end\n"
        "#3\n"
        "0!\n"
        "b00000000000000000000000000000001 #\n"
        "#10\n"
        "b11111 \"\n"
        "#11\n"
        "b0000000100100011010001010110011110001001101010111100110111101111 $\n"
        "#100\n"
        "1!\n"
        "b1111110000000000000000000000000000000011111111111111111111111111111111 %\n";
    sort_time_points(expect);
    TS_ASSERT_STR_EQ(vcd, expect);
    free(vcd);
}

/* long chains (LZ4), two variables with the same changes (the second is stored as an alias of
 * the first), one with other changes, over 4000 time points in blocks of 1000 */
TS_TEST(long_chains_and_shared_data) {
    char path[300];
    fstw_t *w = open_in_tmp("long.fst", path, sizeof path);
    fstw_scope(w, FSTW_ST_VCD_MODULE, "t", NULL);
    uint32_t x = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 16, "x [15:0]", 0);
    uint32_t y = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 16, "y [15:0]", 0);
    uint32_t z = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 1, "z", 0);
    fstw_upscope(w);
    for (uint32_t t = 0; t < 4000; t++) {
        fstw_time(w, 2 * t);
        fstw_u32(w, x, t); /* x = y = t at time 2t */
        fstw_u32(w, y, t);
        if (t % 3 == 0) fstw_bit(w, z, (t / 3) & 1);
        if (t % 1000 == 999) fstw_flush(w);
    }
    close_ok(w);

    /* the expected VCD, line by line from the rule above */
    size_t cap = 1 << 20, len = 0;
    char *expect = malloc(cap);
    len += (size_t)snprintf(expect + len, cap - len,
                            "$timescale\n\t1ns\n$end\n$scope module t $end\n"
                            "$var logic 16 ! x [15:0] $end\n$var logic 16 \" y [15:0] $end\n"
                            "$var logic 1 # z $end\n$upscope $end\n$enddefinitions $end\n");
    for (uint32_t t = 0; t < 4000; t++) {
        char bits[17];
        for (int i = 0; i < 16; i++) bits[i] = (char)('0' + ((t >> (15 - i)) & 1));
        bits[16] = 0;
        len += (size_t)snprintf(expect + len, cap - len, "#%u\n%sb%s !\nb%s \"\n", 2 * t,
                                t == 0 ? "$dumpvars\n" : "", bits, bits);
        if (t % 3 == 0) len += (size_t)snprintf(expect + len, cap - len, "%u#\n", (t / 3) & 1);
        if (t == 0) len += (size_t)snprintf(expect + len, cap - len, "$end\n");
    }
    char *vcd = vcd_of(path);
    sort_time_points(expect);
    TS_ASSERT_STR_EQ(vcd, expect);
    free(vcd);
    free(expect);

    /* y's records are x's (3 bytes a change, 12 000 bytes in all): stored once, as the
     * format's alias of x's chain in each block, the file stays well under twice that */
    struct stat st;
    TS_ASSERT(!stat(path, &st));
    TS_ASSERT(st.st_size < 18000);
}

/* values set before the first time point and no time point at all: shown at time 0 */
TS_TEST(values_without_time) {
    char path[300];
    fstw_t *w = open_in_tmp("notime.fst", path, sizeof path);
    fstw_scope(w, FSTW_ST_VCD_MODULE, "t", NULL);
    uint32_t x = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 12, "x [11:0]", 0);
    uint32_t y = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 1, "y", 0);
    fstw_var(w, FSTW_VT_SV_LOGIC, 0, 3, "never [2:0]", 0);
    fstw_upscope(w);
    fstw_u32(w, x, 0xa5c);
    fstw_bit(w, y, 1);
    close_ok(w);
    char *vcd = vcd_of(path);
    char expect[] = "$timescale\n\t1ns\n$end\n$scope module t $end\n"
                    "$var logic 12 ! x [11:0] $end\n$var logic 1 \" y $end\n"
                    "$var logic 3 # never [2:0] $end\n$upscope $end\n$enddefinitions $end\n"
                    "#0\n$dumpvars\nb101001011100 !\n1\"\n"; /* fst2vcd closes $dumpvars at the next time */
    sort_time_points(expect);
    TS_ASSERT_STR_EQ(vcd, expect);
    free(vcd);
}

/* a full disk: fstw_close says so (no crash, no silent short file) */
TS_TEST(full_disk_is_an_error) {
    char err[400] = "";
    fstw_t *w = fstw_open("/dev/full", err, sizeof err);
    if (!w) TS_FAIL("fstw_open(/dev/full): %s", err);
    fstw_scope(w, FSTW_ST_VCD_MODULE, "t", NULL);
    uint32_t x = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 32, "x [31:0]", 0);
    fstw_upscope(w);
    for (uint32_t t = 0; t < 100000; t++) {
        fstw_time(w, t);
        fstw_u32(w, x, t * 2654435761u);
        if (t % 512 == 511) fstw_flush(w);
    }
    TS_ASSERT(fstw_failed(w)); /* found while running: the blocks overflow the buffer */
    TS_ASSERT_EQ_I(fstw_close(w, err, sizeof err), -1);
    TS_ASSERT_STR_EQ(err, "/dev/full: No space left on device");
}

TS_TEST(open_error) {
    char err[400] = "";
    TS_ASSERT(!fstw_open("/nonexistent-dir/w.fst", err, sizeof err));
    TS_ASSERT_STR_EQ(err, "cannot create /nonexistent-dir/w.fst: No such file or directory");
}

/* misuse: unknown handles are ignored, a variable after the first time point is an error */
TS_TEST(misuse) {
    char path[300], err[400] = "";
    fstw_t *w = open_in_tmp("misuse.fst", path, sizeof path);
    uint32_t x = fstw_var(w, FSTW_VT_SV_LOGIC, 0, 8, "x [7:0]", 0);
    fstw_time(w, 5);
    fstw_u32(w, 0, 1);
    fstw_u32(w, x + 1, 1);
    fstw_u64(w, 12345, 1);
    fstw_bit(w, x, 1); /* an 8-bit variable given one bit: value 1 */
    fstw_time(w, 4);   /* back in time: ignored */
    TS_ASSERT(!fstw_failed(w));
    TS_ASSERT_EQ_U(fstw_var(w, FSTW_VT_SV_LOGIC, 0, 8, "late [7:0]", 0), 0);
    TS_ASSERT(fstw_failed(w));
    TS_ASSERT_EQ_I(fstw_close(w, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "variable declared after the first time point"));
}

TS_TEST_MAIN()
