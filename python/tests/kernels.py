"""Kernel sources the interop tests share."""

SAXPY = """
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

# Writes y, then reads x: when x and y are one array used in place, x[i] reads what was just
# written; a copy of x would still hold the old value. Proof that a kernel used an array's own
# memory.
ALIAS = """
GP_KERNEL(alias, GP_BUF(float, y), GP_CBUF(float, x), GP_BUF(float, seen), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) {
        y[i] = 100.0f + (float)i;
        seen[i] = x[i];
    }
}
"""
