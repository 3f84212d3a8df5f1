/*
 * MetalPerformanceShaders.h — the stand-in for Apple's MetalPerformanceShaders.framework for the
 * Linux syntax check of the Mac sources: GENERATED from Apple's declarations into
 * MetalPerformanceShaders.generated.h (tests/runtime/metal/apple/generate.py).
 */
#ifndef GP_STANDIN_MPS_H
#define GP_STANDIN_MPS_H
#import <Metal/Metal.h>
#include "MetalPerformanceShaders.generated.h"
#endif
