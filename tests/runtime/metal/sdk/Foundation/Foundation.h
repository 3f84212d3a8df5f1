/*
 * Foundation.h — a STAND-IN for the few Foundation declarations the Metal backend uses, so that
 * the files of src/runtime/metal can be syntax-checked (clang -fsyntax-only, Objective-C without ARC) on
 * a machine without Apple's SDK. Written from Apple's documentation; it proves that the backend
 * is valid Objective-C against these declarations, not that they match the real SDK.
 */
#ifndef GP_STANDIN_FOUNDATION_H
#define GP_STANDIN_FOUNDATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0

typedef unsigned long NSUInteger;
typedef long NSInteger;
typedef signed char BOOL;
#define YES ((BOOL)1)
#define NO ((BOOL)0)
#define nil ((id)0)
typedef double CFTimeInterval;
typedef struct _NSRange {
    NSUInteger location;
    NSUInteger length;
} NSRange;
static inline NSRange NSMakeRange(NSUInteger loc, NSUInteger len)
{
    NSRange r = {loc, len};
    return r;
}

@protocol NSObject
- (instancetype)retain;
- (oneway void)release;
- (instancetype)autorelease;
@end

@protocol NSCopying
- (id)copy;
@end

__attribute__((objc_root_class))
@interface NSObject <NSObject> {
    void *isa;
}
+ (instancetype)alloc;
- (instancetype)init;
- (void)dealloc;
@end

typedef struct {
    unsigned long state;
    id __unsafe_unretained *itemsPtr;
    unsigned long *mutationsPtr;
    unsigned long extra[5];
} NSFastEnumerationState;
@protocol NSFastEnumeration
- (NSUInteger)countByEnumeratingWithState:(NSFastEnumerationState *)state
                                  objects:(id __unsafe_unretained[])buffer
                                    count:(NSUInteger)len;
@end

typedef NSUInteger NSStringEncoding;
#define NSUTF8StringEncoding ((NSStringEncoding)4)

@interface NSString : NSObject <NSCopying>
+ (instancetype)stringWithUTF8String:(const char *)s;
+ (instancetype)stringWithFormat:(NSString *)format, ...;
- (instancetype)initWithUTF8String:(const char *)s;
- (instancetype)initWithBytes:(const void *)bytes
                       length:(NSUInteger)len
                     encoding:(NSStringEncoding)encoding;
@property(readonly) const char *UTF8String;
@property(readonly) NSUInteger length;
- (BOOL)containsString:(NSString *)other;
- (BOOL)hasPrefix:(NSString *)prefix;
@end

@interface NSError : NSObject
@property(readonly, copy) NSString *localizedDescription;
@property(readonly, copy) NSString *localizedFailureReason;
@end

@interface NSArray<ObjectType> : NSObject <NSFastEnumeration>
@property(readonly) NSUInteger count;
- (ObjectType)objectAtIndexedSubscript:(NSUInteger)idx;
@end

@interface NSMutableArray<ObjectType> : NSArray <ObjectType>
+ (instancetype)array;
- (void)addObject:(ObjectType)obj;
@end

@interface NSDictionary<KeyType, ObjectType> : NSObject
- (ObjectType)objectForKeyedSubscript:(KeyType)key;
@end

@interface NSMutableDictionary<KeyType, ObjectType> : NSDictionary <KeyType, ObjectType>
- (void)setObject:(ObjectType)obj forKeyedSubscript:(KeyType)key;
@end

@interface NSProcessInfo : NSObject
+ (NSProcessInfo *)processInfo;
@property(readonly, copy) NSString *operatingSystemVersionString;
@end

#endif
