import { describe, expect, it } from 'vitest';
import { ImageCache } from './image-cache.js';

const img = (n: number) => ({ contentType: 'image/svg+xml', body: 'x'.repeat(n) });

describe('ImageCache', () => {
  it('evicts the least recently used images to stay within its byte budget', () => {
    const cache = new ImageCache(1000);
    cache.set('a', img(250));
    cache.set('b', img(250));
    cache.set('c', img(250));
    cache.get('a'); // a is now the most recent
    cache.set('d', img(250));
    cache.set('e', img(250));
    expect(cache.size).toBeLessThanOrEqual(1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toHaveLength(250);
    expect(cache.get('e')?.body).toHaveLength(250);
    // larger than a quarter of the budget: served, not kept
    const huge = cache.set('h', img(400));
    expect(huge.etag).toMatch(/^".+"$/);
    expect(cache.get('h')).toBeUndefined();
  });

  it('derives a value once per image and name, counts it in the budget and drops it with the image', () => {
    const cache = new ImageCache(1000);
    const a = cache.set('a', img(200));
    let made = 0;
    const make = (name: string) => () => ({ value: { name, n: ++made }, bytes: 100 });
    const first = cache.derive('a', a, 'http://one', make('one'));
    expect(cache.derive('a', a, 'http://one', make('one'))).toBe(first);
    expect(made).toBe(1);
    const other = cache.derive('a', a, 'http://two', make('two'));
    expect(other).not.toBe(first);
    expect(made).toBe(2);
    expect(cache.size).toBe(400);
    // Derived bytes push older images out like images do.
    cache.set('b', img(200));
    cache.get('a');
    cache.set('c', img(200));
    cache.set('d', img(200));
    cache.set('e', img(200));
    expect(cache.size).toBe(1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    // A new render of the same key starts with nothing derived.
    cache.set('a', img(200));
    const again = cache.derive('a', cache.get('a')!, 'http://one', make('one'));
    expect(again).not.toBe(first);
  });

  it('makes a fresh value every time for an image it does not keep', () => {
    const cache = new ImageCache(1000);
    const huge = cache.set('h', img(400));
    let made = 0;
    const make = () => ({ value: { n: ++made }, bytes: 100 });
    expect(cache.derive('h', huge, 'x', make)).not.toBe(cache.derive('h', huge, 'x', make));
    expect(cache.size).toBe(0);
  });
});
