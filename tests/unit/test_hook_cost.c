/* test_hook_cost.c - the hook cost behind `report --compensate` (analysis/report/hook_cost.c)
 * on hand-made run folders (flow.csv, counters.csv, hooks.csv) whose figures are worked out by
 * hand from the rows: which thread an mret resumes inside a hook, and nesting with no bound. */
#define _GNU_SOURCE
#include "ts_test.h"
#include "hook_cost.h"
#include <stdlib.h>
#include <unistd.h>

#define H 0x1000u /* __cyg_profile_func_enter */
#define P 0x1010u /* the instruction of the hook where interrupts are turned back on */
#define V 0x3000u /* the trap vector */
#define TA 0x100u /* threads (tp) */
#define TB 0x200u

static char dir[64];
static elf_sym_t sym = {H, 0x40, "__cyg_profile_func_enter"};
static elf_syms_t syms = {&sym, 1};

static void write_file(const char *name, const char *text) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    TS_ASSERT(f);
    fputs(text, f);
    fclose(f);
}
static void make_run(const char *flow, const char *counters) {
    snprintf(dir, sizeof dir, "/tmp/ts_hook_cost_XXXXXX");
    TS_ASSERT(mkdtemp(dir));
    write_file("flow.csv", flow);
    write_file("counters.csv", counters);
    write_file("hooks.csv", "cycle,hart,hook,how,pc,a0,a1,ra,tp\n");
}
static void drop_run(void) {
    static const char *const f[] = {"flow.csv", "counters.csv", "hooks.csv"};
    char path[128];
    for (unsigned i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, f[i]);
        unlink(path);
    }
    rmdir(dir);
}
static perf_record_t enter_rec(void) { return (perf_record_t){.type = PERF_FUNC_ENTER, .has_addr = true}; }

/* Thread A enters the hook at 100 and is preempted at P at 105 (before its counter read);
 * thread B starts at 130, enters the hook at 200, is preempted at P at 205. The scheduler
 * resumes B first (230: mret to P, tp B) although A waited longer: B reads the cycle counter
 * at 240 and returns at 250; a tick at 260 (B, outside the hook) switches to A (280: mret to
 * P, tp A), which reads at 290 and returns at 300. B's record (read 240) comes first:
 * pre = 240 - 200 - 25 (its trap 205..230) = 15, post = 250 - 240 = 10. A's record follows
 * (cycles 50 later): A's own cycles are 105 - 100 before the trap and 290 - 280 after the
 * resuming mret, pre = 15, and post = 300 - 290 = 10; the cycles while A was switched out
 * (B's 130..205 and 230..260) and the three traps are not A's cost. With "the one left first
 * resumes" (a round robin) the read at 240 would be A's: the first record's pre would be
 * 240 - 100 - 50 = 90. */
TS_TEST(mret_resumes_the_thread_tp_names) {
    make_run("cycle,hart,kind,pc,target,link,tp\n"
             "100,0,call,0x00002000,0x00001000,0x00002004,0x00000100\n"
             "105,0,trap,0x00001010,0x00003000,0x80000007,0x00000100\n"
             "130,0,mret,0x00003100,0x00002100,,0x00000200\n"
             "200,0,call,0x00002100,0x00001000,0x00002104,0x00000200\n"
             "205,0,trap,0x00001010,0x00003000,0x80000007,0x00000200\n"
             "230,0,mret,0x00003100,0x00001010,,0x00000200\n"
             "250,0,ret,0x00001030,0x00002104,,0x00000200\n"
             "260,0,trap,0x00002108,0x00003000,0x80000007,0x00000200\n"
             "280,0,mret,0x00003100,0x00001010,,0x00000100\n"
             "300,0,ret,0x00001030,0x00002004,,0x00000100\n",
             "cycle,hart,pc,csr,value\n"
             "240,0,0x00001018,cycle,0x000000f0\n"
             "290,0,0x00001018,cycle,0x00000122\n");
    hook_cost_t hc;
    char err[256];
    TS_ASSERT(!hc_load(&hc, dir, &syms, err, sizeof err));
    perf_record_t r = enter_rec();
    uint64_t pre = 0, post = 0;
    TS_ASSERT(hc_match(&hc, &r, UINT64_MAX, &pre, &post));
    TS_ASSERT_EQ_U(pre, 15);
    TS_ASSERT_EQ_U(post, 10);
    TS_ASSERT(hc_match(&hc, &r, 50, &pre, &post)); /* A's call, read at 290 */
    TS_ASSERT_EQ_U(pre, 15);
    TS_ASSERT_EQ_U(post, 10);
    TS_ASSERT(!hc_failed(&hc));
    TS_ASSERT_EQ_U(hc.resume_guesses, 0);
    hc_free(&hc);
    drop_run();
}

/* The same rows without the tp columns (a run folder of an older version): the round robin is
 * assumed where A and B were both left at P (one guess, counted for the report's note), and
 * here it is the wrong one - B's record is not B's call. */
TS_TEST(without_tp_the_guess_is_counted) {
    make_run("cycle,hart,kind,pc,target,link\n"
             "100,0,call,0x00002000,0x00001000,0x00002004\n"
             "105,0,trap,0x00001010,0x00003000,0x80000007\n"
             "130,0,mret,0x00003100,0x00002100,\n"
             "200,0,call,0x00002100,0x00001000,0x00002104\n"
             "205,0,trap,0x00001010,0x00003000,0x80000007\n"
             "230,0,mret,0x00003100,0x00001010,\n"
             "250,0,ret,0x00001030,0x00002104,\n",
             "cycle,hart,pc,csr,value\n"
             "240,0,0x00001018,cycle,0x000000f0\n");
    hook_cost_t hc;
    char err[256];
    TS_ASSERT(!hc_load(&hc, dir, &syms, err, sizeof err));
    perf_record_t r = enter_rec();
    uint64_t pre = 0, post = 0;
    hc_match(&hc, &r, UINT64_MAX, &pre, &post);
    TS_ASSERT_EQ_U(hc.resume_guesses, 1);
    hc_free(&hc);
    drop_run();
}

/* 40 hook calls open at once (a hook interrupted, its handler's hook interrupted, ...; the
 * measurement once gave up beyond 8): call i enters at 1000 + 10 i, reads the counter 3 cycles
 * later, and they return innermost first, call i at 2000 - 10 i. Every record is measured:
 * pre 3, post (2000 - 10 i) - (1003 + 10 i). */
TS_TEST(deep_nesting_is_measured) {
    enum { N = 40 };
    static char flow[N * 2 * 80 + 64], ctr[N * 48 + 32];
    char *f = flow, *c = ctr;
    f += sprintf(f, "cycle,hart,kind,pc,target,link,tp\n");
    c += sprintf(c, "cycle,hart,pc,csr,value\n");
    for (unsigned i = 0; i < N; i++) {
        f += sprintf(f, "%u,0,call,0x%08x,0x%08x,0x%08x,0x00000100\n", 1000 + 10 * i, 0x4000 + 8 * i, H, 0x4004 + 8 * i);
        c += sprintf(c, "%u,0,0x00001018,cycle,0x%08x\n", 1003 + 10 * i, 1003 + 10 * i);
    }
    for (unsigned i = N; i--;) f += sprintf(f, "%u,0,ret,0x00001030,0x%08x,,0x00000100\n", 2000 - 10 * i, 0x4004 + 8 * i);
    make_run(flow, ctr);
    hook_cost_t hc;
    char err[256];
    TS_ASSERT(!hc_load(&hc, dir, &syms, err, sizeof err));
    for (unsigned i = 0; i < N; i++) {
        perf_record_t r = enter_rec();
        uint64_t pre = 0, post = 0;
        TS_ASSERT(hc_match(&hc, &r, i ? 10 : UINT64_MAX, &pre, &post));
        TS_ASSERT_EQ_U(pre, 3);
        TS_ASSERT_EQ_U(post, (2000 - 10 * i) - (1003 + 10 * i));
    }
    TS_ASSERT(!hc_failed(&hc));
    hc_free(&hc);
    drop_run();
}

TS_TEST_MAIN()
