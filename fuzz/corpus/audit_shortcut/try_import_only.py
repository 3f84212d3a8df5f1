import math

try:
    from seqmod.fast import attend
except ImportError:
    attend = None


def scaled(q, k):
    return (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
