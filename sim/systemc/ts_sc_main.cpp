// ts_sc_main.cpp - tracesim-sc FW.elf [options]: `tracesim run` on the SystemC platform
// (ts_sc_platform.h). Same options, outputs and exit statuses as `tracesim run`: the same run
// command (sim/run_cmd.h) with the SystemC platform (ts_run_sc).
#include <systemc>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "ts_sc_platform.h"
#include "ts_version.h"
extern "C" {
#include "exit_codes.h"
#include "ts_file.h"
}

int sc_main(int argc, char *argv[]) {
    // no "Simulation stopped by user" line when the firmware exits
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<char *> args;
    args.push_back(const_cast<char *>("run"));
    for (int i = 1; i < argc; i++) args.push_back(argv[i]);
    args.push_back(nullptr);
    int rc = ts_run_main((int)args.size() - 1, args.data(), &ts_run_sc);
    // whatever it printed must have reached stdout (as tracesim's dispatcher checks)
    if (ts_check_stdout() && rc == 0) rc = TS_EXIT_HOST;
    return rc;
}

// Our own main: no SystemC banner on stdout (it would mix with the firmware's UART output).
int main(int argc, char *argv[]) {
    if (argc == 2 && !std::strcmp(argv[1], "--version")) {
        std::printf("tracesim-sc %s (commit %s)\n", TS_VERSION, TS_GIT_COMMIT);
        return 0;
    }
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
