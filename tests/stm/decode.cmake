# software trace port tests: decode (README "Software trace port")
