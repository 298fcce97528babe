#line 28 "book/01-mlp.nw"
#include "cli.h"
int main(int argc, char **argv) { (void)argc; (void)argv; return 0; }
