import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Go file lists functions, methods, types, constants and variables; capitals are exported', (t) => {
  const source = `// Package cache keeps recently used values.
package cache

import (
	"sync"
	"time"
)

const DefaultTTL = 5 * time.Minute

const (
	MaxEntries = 1024
	minEntries = 8
	Red, Green = 1, 2
)

var (
	ErrMissing = errors.New("missing")
	hits       int
	defaults   = map[string]int{
		"a": 1,
	}
)

var globalCache *Cache

type Cache struct {
	mu    sync.Mutex
	items map[string]entry
}

type entry struct {
	value   any
	expires time.Time
}

type Loader interface {
	Load(key string) (any, error)
}

type List[T any] struct{ items []T }

type Key = string

type (
	Option func(*Cache)
	stats  struct{ hits int }
)

func New(opts ...Option) *Cache {
	return &Cache{items: map[string]entry{}}
}

func (c *Cache) Get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookup(key)
}

func (c *Cache) lookup(key string) (any, bool) {
	return nil, false
}

func Map[T, U any](in []T, f func(T) U) []U { return nil }

func expire() {}
`;
  t.deepEqual(definitionsOf('internal/cache/cache.go', source), [
    '+ DefaultTTL constant',
    '+ MaxEntries constant',
    '- minEntries constant',
    '+ Red constant',
    '+ Green constant',
    '+ ErrMissing variable',
    '- hits variable',
    '- defaults variable',
    '- globalCache variable',
    '+ Cache struct',
    '- entry struct',
    '+ Loader interface',
    '+ List struct',
    '+ Key type',
    '+ Option type',
    '- stats type',
    '+ New function',
    '+ Get method',
    '- lookup method',
    '+ Map function',
    '- expire function',
  ]);
});

test('an unclosed Go block hides nothing after it', (t) => {
  const source = `package broken\n\nconst (\n\tFirst = 1\n\nfunc Later() {}\n\nvar (\n\tx = 1\n)\n`;
  t.deepEqual(definitionsOf('broken.go', source), ['+ Later function', '- x variable']);
});
