# software trace port tests: fw (README "Software trace port")
