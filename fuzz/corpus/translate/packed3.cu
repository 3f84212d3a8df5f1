__device__ float h(const float3 *p) { return p->z + (*p).x; }
__global__ void k(float3 *p, const uchar3 *c, int3 *w, float3 a, int n) {
  int i = threadIdx.x; float3 v = p[i]; float3 u = {1.f, 2.f, 3.f};
  p[i] = make_float3(v.x + a.x, u.y, h(p + i)); p[i].y = c[i].x; w[i] = make_int3(i, n, 0);
  p[0] += v; char3 *z = 0;
}
