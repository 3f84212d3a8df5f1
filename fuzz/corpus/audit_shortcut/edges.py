from torch import cuda as tc
if HAS_CUDA:
	for i in r:
		pass
else:
    x = tc.synchronize()
def f(): return 1
class A: pass
d = DataLoader(s, num_workers=2)
a = 1e+f"x"
b = o.f'y'
s = f"{x['a']:{w}}"
m = dict(
  a=1,  # (
  b=[2, ')'],
)
y = a \
  .cuda()
