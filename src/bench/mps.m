/* mps.m — MPSMatrixMultiplication for `gpuport bench` on Metal devices (Apple only, manual
 * retain/release like the Metal backend). It uses the system default MTLDevice (the only GPU of an
 * Apple Silicon Mac) with shared buffers, and times each multiply on the host around commit and
 * waitUntilCompleted. Not compiled off Apple; see docs/bench.md. */
#import <Metal/Metal.h>
#import <MetalPerformanceShaders/MetalPerformanceShaders.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

int gp_bench_mps_sgemm(int n, const float *a, const float *b, float *c, double *seconds,
                       size_t samples, char *why, size_t whylen);

int gp_bench_mps_sgemm(int n, const float *a, const float *b, float *c, double *seconds,
                       size_t samples, char *why, size_t whylen)
{
    int rc = -1;
    @autoreleasepool {
        id<MTLDevice> dev = MTLCreateSystemDefaultDevice();
        if (!dev || !MPSSupportsMTLDevice(dev)) {
            snprintf(why, whylen, "not present: MPS does not support this device");
            [dev release];
            return 1;
        }
        size_t bytes = (size_t)n * n * sizeof(float);
        id<MTLBuffer> ba = [dev newBufferWithBytes:a
                                            length:bytes
                                           options:MTLResourceStorageModeShared];
        id<MTLBuffer> bb = [dev newBufferWithBytes:b
                                            length:bytes
                                           options:MTLResourceStorageModeShared];
        id<MTLBuffer> bc = [dev newBufferWithLength:bytes options:MTLResourceStorageModeShared];
        id<MTLCommandQueue> q = [dev newCommandQueue];
        MPSMatrix *ma = nil, *mb = nil, *mc = nil;
        MPSMatrixMultiplication *mm = nil;
        if (!ba || !bb || !bc || !q) {
            snprintf(why, whylen, "MPS: cannot allocate the matrices");
            goto out;
        }
        MPSMatrixDescriptor *d =
            [MPSMatrixDescriptor matrixDescriptorWithRows:(NSUInteger)n
                                                  columns:(NSUInteger)n
                                                 rowBytes:(NSUInteger)n * sizeof(float)
                                                 dataType:MPSDataTypeFloat32];
        ma = [[MPSMatrix alloc] initWithBuffer:ba descriptor:d];
        mb = [[MPSMatrix alloc] initWithBuffer:bb descriptor:d];
        mc = [[MPSMatrix alloc] initWithBuffer:bc descriptor:d];
        mm = [[MPSMatrixMultiplication alloc] initWithDevice:dev
                                               transposeLeft:NO
                                              transposeRight:NO
                                                  resultRows:(NSUInteger)n
                                               resultColumns:(NSUInteger)n
                                             interiorColumns:(NSUInteger)n
                                                       alpha:1.0
                                                        beta:0.0];
        for (size_t s = 0; s <= samples; s++) { /* the first run is the warm-up */
            id<MTLCommandBuffer> cb = [q commandBuffer];
            [mm encodeToCommandBuffer:cb leftMatrix:ma rightMatrix:mb resultMatrix:mc];
            double t0 = gp_bench_now();
            [cb commit];
            [cb waitUntilCompleted];
            if (cb.error) {
                snprintf(why, whylen, "MPSMatrixMultiplication failed: %s",
                         cb.error.localizedDescription.UTF8String);
                goto out;
            }
            if (s > 0) seconds[s - 1] = gp_bench_now() - t0;
        }
        memcpy(c, bc.contents, bytes);
        rc = 0;
    out:
        [mm release];
        [ma release];
        [mb release];
        [mc release];
        [q release];
        [ba release];
        [bb release];
        [bc release];
        [dev release];
    }
    return rc;
}
