/* A deliberate mistake the Metal backend syntax check must refuse: a selector no MTLBuffer has. */
#import <Metal/Metal.h>
void *gp_wrong_selector(id<MTLBuffer> b);
void *gp_wrong_selector(id<MTLBuffer> b)
{
    return [b contentz];
}
