// vcore64.cpp - vcore.cpp compiled for the RV64 model (Vts_soc_top64): the vcore64_*
// functions the C API (vcore.h) hands RV64 models to.
#define TS_VCORE_XLEN 64
#include "vcore.cpp"
