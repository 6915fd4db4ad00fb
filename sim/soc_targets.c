/* soc_targets.c - see soc_targets.h. */
#include "soc_targets.h"

static enum bus_answer ok_err(bool ok) { return ok ? BUS_A_OK : BUS_A_ERR; }

static enum bus_answer clint_rd(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    (void)hart, (void)pc;
    return ok_err(clint_read(m, off, size, val));
}
static enum bus_answer clint_wr(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    (void)hart, (void)pc;
    return ok_err(clint_write(m, off, size, val));
}

static enum bus_answer uart_rd(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    (void)hart, (void)pc;
    return ok_err(uart_read(m, off, size, val));
}
static enum bus_answer uart_wr(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    (void)hart, (void)pc;
    return ok_err(uart_write(m, off, size, val));
}

static enum bus_answer simctrl_rd(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    (void)pc;
    return ok_err(simctrl_read(m, hart, off, size, val));
}
static enum bus_answer simctrl_wr(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    (void)pc;
    return ok_err(simctrl_write(m, hart, off, size, val));
}

/* the encoder's answer is the bus's (enum bus_answer has enum te_access's values) */
static enum bus_answer te_rd(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    (void)hart, (void)pc;
    return (enum bus_answer)te_read(m, off, size, val);
}
static enum bus_answer te_wr(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    (void)hart, (void)pc;
    return (enum bus_answer)te_write(m, off, size, val);
}

static enum bus_answer funnel_rd(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val) {
    (void)hart, (void)pc;
    return (enum bus_answer)funnel_read(m, off, size, val);
}
static enum bus_answer funnel_wr(void *m, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val) {
    (void)hart, (void)pc;
    return (enum bus_answer)funnel_write(m, off, size, val);
}

bus_target_ops_t soc_target_clint(clint_t *c) {
    return (bus_target_ops_t){.ctx = c, .read = clint_rd, .write = clint_wr};
}
bus_target_ops_t soc_target_uart(uart_t *u) { return (bus_target_ops_t){.ctx = u, .read = uart_rd, .write = uart_wr}; }
bus_target_ops_t soc_target_simctrl(simctrl_t *m) {
    return (bus_target_ops_t){.ctx = m, .read = simctrl_rd, .write = simctrl_wr};
}
bus_target_ops_t soc_target_te(te_t *t) { return (bus_target_ops_t){.ctx = t, .read = te_rd, .write = te_wr}; }
bus_target_ops_t soc_target_funnel(funnel_t *f) {
    return (bus_target_ops_t){.ctx = f, .read = funnel_rd, .write = funnel_wr};
}
