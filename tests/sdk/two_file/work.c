/* work.c - the second file of the two-file program (see main.c) */
unsigned run(unsigned n);
unsigned twice(unsigned x);

unsigned run(unsigned n) {
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) s += twice(i);
    return s;
}
