/* test_opts.c - the option tables of cli/opts/ts_opts.h: exact names (no prefix
 * matching), the value forms, numbers with their ranges, suffixes, overflow and signs, the
 * one-line errors, the help and Markdown layouts. Expected values are written by hand. */
#include "ts_opts.h"
#include "ts_test.h"

enum { O_OUT = 1,
       O_HARTS,
       O_HART,
       O_QUIET,
       O_RAM,
       O_HZ,
       O_CYC,
       O_MODE };
static const ts_opt_t table[] = {
    {O_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0, "run folder <d> a|b"},
    {O_HARTS, 0, "harts", TS_OPT_UINT, "N", 1, 8, 0, 0, 0, "harts in the SoC"},
    {O_HART, 0, "hart", TS_OPT_UINT, "N", 0, 7, 0, 0, 0, "one hart"},
    {O_QUIET, 'q', "quiet", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "no summary\nand no progress"},
    {O_RAM, 0, "ram-size", TS_OPT_UINT, "BYTES", 4096, 1u << 30, 0, 0, TS_OPT_SUFFIX, "RAM size"},
    {O_HZ, 0, "tick-hz", TS_OPT_REAL, "HZ", 0, 0, 1, 1e12, 0, "ticks per second"},
    {O_CYC, 'n', "max-cycles", TS_OPT_UINT, "N", 0, UINT64_MAX, 0, 0, TS_OPT_SUFFIX, "cycle limit"},
    {O_MODE, 0, "mode", TS_OPT_STRING, "a|b", 0, 0, 0, 0, 0, "a or b"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};

/* parses one argument vector and returns the results of the calls, one per line:
 * "id=value" for options, "pos=arg" for positional arguments, "err=message" on an error */
static const char *run(int argc, const char *const *argv) {
    static char out[2048];
    ts_opts_t o;
    ts_opts_init(&o, "run", table, argc, (char **)argv);
    out[0] = 0;
    for (;;) {
        int r = ts_opts_next(&o);
        size_t k = strlen(out);
        if (r == TS_OPTS_END) break;
        if (r == TS_OPTS_ERROR) {
            snprintf(out + k, sizeof out - k, "err=%s", o.err);
            break;
        }
        if (r == TS_OPTS_POSITIONAL) snprintf(out + k, sizeof out - k, "pos=%s;", o.arg);
        else if (o.opt->kind == TS_OPT_UINT)
            snprintf(out + k, sizeof out - k, "%d=%" PRIu64 ";", r, o.u);
        else if (o.opt->kind == TS_OPT_REAL)
            snprintf(out + k, sizeof out - k, "%d=%g;", r, o.r);
        else
            snprintf(out + k, sizeof out - k, "%d=%s;", r, o.arg ? o.arg : "");
    }
    return out;
}
#define RUN(...) run((int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), (const char *[]){__VA_ARGS__})

TS_TEST(forms) {
    TS_ASSERT_STR_EQ(RUN("run", "-o", "d", "fw.elf", "--harts", "2", "-q"), "1=d;pos=fw.elf;2=2;4=;");
    TS_ASSERT_STR_EQ(RUN("run", "-od", "--out=e", "--hart=3"), "1=d;1=e;3=3;");
    TS_ASSERT_STR_EQ(RUN("run", "--", "-q", "--harts"), "pos=-q;pos=--harts;");
    TS_ASSERT_STR_EQ(RUN("run", "-", "x"), "pos=-;pos=x;");
    TS_ASSERT_STR_EQ(RUN("run"), "");
}

TS_TEST(exact_names) {
    /* getopt_long took --har for --harts or --hart; here only exact names count */
    TS_ASSERT_STR_EQ(RUN("run", "--har", "2"), "err=unknown option '--har'; did you mean --hart? (see tracesim run --help)");
    TS_ASSERT_STR_EQ(RUN("run", "--hart", "2"), "3=2;");
    TS_ASSERT_STR_EQ(RUN("run", "--harts", "2"), "2=2;");
    TS_ASSERT_STR_EQ(RUN("run", "--quiet=1"), "err=--quiet takes no value (see tracesim run --help)");
    TS_ASSERT_STR_EQ(RUN("run", "-x"), "err=unknown option '-x' (see tracesim run --help)");
    TS_ASSERT_STR_EQ(RUN("run", "--out"), "err=option --out needs a value (see tracesim run --help)");
    TS_ASSERT_STR_EQ(RUN("run", "--out="), "err=empty value for --out (see tracesim run --help)");
    TS_ASSERT_STR_EQ(RUN("run", "--nope=3"), "err=unknown option '--nope'; did you mean --mode? (see tracesim run --help)"); /* 2 edits */
    TS_ASSERT_STR_EQ(RUN("run", "--frobnicate"), "err=unknown option '--frobnicate' (see tracesim run --help)");
}

TS_TEST(numbers) {
    TS_ASSERT_STR_EQ(RUN("run", "--ram-size", "64K"), "5=65536;");
    TS_ASSERT_STR_EQ(RUN("run", "--ram-size", "0x1000"), "5=4096;");
    TS_ASSERT_STR_EQ(RUN("run", "--ram-size", "1G"), "5=1073741824;");
    TS_ASSERT_STR_EQ(RUN("run", "--ram-size", "2G"),
                     "err=invalid value '2G' for --ram-size (4K to 1G; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "--harts", "9"), "err=invalid value '9' for --harts (1 to 8)");
    TS_ASSERT_STR_EQ(RUN("run", "--harts", "2K"), "err=invalid value '2K' for --harts (1 to 8)");
    /* the cases: overflow through a suffix, a huge number, a leading space, a sign */
    TS_ASSERT_STR_EQ(RUN("run", "-n", "17592186044416M"),
                     "err=invalid value '17592186044416M' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "18014398509481985K"),
                     "err=invalid value '18014398509481985K' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", " -1"), "err=invalid value ' -1' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "-1"), "err=invalid value '-1' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "+1"), "err=invalid value '+1' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "18446744073709551615"), "7=18446744073709551615;");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "18446744073709551616"),
                     "err=invalid value '18446744073709551616' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "16777215T"), "err=invalid value '16777215T' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", "0x"), "err=invalid value '0x' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "-n", ""), "err=invalid value '' for --max-cycles (0 or more; suffixes K, M, G)");
    TS_ASSERT_STR_EQ(RUN("run", "--tick-hz", "1e6"), "6=1e+06;");
    TS_ASSERT_STR_EQ(RUN("run", "--tick-hz", "1e-310"), "err=invalid value '1e-310' for --tick-hz (1 to 1e+12)");
    TS_ASSERT_STR_EQ(RUN("run", "--tick-hz", "inf"), "err=invalid value 'inf' for --tick-hz (1 to 1e+12)");
    TS_ASSERT_STR_EQ(RUN("run", "--tick-hz", "nan"), "err=invalid value 'nan' for --tick-hz (1 to 1e+12)");
    TS_ASSERT_STR_EQ(RUN("run", "--tick-hz", " 5"), "err=invalid value ' 5' for --tick-hz (1 to 1e+12)");
    uint64_t v = 0;
    TS_ASSERT_EQ_I(ts_parse_uint("16777215G", 0, UINT64_MAX, TS_OPT_SUFFIX, &v), 0); /* (2^24 - 1) << 30 fits */
    TS_ASSERT_EQ_U(v, 0xFFFFFFull << 30);
    TS_ASSERT_EQ_I(ts_parse_uint("17179869184G", 0, UINT64_MAX, TS_OPT_SUFFIX, &v), -1); /* 2^34 << 30 = 2^64 */
    TS_ASSERT_EQ_I(ts_parse_uint("10K", 0, UINT64_MAX, 0, &v), -1);                      /* no suffixes allowed */
}

TS_TEST(help_layout) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ts_opts_help(f, table);
    fclose(f);
    const char *want =
        "  -o, --out DIR          run folder <d> a|b\n"
        "      --harts N          harts in the SoC [1 to 8]\n"
        "      --hart N           one hart [0 to 7]\n"
        "  -q, --quiet            no summary\n"
        "                         and no progress\n"
        "      --ram-size BYTES   RAM size [4K to 1G; suffixes K, M, G]\n"
        "      --tick-hz HZ       ticks per second [1 to 1e+12]\n"
        "  -n, --max-cycles N     cycle limit [0 or more; suffixes K, M, G]\n"
        "      --mode a|b         a or b\n";
    TS_ASSERT_STR_EQ(buf, want);
    free(buf);
    f = open_memstream(&buf, &len);
    ts_opts_markdown(f, table);
    fclose(f);
    const char *md =
        "| option | meaning |\n|---|---|\n"
        "| `-o, --out DIR` | run folder &lt;d&gt; a\\|b |\n"
        "| `--harts N` | harts in the SoC [1 to 8] |\n"
        "| `--hart N` | one hart [0 to 7] |\n"
        "| `-q, --quiet` | no summary and no progress |\n"
        "| `--ram-size BYTES` | RAM size [4K to 1G; suffixes K, M, G] |\n"
        "| `--tick-hz HZ` | ticks per second [1 to 1e+12] |\n"
        "| `-n, --max-cycles N` | cycle limit [0 or more; suffixes K, M, G] |\n"
        "| `--mode a\\|b` | a or b |\n"; /* GitHub's tables: a | in a code span is escaped too */
    TS_ASSERT_STR_EQ(buf, md);
    free(buf);
}

/* the closest name: an abbreviation (the nearest of those it starts), else at most 2 edits
 * (insert, delete, substitute, swap two neighbours) and fewer edits than the name's length */
TS_TEST(closest) {
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "har", 3), "hart"); /* hart 1, harts 2 away */
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "ha", 2), "hart");
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "max", 3), "max-cycles");
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "quite", 5), "quiet"); /* a swap: 1 edit */
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "ram-sise", 8), "ram-size");
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "tickhz", 6), "tick-hz");
    TS_ASSERT(ts_opts_closest(table, 0, "x", 1) == NULL); /* 1 edit, but all of it */
    TS_ASSERT(ts_opts_closest(table, 0, "cache", 5) == NULL);
    TS_ASSERT_STR_EQ(ts_opts_closest(table, 0, "hartsss", 7), "harts"); /* 2 deletions */
    TS_ASSERT(ts_opts_closest(table, 0, "hartssss", 8) == NULL);        /* 3 */
}

/* a refused name (a renamed option) and an option a command leaves out (`without`) */
enum { P_KEEP = 1,
       P_OLD,
       P_RUNONLY,
       P_HELP };
static const ts_opt_t ptable[] = {
    {P_KEEP, 0, "firmware-dir", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0, "the firmware"},
    {P_OLD, 0, "build", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_REFUSE, "--build is now --firmware-dir DIR"},
    {P_RUNONLY, 'r', "record", TS_OPT_STRING, "FILE", 0, 0, 0, 0, TS_OPT_NOT_SC, "record the bus"},
    {P_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t pexits[] = {{"0", "ok"}, {"0-119", "the firmware's\nexit code"}, {"120", "usage <x|y>"}, {NULL, NULL}};
static const ts_cmd_t pcmd = {"run", "tracesim run A\ntracesim run B", "Does it.\n", ptable, 0, "  DIR/x\n", pexits, "More.\n"};
static const ts_cmd_t scmd = {"tracesim-sc", "tracesim-sc A", NULL, ptable, TS_OPT_NOT_SC, NULL, pexits, NULL};

static const char *prun(const ts_cmd_t *cmd, int argc, const char *const *argv) {
    static char out[1024];
    ts_opts_t o;
    ts_cmd_opts_init(&o, cmd, argc, (char **)argv);
    out[0] = 0;
    for (int r; (r = ts_opts_next(&o)) != TS_OPTS_END;) {
        size_t k = strlen(out);
        if (r == TS_OPTS_ERROR) {
            snprintf(out + k, sizeof out - k, "err=%s", o.err);
            break;
        }
        snprintf(out + k, sizeof out - k, "%d=%s;", r, o.arg ? o.arg : "");
    }
    return out;
}
#define PRUN(cmd, ...) prun(cmd, (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), (const char *[]){__VA_ARGS__})

TS_TEST(refused_and_without) {
    TS_ASSERT_STR_EQ(PRUN(&pcmd, "run", "--build", "x"), "err=--build is now --firmware-dir DIR (see tracesim run --help)");
    TS_ASSERT_STR_EQ(PRUN(&pcmd, "run", "--build=x"), "err=--build is now --firmware-dir DIR (see tracesim run --help)");
    TS_ASSERT_STR_EQ(PRUN(&pcmd, "run", "--record", "f", "-r", "g"), "3=f;3=g;");
    TS_ASSERT_STR_EQ(PRUN(&scmd, "run", "--record", "f"), "err=--record is not an option of tracesim-sc (see tracesim-sc --help)");
    TS_ASSERT_STR_EQ(PRUN(&scmd, "run", "-r", "f"), "err=unknown option '-r' (see tracesim-sc --help)");
    TS_ASSERT_STR_EQ(PRUN(&scmd, "run", "--recor", "f"), "err=unknown option '--recor' (see tracesim-sc --help)");
    TS_ASSERT_STR_EQ(PRUN(&pcmd, "run", "--recor", "f"), "err=unknown option '--recor'; did you mean --record? (see tracesim run --help)");
    TS_ASSERT_STR_EQ(PRUN(&pcmd, "run", "--buil", "f"), "err=unknown option '--buil' (see tracesim run --help)"); /* never suggests a refused one */
}

TS_TEST(cmd_help_and_markdown) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ts_cmd_help(f, &pcmd);
    fclose(f);
    TS_ASSERT_STR_EQ(buf,
                     "usage: tracesim run A\n"
                     "       tracesim run B\n"
                     "\n"
                     "Does it.\n"
                     "\n"
                     "options:\n"
                     "      --firmware-dir DIR\n"
                     "                         the firmware\n"
                     "  -r, --record FILE      record the bus\n"
                     "  -h, --help             this text\n"
                     "\n"
                     "outputs:\n"
                     "  DIR/x\n"
                     "\n"
                     "exit status:\n"
                     "  0       ok\n"
                     "  0-119   the firmware's\n"
                     "          exit code\n"
                     "  120     usage <x|y>\n"
                     "\n"
                     "More.\n");
    free(buf);
    f = open_memstream(&buf, &len);
    ts_cmd_help(f, &scmd);
    fclose(f);
    TS_ASSERT_STR_EQ(buf,
                     "usage: tracesim-sc A\n"
                     "\n"
                     "options:\n"
                     "      --firmware-dir DIR\n"
                     "                         the firmware\n"
                     "  -h, --help             this text\n"
                     "\n"
                     "exit status:\n"
                     "  0       ok\n"
                     "  0-119   the firmware's\n"
                     "          exit code\n"
                     "  120     usage <x|y>\n");
    free(buf);
    f = open_memstream(&buf, &len);
    ts_cmd_markdown(f, &scmd);
    fclose(f);
    TS_ASSERT_STR_EQ(buf,
                     "| option | meaning |\n|---|---|\n"
                     "| `--firmware-dir DIR` | the firmware |\n"
                     "| `-h, --help` | this text |\n"
                     "\n"
                     "| exit status | meaning |\n|---|---|\n"
                     "| 0 | ok |\n"
                     "| 0-119 | the firmware's exit code |\n"
                     "| 120 | usage &lt;x\\|y&gt; |\n");
    free(buf);
}

TS_TEST_MAIN()
