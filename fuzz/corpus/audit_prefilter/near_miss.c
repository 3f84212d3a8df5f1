#include <stdio.h>
int cur(void) { return CUx + cuX; }
