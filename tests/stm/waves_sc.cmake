# software trace port tests: waves_sc (README "Software trace port")
