/* stack_tree.h - a calling-context tree: the costs of a profile by call path, for the
 * outputs that need whole stacks (`report -f folded`, `report -f callgrind`).
 *
 * A node is a function called at a call site from its parent node; the roots are one node per
 * hart and per thread of that hart (ST_HART, ST_THREAD below them). Each node has, per cost
 * column, its self cost (what was charged while it was the top of the stack), its calls (the
 * frames opened at it) and its source position (for callgrind: the file and line of the call
 * site, and the self costs by source line where the client gives lines). Pure C, no I/O but
 * the writers, no globals. */
#ifndef TS_STACK_TREE_H
#define TS_STACK_TREE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ST_NONE UINT32_MAX
#define ST_MAX_COLS 40
/* function numbers of the pseudo frames (a client's functions are numbered below ST_SPECIAL) */
#define ST_SPECIAL 0xFFFFFF00u
#define ST_OUTSIDE (ST_SPECIAL + 1) /* cost with an empty stack: outside every function */
#define ST_SPLIT (ST_SPECIAL + 2)   /* cost not attributed (split in unknown shares) */
#define ST_HART (ST_SPECIAL + 3)    /* a root: its site is the hart */
#define ST_THREAD (ST_SPECIAL + 4)  /* below a root: its site is the client's thread number */

typedef struct st_node {
    uint32_t parent, func;
    uint64_t site; /* call site address (0: unknown); hart or thread for roots */
    uint64_t calls;
} st_node_t;

typedef struct st_at_cost { /* self cost of a node at one address (pc) */
    uint32_t node;
    uint64_t addr;
    uint64_t cost[ST_MAX_COLS];
} st_at_cost_t;

typedef struct st {
    unsigned ncols;
    st_node_t *node;
    uint64_t *cost; /* ncols per node: self */
    size_t n, cap;
    uint64_t *hkey; /* (parent, func, site) -> node: open addressing */
    uint32_t *hval;
    size_t hcap;
    st_at_cost_t *lc; /* per (node, address) self costs, when given */
    size_t nlc, caplc;
    uint64_t *lkey;
    uint32_t *lval;
    size_t lcap;
    bool oom;
} st_t;

void st_init(st_t *t, unsigned ncols);
void st_free(st_t *t);
/* the root of hart, and below it the node of thread (a client's number); ST_NONE: no memory */
uint32_t st_thread_root(st_t *t, unsigned hart, uint64_t thread);
/* the child of parent for func called at site (made on first use); ST_NONE: no memory */
uint32_t st_child(st_t *t, uint32_t parent, uint32_t func, uint64_t site);
static inline void st_add(st_t *t, uint32_t node, unsigned col, uint64_t v) {
    if (node != ST_NONE && col < t->ncols) t->cost[(size_t)node * t->ncols + col] += v;
}
static inline uint64_t st_cost(const st_t *t, uint32_t node, unsigned col) { return t->cost[(size_t)node * t->ncols + col]; }
/* self cost of node at an address (also counted with st_add: this says where in the code) */
void st_add_at(st_t *t, uint32_t node, uint64_t addr, unsigned col, uint64_t v);

/* names for the writers: a client function's name (NULL: by address, st_addr), its
 * address, and a thread's label (NULL: no thread frame) */
typedef struct st_names {
    void *ctx;
    const char *(*func)(void *ctx, uint32_t func);
    uint64_t (*addr)(void *ctx, uint32_t func);
    /* the thread frame's label into buf for a hart's thread; false: leave the frame out */
    bool (*thread)(void *ctx, unsigned hart, uint64_t thread, char *buf, size_t len);
    /* the source position of an address in the code (a pc, a function's start), and of a
     * node's call site (st_node_t.site); NULL: unknown (both may be NULL) */
    const char *(*line)(void *ctx, uint64_t addr, unsigned *line);
    const char *(*site_line)(void *ctx, uint64_t site, unsigned *line);
} st_names_t;

/* folded stacks of column col ("frame;frame;... N" a line, sorted, equal stacks merged, zero
 * costs left out): the first frame "hart N", then the thread's when names->thread gives one,
 * then the functions from the outermost; costs outside every function end in "[outside]",
 * costs not attributed in "[not attributed]". 0, or -1 (no memory, write error). */
int st_write_folded(const st_t *t, unsigned col, const st_names_t *names, FILE *out);

/* the callgrind profile (positions: line) of the columns cols[0..k) named events (letters,
 * digits, '_'; desc: their long names, may be NULL): per function (fl=, fn=) its self cost by
 * source line (its addresses' lines where st_add_at gave them, else its first line), and per
 * call site (cfi=, cfn=, calls=) the number of calls and their inclusive cost. "[outside]"
 * and "[not attributed]" are functions of their own (self only), and "[hart N]" (or
 * "[hart N thread ...]") calls the frames opened with none below them, so the summary is the
 * sum of every cost and every traced function has a caller. A call's cost is the callee's
 * inclusive cost on the outermost frame of its function only (a recursion's inner calls cost
 * 0: theirs is inside the outer one's), so that a function's inclusive cost (the sum of its
 * calls', as callgrind_annotate --inclusive=yes adds them) is the profile's total. cmd: the
 * command line for the header. 0, -1 (no memory, write error). */
int st_write_callgrind(const st_t *t, const unsigned *cols, const char *const *events, const char *const *desc,
                       unsigned k, const st_names_t *names, const char *cmd, FILE *out);
#endif
