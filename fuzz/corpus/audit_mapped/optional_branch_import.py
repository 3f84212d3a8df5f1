import torch


def load_model(weights, fmt):
    engine = weights.endswith(".engine")
    if engine:  # TensorRT only for .engine files
        import tensorrt as trt

        return trt.Runtime(trt.Logger(trt.Logger.INFO))
    elif fmt == "fused":
        from apex.normalization import FusedLayerNorm

        return FusedLayerNorm(8)
    else:
        for name in ("a", "b"):
            import xformers.ops as xops  # every run of the else: this path's own import
    return torch.jit.load(weights)


def export(model):
    import tensorrt  # a function that always needs it

    return tensorrt.Builder(model)


if __name__ == "__main__":
    import cupy  # the script itself needs it

    load_model("m.torchscript", "jit")
