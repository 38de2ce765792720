// tree-sitter's C runtime, compiled into this addon from the `tree-sitter` package's vendored copy (the
// version the grammars are built against): lib.c is the runtime's single-file build.
#include "lib.c"
