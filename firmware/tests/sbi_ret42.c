/* sbi_ret42.c - the S-mode payload's s_main() return value is the exit status (sbi/s_start.S
 * calls exit(s_main())): tracesim must exit 42. */
int s_main(void);
int s_main(void) { return 42; }
