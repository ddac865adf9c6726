import test from 'ava';
import { definitionsOf } from './definitions-of.js';

const header = `#ifndef RINGBUF_H
#define RINGBUF_H 1

#include <stddef.h>

/*
A ring buffer. Prose at the start of a comment line
is not code: used for this (and that) purpose;
*/
#define _RINGBUF_ALIGN 8

#define RINGBUF_DEFAULT_SIZE 4096
#define RINGBUF_EMPTY(rb) ((rb)->head == (rb)->tail)

typedef struct ringbuf {
    unsigned char *data;
    size_t head, tail, size;
} ringbuf_t;

typedef void (*ringbuf_cb)(ringbuf_t *rb, void *arg);
typedef unsigned long ringbuf_size;

enum ringbuf_mode {
    RINGBUF_BLOCK,
    RINGBUF_DROP,
};

ringbuf_t *ringbuf_new(size_t size);
int ringbuf_push(ringbuf_t *rb, const void *src, size_t len);
static inline size_t ringbuf_used(const ringbuf_t *rb) { return rb->head - rb->tail; }
int _ringbuf_grow(ringbuf_t *rb);

#endif /* RINGBUF_H */
`;

const source = `#include "ringbuf.h"
#include <stdlib.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct stats {
    int pushes;
};

static struct stats global_stats;

static size_t
wrap(const ringbuf_t *rb, size_t at)
{
    return at % rb->size;
}

ringbuf_t *ringbuf_new(size_t size)
{
    ringbuf_t *rb = calloc(1, sizeof *rb);
    if (rb == NULL)
        return NULL;
    return rb;
}

int ringbuf_push(ringbuf_t *rb, const void *src,
                 size_t len)
{
    global_stats.pushes++;
    return 0;
}

void
ringbuf_free(ringbuf_t *rb)
{
    free(rb);
}
`;

test('a C header exports its macros with a body, types, typedefs and prototypes; not guards, comments or _internal names', (t) => {
  t.deepEqual(definitionsOf('include/ringbuf.h', header), [
    '- _RINGBUF_ALIGN macro',
    '+ RINGBUF_DEFAULT_SIZE macro',
    '+ RINGBUF_EMPTY macro',
    '+ ringbuf struct',
    '+ ringbuf_t type',
    '+ ringbuf_cb type',
    '+ ringbuf_size type',
    '+ ringbuf_mode enum',
    '+ ringbuf_new function',
    '+ ringbuf_push function',
    '+ ringbuf_used function',
    '- _ringbuf_grow function',
  ]);
});

test('a C source file exports its non-static functions; statics, macros and types stay private', (t) => {
  t.deepEqual(definitionsOf('src/ringbuf.c', source), [
    '- MIN macro',
    '- stats struct',
    '- wrap function',
    '+ ringbuf_new function',
    '+ ringbuf_push function',
    '+ ringbuf_free function',
  ]);
});

test('C++ headers and sources give classes, templates, aliases and out-of-line members', (t) => {
  const hpp = `#pragma once
#include <string>
#include <vector>

namespace geo {

template <typename T>
class Matrix {
public:
    Matrix(int rows, int cols);
    T at(int r, int c) const;
};

class EXPORT_API Shape : public Drawable {
public:
    virtual double area() const = 0;
};

struct Point final {
    double x, y;
};

using Path = std::vector<Point>;

enum class Unit { Meters, Feet };

double distance(const Point &a, const Point &b);

}  // namespace geo
`;
  t.deepEqual(definitionsOf('include/geo/shapes.hpp', hpp), [
    '+ Matrix class',
    '+ Shape class',
    '+ Point struct',
    '+ Path type',
    '+ Unit enum',
    '+ distance function',
  ]);
  const cpp = `#include "geo/shapes.hpp"
#include <cmath>

namespace geo {

namespace {
class Cache {
    int hits = 0;
};
}

double distance(const Point &a, const Point &b) {
    return std::hypot(a.x - b.x, a.y - b.y);
}

Circle::Circle(double r) : radius_(r) {}

double Circle::area() const {
    if (radius_ < 0) return 0;
    return 3.14159 * radius_ * radius_;
}

static int helper(int x) { return x * 2; }

}  // namespace geo
`;
  t.deepEqual(definitionsOf('src/geo/shapes.cpp', cpp), [
    '- Cache class',
    '+ distance function',
    '+ area function',
    '- helper function',
  ]);
});

test('Objective-C interfaces, protocols, implementations and methods are found', (t) => {
  const h = `#import <Foundation/Foundation.h>

@protocol RKDownloadDelegate;

@protocol RKCacheDelegate <NSObject>
- (void)cacheDidEvict:(NSString *)key;
@end

@interface RKImageCache : NSObject
@property (nonatomic, readonly) NSUInteger count;
+ (instancetype)sharedCache;
- (nullable UIImage *)imageForKey:(NSString *)key;
@end
`;
  t.deepEqual(definitionsOf('RKImageCache.h', h), [
    '+ RKCacheDelegate protocol',
    '+ cacheDidEvict method',
    '+ RKImageCache class',
    '+ sharedCache method',
    '+ imageForKey method',
  ]);
  const m = `#import "RKImageCache.h"

static NSString *const kCacheName = @"images";

@interface RKImageCache ()
@property (nonatomic, strong) NSCache *cache;
@end

@implementation RKImageCache

+ (instancetype)sharedCache {
    static RKImageCache *shared;
    return shared;
}

- (UIImage *)imageForKey:(NSString *)key {
    return [self.cache objectForKey:key];
}

@end

void RKLog(NSString *message) {
    NSLog(@"%@", message);
}
`;
  t.deepEqual(definitionsOf('RKImageCache.m', m), ['+ RKImageCache class', '+ sharedCache method', '+ imageForKey method', '+ RKLog function']);
});
