s = f"{x[\"k\"]:{w}}" + r"""\
"""
if torch.cuda.is_available():
    x = (a,
 b.cuda())
