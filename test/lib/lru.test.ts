import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/lib/lru';

describe('LruCache', () => {
  it('evicts the least recently used entry past its entry count', () => {
    const cache = new LruCache<string>({ maxEntries: 2, maxBytes: 1000 });
    cache.set('a', 'A', 1);
    cache.set('b', 'B', 1);
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('c', 'C', 1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('keeps its total size within budget, replaces an entry in place, and refuses one bigger than the budget', () => {
    const cache = new LruCache<string>({ maxEntries: 10, maxBytes: 100 });
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    cache.set('c', 'C', 40); // 120 > 100: a goes
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalBytes).toBe(80);
    cache.set('b', 'B2', 10);
    expect(cache.get('b')).toBe('B2');
    expect(cache.totalBytes).toBe(50);
    cache.set('huge', 'H', 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.totalBytes).toBe(50);
    cache.delete('c');
    expect(cache.totalBytes).toBe(10);
  });
});
