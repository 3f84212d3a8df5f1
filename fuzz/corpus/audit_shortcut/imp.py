try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp
