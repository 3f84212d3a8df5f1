/*
 * Metal.h — a STAND-IN for the Metal declarations the Metal backend uses (syntax check only;
 * see Foundation.h in this folder). Written from Apple's documentation.
 */
#ifndef GP_STANDIN_METAL_H
#define GP_STANDIN_METAL_H

#import <Foundation/Foundation.h>

typedef NSInteger MTLGPUFamily;
typedef NSUInteger MTLLanguageVersion;
typedef NSUInteger MTLResourceOptions;
#define MTLResourceStorageModeShared ((MTLResourceOptions)0)
typedef NSUInteger MTLCommandBufferStatus;
#define MTLCommandBufferStatusCompleted ((MTLCommandBufferStatus)4)
#define MTLCommandBufferStatusError ((MTLCommandBufferStatus)5)
typedef NSInteger MTLMathMode;
#define MTLMathModeSafe ((MTLMathMode)0)
#define MTLMathModeRelaxed ((MTLMathMode)1)
#define MTLMathModeFast ((MTLMathMode)2)
typedef NSInteger MTLMathFloatingPointFunctions;
#define MTLMathFloatingPointFunctionsFast ((MTLMathFloatingPointFunctions)0)
#define MTLMathFloatingPointFunctionsPrecise ((MTLMathFloatingPointFunctions)1)

typedef struct {
    NSUInteger width, height, depth;
} MTLSize;
static inline MTLSize MTLSizeMake(NSUInteger w, NSUInteger h, NSUInteger d)
{
    MTLSize s = {w, h, d};
    return s;
}

@protocol MTLDevice;
@protocol MTLCommandBuffer;

@protocol MTLResource <NSObject>
@end

@protocol MTLBuffer <MTLResource>
- (void *)contents;
@property(readonly) NSUInteger length;
@end

@protocol MTLEvent <NSObject>
@end

@protocol MTLFunction <NSObject>
@end

@protocol MTLLibrary <NSObject>
- (id<MTLFunction>)newFunctionWithName:(NSString *)name;
@end

@protocol MTLComputePipelineState <NSObject>
@property(readonly) NSUInteger maxTotalThreadsPerThreadgroup;
@property(readonly) NSUInteger threadExecutionWidth;
@end

@protocol MTLCommandEncoder <NSObject>
- (void)endEncoding;
@end

@protocol MTLBlitCommandEncoder <MTLCommandEncoder>
- (void)copyFromBuffer:(id<MTLBuffer>)sourceBuffer
           sourceOffset:(NSUInteger)sourceOffset
               toBuffer:(id<MTLBuffer>)destinationBuffer
      destinationOffset:(NSUInteger)destinationOffset
                   size:(NSUInteger)size;
- (void)fillBuffer:(id<MTLBuffer>)buffer range:(NSRange)range value:(uint8_t)value;
@end

@protocol MTLComputeCommandEncoder <MTLCommandEncoder>
- (void)setComputePipelineState:(id<MTLComputePipelineState>)state;
- (void)setBuffer:(id<MTLBuffer>)buffer offset:(NSUInteger)offset atIndex:(NSUInteger)index;
- (void)setBytes:(const void *)bytes length:(NSUInteger)length atIndex:(NSUInteger)index;
- (void)setThreadgroupMemoryLength:(NSUInteger)length atIndex:(NSUInteger)index;
- (void)dispatchThreads:(MTLSize)threadsPerGrid threadsPerThreadgroup:(MTLSize)threadsPerThreadgroup;
- (void)dispatchThreadgroups:(MTLSize)threadgroupsPerGrid
       threadsPerThreadgroup:(MTLSize)threadsPerThreadgroup;
@end

typedef void (^MTLCommandBufferHandler)(id<MTLCommandBuffer> buffer);

@protocol MTLCommandBuffer <NSObject>
- (void)addCompletedHandler:(MTLCommandBufferHandler)block;
- (void)commit;
- (void)waitUntilCompleted;
@property(readonly) MTLCommandBufferStatus status;
@property(readonly) NSError *error;
@property(readonly) CFTimeInterval GPUStartTime;
@property(readonly) CFTimeInterval GPUEndTime;
- (id<MTLComputeCommandEncoder>)computeCommandEncoder;
- (id<MTLBlitCommandEncoder>)blitCommandEncoder;
- (void)encodeSignalEvent:(id<MTLEvent>)event value:(uint64_t)value;
- (void)encodeWaitForEvent:(id<MTLEvent>)event value:(uint64_t)value;
@end

@protocol MTLCommandQueue <NSObject>
- (id<MTLCommandBuffer>)commandBuffer;
@end

@interface MTLCompileOptions : NSObject
@property(readwrite) MTLLanguageVersion languageVersion;
@property(readwrite) BOOL fastMathEnabled __attribute__((deprecated("use mathMode")));
@property(readwrite) MTLMathMode mathMode;
@property(readwrite) MTLMathFloatingPointFunctions mathFloatingPointFunctions;
@end

@protocol MTLDevice <NSObject>
@property(readonly) NSString *name;
@property(readonly) uint64_t registryID;
@property(readonly) BOOL hasUnifiedMemory;
@property(readonly) BOOL lowPower;
@property(readonly) uint64_t recommendedMaxWorkingSetSize;
@property(readonly) NSUInteger maxThreadgroupMemoryLength;
@property(readonly) NSUInteger maxBufferLength;
@property(readonly) MTLSize maxThreadsPerThreadgroup;
- (BOOL)supportsFamily:(MTLGPUFamily)family;
- (id<MTLCommandQueue>)newCommandQueue;
- (id<MTLBuffer>)newBufferWithLength:(NSUInteger)length options:(MTLResourceOptions)options;
- (id<MTLBuffer>)newBufferWithBytes:(const void *)pointer
                             length:(NSUInteger)length
                            options:(MTLResourceOptions)options;
- (id<MTLEvent>)newEvent;
- (id<MTLLibrary>)newLibraryWithSource:(NSString *)source
                               options:(MTLCompileOptions *)options
                                 error:(NSError **)error;
- (id<MTLComputePipelineState>)newComputePipelineStateWithFunction:(id<MTLFunction>)function
                                                             error:(NSError **)error;
@end

id<MTLDevice> MTLCreateSystemDefaultDevice(void);
NSArray<id<MTLDevice>> *MTLCopyAllDevices(void);

#endif
