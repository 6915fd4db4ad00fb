/* gt_flow.c - the firmware's own record of what it read and where it was, for
 * tests/ground_truth_test.sh, which requires the simulator's counters.csv and flow.csv to say
 * the same.
 *
 * The firmware reads counter CSRs (RV32: high, low, high), a counter with a read-and-write
 * csrrw and one with a plain write (csrw: no read), and the trace timestamp registers
 * (encoder, and the funnel's when there is one), all in inline assembly without compressed
 * instructions so that each instruction's address is a label plus a known offset. It makes
 * calls of every kind (32-bit jal, c.jal, jal through t0 returning with c.jr t0, a call
 * through a function pointer, a recursion), two jumps that are neither calls nor returns,
 * an ecall and a timer interrupt. The callees and trap handlers record the return
 * addresses (__builtin_return_address(0)), mepc and mcause they see. Everything is written
 * at the end to gt_expect.txt (ts_host_write), one line per expected row:
 *   csr,NAME,PC,VALUE            a counters.csv row (the file holds exactly these, in order)
 *   call|ret|trap|mret,PC,TARGET,LINK   a flow.csv row ('*' = not known to the firmware)
 *   none,PC                      no flow.csv row may have this pc
 *   between,PC,LO,HI             the counters.csv row of PC has LO < cycle < HI, where LO and HI
 *                                are simctrl CYCLE_LO read by loads just before and after it
 *   mark,NAME,VALUE              a simctrl MARK value, decimal as in marks.csv (which has its
 *                                cycle and instret); the counter reads follow their mark
 * Values are 0x%08x, like the simulator's files. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "ts_hpm.h"
#include "ts_trace.h"

#define MARK_COUNTERS 0x67740001u
#define MARK_FLOW     0x67740002u
#define MARK_FLOW_END 0x67740003u

static char report[4096];
static unsigned report_len;

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(report + report_len, sizeof report - report_len, fmt, ap);
    va_end(ap);
    CHECK_EQ(n > 0 && report_len + (unsigned)n < sizeof report, 1);
    report_len += (unsigned)n;
}

/* ---- callees -------------------------------------------------------------------------- */
static volatile uint32_t leaf_ra[8];
static volatile unsigned leaf_calls;

__attribute__((noinline, section(".text.gt_near"))) uint32_t gt_leaf(uint32_t x) {
    leaf_ra[leaf_calls++ & 7] = (uint32_t)(uintptr_t)__builtin_return_address(0);
    return x + 1;
}

/* asm leaves: a 32-bit return (jalr x0, 0(ra)) and a return through t0 (c.jr t0) */
uint32_t gt_leaf32(uint32_t x);
uint32_t gt_leaf_t0(uint32_t x);
extern const char gt_leaf32_ret[], gt_leaf_t0_ret[];
__asm__(".section .text.gt_near, \"ax\"\n"
        ".globl gt_leaf32, gt_leaf32_ret, gt_leaf_t0, gt_leaf_t0_ret\n"
        ".option push\n.option norvc\n"
        "gt_leaf32:\n  addi a0, a0, 1\n"
        "gt_leaf32_ret:\n  jalr x0, 0(ra)\n"
        ".option rvc\n"
        "gt_leaf_t0:\n  addi a0, a0, 1\n"
        "gt_leaf_t0_ret:\n  c.jr t0\n"
        ".option pop\n");

static volatile uint32_t rec_ra[8], rec_sink;
__attribute__((noinline, noipa)) uint32_t gt_rec(uint32_t n) {
    rec_ra[n & 7] = (uint32_t)(uintptr_t)__builtin_return_address(0);
    uint32_t r = n ? gt_rec(n - 1) : 0;
    rec_sink = r;                     /* work after the call: no tail call, no loop */
    return r + n;
}

#define CALLER_SAVED "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", \
                     "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "memory"

/* c.jal reaches +-2 KiB: this caller lives in the same section as the asm leaves */
__attribute__((noinline, section(".text.gt_near"))) uint32_t gt_call_compressed(uint32_t x, uint32_t *link) {
    uint32_t r, l;
    __asm__ volatile("mv a0, %[x]\n"
                     "c.jal gt_leaf32\n"
                     "1: mv %[r], a0\n"
                     "lla %[l], 1b\n"
                     : [r] "=r"(r), [l] "=r"(l) : [x] "r"(x) : CALLER_SAVED);
    *link = l;
    return r;
}

/* ---- traps ---------------------------------------------------------------------------- */
static volatile uint32_t ecall_epc, ecall_cause, timer_epc, timer_cause, timer_hits;

static uint32_t on_ecall(uint32_t cause, uint32_t epc, uint32_t tval) {
    ecall_epc = epc;
    ecall_cause = cause;
    return epc + 4;                   /* ecall is 4 bytes */
}
static uint32_t on_timer(uint32_t cause, uint32_t epc, uint32_t tval) {
    timer_epc = epc;
    timer_cause = cause;
    timer_hits++;
    ts_set_mtimecmp(~0ull);
    return epc;
}

/* ---- the parts ------------------------------------------------------------------------ */
static void counters(void) {
    TS_CSR_WRITE(mhpmevent3, TS_HPM_LOAD);     /* hpmcounter3 counts loads */
    uint32_t v[10], pc0, lo, hi;
    uint32_t tag = MARK_COUNTERS, sc = TS_SIMCTRL_BASE;
    __asm__ volatile(".option push\n.option norvc\n"
                     "1: lw %[lo], 8(%[sc])\n"           /* +0  simctrl CYCLE_LO */
                     "sw %[tag], 4(%[sc])\n"             /* +4  MARK */
                     "csrr %[v0], mcycleh\n"             /* +8  */
                     "csrr %[v1], mcycle\n"              /* +12 */
                     "csrr %[v2], mcycleh\n"             /* +16 */
                     "csrr %[v3], minstreth\n"           /* +20 */
                     "csrr %[v4], minstret\n"            /* +24 */
                     "csrr %[v5], minstreth\n"           /* +28 */
                     "csrr %[v6], hpmcounter3h\n"        /* +32 */
                     "lw %[v9], 0(sp)\n"                 /* +36 a load: hpmcounter3 moves */
                     "csrr %[v7], hpmcounter3\n"         /* +40 */
                     "csrr %[v8], hpmcounter3h\n"        /* +44 */
                     "csrw mhpmcounter3, %[tag]\n"       /* +48 a write (rd = x0): no row */
                     "csrrw %[v9], mhpmcounter3, zero\n" /* +52 reads the old value, writes 0 */
                     "lw %[hi], 8(%[sc])\n"              /* +56 CYCLE_LO again */
                     "lla %[pc0], 1b\n"
                     ".option pop\n"
                     : [v0] "=&r"(v[0]), [v1] "=&r"(v[1]), [v2] "=&r"(v[2]), [v3] "=&r"(v[3]),
                       [v4] "=&r"(v[4]), [v5] "=&r"(v[5]), [v6] "=&r"(v[6]), [v7] "=&r"(v[7]),
                       [v8] "=&r"(v[8]), [v9] "=&r"(v[9]), [pc0] "=&r"(pc0), [lo] "=&r"(lo),
                       [hi] "=&r"(hi)
                     : [tag] "r"(tag), [sc] "r"(sc)
                     : "memory");
    static const char *const names[] = {"mcycleh", "mcycle", "mcycleh", "minstreth", "minstret",
                                        "minstreth", "hpmcounter3h", "hpmcounter3", "hpmcounter3h",
                                        "mhpmcounter3"};
    static const unsigned offs[] = {8, 12, 16, 20, 24, 28, 32, 40, 44, 52};
    line("mark,counters,%lu\n", (unsigned long)MARK_COUNTERS);
    for (unsigned i = 0; i < 10; i++) {
        line("csr,%s,0x%08lx,0x%08lx\n", names[i], (unsigned long)(pc0 + offs[i]), (unsigned long)v[i]);
        line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + offs[i]), (unsigned long)lo, (unsigned long)hi);
    }
}

/* reads tsLower, tsUpper, tsLower of the encoder (and tsLower, tsUpper of the funnel) */
static void timestamps(void) {
    int funnel = ((TS_TE_REG(0, TS_CONTROL) >> TS_TS_CONTROL_TYPE_LSB) & 7u) == 4u;  /* slave */
    TS_TE_REG(0, CONTROL) = TS_TE_CONTROL_ACTIVE;
    if (funnel) {
        TS_TF_REG(CONTROL) = 1;                                 /* tfActive (bit 0) */
        TS_TF_REG(TS_CONTROL) = TS_TS_CONTROL_ACTIVE | TS_TS_CONTROL_COUNT | TS_TS_CONTROL_RESET;
    } else {
        TS_TE_REG(0, TS_CONTROL) = TS_TS_CONTROL_ACTIVE | TS_TS_CONTROL_COUNT | TS_TS_CONTROL_RESET;
    }
    /* each load between two loads of simctrl CYCLE_LO: its row's cycle lies between them */
    uint32_t a, b, c, pc0, x, y, z, te = TS_TRACE_BASE, sc = TS_SIMCTRL_BASE;
    __asm__ volatile(".option push\n.option norvc\n"
                     "1: lw %[x], 8(%[sc])\n"
                     "lw %[a], 0x44(%[te])\n"        /* +4 */
                     "lw %[y], 8(%[sc])\n"
                     "lw %[b], 0x48(%[te])\n"        /* +12 */
                     "lw %[c], 0x44(%[te])\n"        /* +16 */
                     "lw %[z], 8(%[sc])\n"
                     "lla %[pc0], 1b\n"
                     ".option pop\n"
                     : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [x] "=&r"(x), [y] "=&r"(y),
                       [z] "=&r"(z), [pc0] "=&r"(pc0)
                     : [te] "r"(te), [sc] "r"(sc) : "memory");
    line("csr,ts_lower,0x%08lx,0x%08lx\n", (unsigned long)(pc0 + 4), (unsigned long)a);
    line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + 4), (unsigned long)x, (unsigned long)y);
    line("csr,ts_upper,0x%08lx,0x%08lx\n", (unsigned long)(pc0 + 12), (unsigned long)b);
    line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + 12), (unsigned long)y, (unsigned long)z);
    line("csr,ts_lower,0x%08lx,0x%08lx\n", (unsigned long)(pc0 + 16), (unsigned long)c);
    line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + 16), (unsigned long)y, (unsigned long)z);
    CHECK_EQ(c > a, 1);                              /* the unit counts */
    if (funnel) {
        uint32_t tf = TS_FUNNEL_BASE;
        __asm__ volatile(".option push\n.option norvc\n"
                         "1: lw %[x], 8(%[sc])\n"
                         "lw %[a], 0x44(%[tf])\n"    /* +4 */
                         "lw %[b], 0x48(%[tf])\n"    /* +8 */
                         "lw %[z], 8(%[sc])\n"
                         "lla %[pc0], 1b\n"
                         ".option pop\n"
                         : [a] "=&r"(a), [b] "=&r"(b), [x] "=&r"(x), [z] "=&r"(z), [pc0] "=&r"(pc0)
                         : [tf] "r"(tf), [sc] "r"(sc) : "memory");
        line("csr,tf_ts_lower,0x%08lx,0x%08lx\n", (unsigned long)(pc0 + 4), (unsigned long)a);
        line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + 4), (unsigned long)x, (unsigned long)z);
        line("csr,tf_ts_upper,0x%08lx,0x%08lx\n", (unsigned long)(pc0 + 8), (unsigned long)b);
        line("between,0x%08lx,%lu,%lu\n", (unsigned long)(pc0 + 8), (unsigned long)x, (unsigned long)z);
    }
}

static void calls(void) {
    uint32_t r, link, link2;
    uint32_t leaf = (uint32_t)(uintptr_t)gt_leaf, leaf32 = (uint32_t)(uintptr_t)gt_leaf32;
    uint32_t leaf_t0 = (uint32_t)(uintptr_t)gt_leaf_t0, rec = (uint32_t)(uintptr_t)gt_rec;

    /* 1. a 32-bit jal ra to a C function; it returns with the compiler's ret */
    __asm__ volatile(".option push\n.option norvc\n"
                     "mv a0, %[x]\n"
                     "jal ra, gt_leaf\n"
                     "1: mv %[r], a0\n"
                     "lla %[l], 1b\n"
                     ".option pop\n"
                     : [r] "=r"(r), [l] "=r"(link) : [x] "r"(10u) : CALLER_SAVED);
    CHECK_EQ(r, 11);
    CHECK_EQ(leaf_ra[0], link);
    line("call,0x%08lx,0x%08lx,0x%08lx\n", (unsigned long)(link - 4), (unsigned long)leaf, (unsigned long)link);
    line("ret,*,0x%08lx,*\n", (unsigned long)link);

    /* 2. c.jal to an asm leaf returning with a 32-bit jalr x0, 0(ra) */
    r = gt_call_compressed(20, &link);
    CHECK_EQ(r, 21);
    line("call,0x%08lx,0x%08lx,0x%08lx\n", (unsigned long)(link - 2), (unsigned long)leaf32, (unsigned long)link);
    line("ret,0x%08lx,0x%08lx,*\n", (unsigned long)(uintptr_t)gt_leaf32_ret, (unsigned long)link);

    /* 3. jal t0 (x5 is a link register too) to a leaf returning with c.jr t0 */
    __asm__ volatile(".option push\n.option norvc\n"
                     "mv a0, %[x]\n"
                     "jal t0, gt_leaf_t0\n"
                     "1: mv %[r], a0\n"
                     "lla %[l], 1b\n"
                     ".option pop\n"
                     : [r] "=r"(r), [l] "=r"(link) : [x] "r"(30u) : CALLER_SAVED);
    CHECK_EQ(r, 31);
    line("call,0x%08lx,0x%08lx,0x%08lx\n", (unsigned long)(link - 4), (unsigned long)leaf_t0, (unsigned long)link);
    line("ret,0x%08lx,0x%08lx,*\n", (unsigned long)(uintptr_t)gt_leaf_t0_ret, (unsigned long)link);

    /* 4. through a function pointer (jalr or c.jalr, the compiler's choice) */
    uint32_t (*volatile fp)(uint32_t) = gt_leaf;
    r = fp(40);
    CHECK_EQ(r, 41);
    link = leaf_ra[1];
    line("call,*,0x%08lx,0x%08lx\n", (unsigned long)leaf, (unsigned long)link);
    line("ret,*,0x%08lx,*\n", (unsigned long)link);

    /* 5. a recursion three deep: four calls to gt_rec, four returns in reverse order */
    r = gt_rec(3);
    CHECK_EQ(r, 6);
    for (int n = 3; n >= 0; n--)
        line("call,*,0x%08lx,0x%08lx\n", (unsigned long)rec, (unsigned long)rec_ra[n]);
    for (int n = 0; n <= 3; n++)
        line("ret,*,0x%08lx,*\n", (unsigned long)rec_ra[n]);
    CHECK_EQ(rec_ra[1], rec_ra[0]);                 /* the inner calls share one site */

    /* 6. jumps that are neither calls nor returns: jalr x0 (a tail-call shape) and j */
    __asm__ volatile(".option push\n.option norvc\n"
                     "lla t1, 3f\n"
                     "1: jalr x0, 0(t1)\n"
                     "3: j 4f\n"
                     "4: lla %[l], 1b\n"
                     "lla %[m], 3b\n"
                     ".option pop\n"
                     : [l] "=r"(link), [m] "=r"(link2) : : "t1");
    line("none,0x%08lx\n", (unsigned long)link);
    line("none,0x%08lx\n", (unsigned long)link2);
}

static void traps(void) {
    uint32_t mtvec = TS_CSR_READ(mtvec) & ~3u, pc;
    ts_set_trap_handler(11, on_ecall);
    ts_set_trap_handler(0x80000007u, on_timer);

    /* an ecall: the handler resumes after it */
    __asm__ volatile(".option push\n.option norvc\n"
                     "1: ecall\n"
                     "lla %0, 1b\n"
                     ".option pop\n" : "=r"(pc) : : "memory");
    CHECK_EQ(ecall_epc, pc);
    CHECK_EQ(ecall_cause, 11);
    line("trap,0x%08lx,0x%08lx,0x%08lx\n", (unsigned long)ecall_epc, (unsigned long)mtvec, (unsigned long)ecall_cause);
    line("mret,*,0x%08lx,*\n", (unsigned long)(ecall_epc + 4));

    /* a timer interrupt taken in a waiting loop */
    TS_CSR_SET(mie, 1u << 7);
    ts_set_mtimecmp(ts_mtime() + 3);
    TS_CSR_SET(mstatus, 1u << 3);
    while (!timer_hits) { }
    TS_CSR_CLEAR(mstatus, 1u << 3);
    CHECK_EQ(timer_cause, 0x80000007u);
    line("trap,0x%08lx,0x%08lx,0x%08lx\n", (unsigned long)timer_epc, (unsigned long)mtvec, (unsigned long)timer_cause);
    line("mret,*,0x%08lx,*\n", (unsigned long)timer_epc);
}

int main(void) {
    counters();
    timestamps();
    ts_mark(MARK_FLOW);
    line("mark,flow,%lu\n", (unsigned long)MARK_FLOW);
    calls();
    traps();
    ts_mark(MARK_FLOW_END);
    line("mark,flow_end,%lu\n", (unsigned long)MARK_FLOW_END);
    CHECK_EQ(ts_host_write("gt_expect.txt", report, report_len, 0), 0);
    printf("gt_flow: %u bytes of expectations written\n", report_len);
    return 0;
}
