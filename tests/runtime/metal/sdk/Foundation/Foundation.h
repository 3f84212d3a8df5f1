/*
 * Foundation.h — the stand-in for Apple's Foundation that the Linux syntax check of the Mac
 * sources compiles against (tests/runtime/metal/test_metal_backend_syntax.sh). The classes,
 * protocols, structs and functions are GENERATED from Apple's declarations into
 * Foundation.generated.h (tests/runtime/metal/apple/generate.py). This file keeps by HAND only
 * what PyObjC's scan of Foundation does not contain: the Objective-C basics of <objc/objc.h>,
 * <objc/NSObject.h> and <TargetConditionals.h> (BOOL, nil, NSInteger, the NSObject root class
 * and protocol), written from Apple's headers as documented; the Apple-declarations check
 * compares the root's selectors with metal-cpp's NS::Object where metal-cpp has them.
 */
#ifndef GP_STANDIN_FOUNDATION_H
#define GP_STANDIN_FOUNDATION_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- hand-kept: <TargetConditionals.h>, <objc/objc.h>, <objc/NSObjCRuntime.h> ------------ */
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#if defined(__x86_64__) /* OBJC_BOOL_IS_BOOL is 0 on Intel Macs only */
typedef signed char BOOL;
#else
typedef bool BOOL;
#endif
#define YES __objc_yes
#define NO __objc_no
#define nil ((void *)0)
typedef long NSInteger;
typedef unsigned long NSUInteger;
typedef struct _NSZone NSZone;

/* The availability of each generated declaration (API_AVAILABLE(macos(...)) in Apple's headers). */
#define GP_MACOS(v) __attribute__((availability(macos, introduced = v)))
#define GP_MACOS_DEPRECATED(v, d) __attribute__((availability(macos, introduced = v, deprecated = d)))

/* ---- hand-kept: <objc/NSObject.h>, the root class and protocol --------------------------- */
@class NSString;
@protocol NSObject
- (BOOL)isEqual:(id)object;
@property(readonly) NSUInteger hash;
- (BOOL)isKindOfClass:(Class)aClass;
- (BOOL)respondsToSelector:(SEL)aSelector;
- (instancetype)retain;
- (oneway void)release;
- (instancetype)autorelease;
- (NSUInteger)retainCount;
@property(readonly, copy) NSString *description;
@end

__attribute__((objc_root_class))
@interface NSObject <NSObject> {
    Class isa;
}
+ (instancetype)alloc;
+ (instancetype)new;
- (instancetype)init;
- (void)dealloc;
- (id)copy;
- (id)mutableCopy;
@end

/* ---- generated ---------------------------------------------------------------------------- */
#include "Foundation.generated.h"

#endif
