"""Written by `make python`: the library this package was built with."""
LIBRARY = "/work/main/build/release/libipcc.so.0"
