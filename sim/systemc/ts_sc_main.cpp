// ts_sc_main.cpp - tracesim-sc FW.elf [options]: `tracesim run` on the SystemC platform
// (ts_sc_platform.h). Same options, outputs and exit statuses as `tracesim run` (sim/main.c,
// compiled here with TS_SYSTEMC so that it runs ts_sc_run() instead of soc_run()).
#include <systemc>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "ts_version.h"
#include "ts_cli.h"   // the tracesim dispatcher (cli/tracesim.c)

int sc_main(int argc, char *argv[]) {
    // no "Simulation stopped by user" line when the firmware exits
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<char *> args;
    args.push_back(argv[0]);
    args.push_back(const_cast<char *>("run"));
    for (int i = 1; i < argc; i++) args.push_back(argv[i]);
    args.push_back(nullptr);
    return ts_cli_main((int)args.size() - 1, args.data());
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
