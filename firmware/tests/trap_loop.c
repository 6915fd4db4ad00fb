/* trap_loop.c - firmware that faults forever: mtvec points to unmapped memory, so every trap
 * faults again. The simulator must stop it at the cycle limit, log a bounded number of guest
 * errors and count them all. */
int main(void) {
    __asm__ volatile("csrw mtvec, %0\n jr %0" :: "r"(0x30000000u));
    return 0;
}
