/* runaway.c - firmware that never exits: the simulator must stop it at the cycle limit. */
int main(void) {
    for (volatile unsigned i = 0;; i++) { }
}
