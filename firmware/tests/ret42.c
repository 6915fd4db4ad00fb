/* ret42.c - main's return value is the exit status (the BSP's crt0 calls exit(main())):
 * tracesim must exit 42. Built at -O0, -O2 and -O3. */
int main(void) { return 42; }
