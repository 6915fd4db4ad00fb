/* s_app.c - an S-mode payload on the installed SDK's SBI firmware (tests/sdk/sdk_test.sh
 * sbi_payload): reads the SBI spec version through the SBI client and returns 7 when it is
 * 0.3 ((0 << 24) | 3, docs/firmware/sbi-pmu.md), so the run's exit status is 7. */
#include <stdio.h>
#include "sbi_client.h"

int s_main(void);
int s_main(void) {
    struct sbiret r = sbi_get_spec_version();
    printf("S-mode payload: SBI spec version 0x%lx\n", (unsigned long)r.value);
    return r.error == 0 && r.value == 3 ? 7 : 1;
}
