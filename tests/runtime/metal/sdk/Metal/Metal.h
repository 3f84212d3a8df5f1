/*
 * Metal.h — the stand-in for Apple's Metal.framework for the Linux syntax check of the Mac
 * sources: everything in it is GENERATED from Apple's declarations into Metal.generated.h
 * (tests/runtime/metal/apple/generate.py); see Foundation.h in this folder's parent.
 */
#ifndef GP_STANDIN_METAL_H
#define GP_STANDIN_METAL_H
#import <Foundation/Foundation.h>
#include "Metal.generated.h"
#endif
