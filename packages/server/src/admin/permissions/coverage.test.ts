import { describe, expect, it } from 'vitest';
import { gaps, mergeGrants, unionOf, type Holding } from './coverage.js';
import { SUPER_MASK } from './mask.js';

const holding = (masks: Record<string, number>, isSuper = false): Holding => ({
  isSuper,
  masks: new Map(Object.entries(masks)),
});
const map = (o: Record<string, number>) => new Map(Object.entries(o));

describe('gaps', () => {
  it('is empty when every wanted bit is held, and names the missing bits per menu otherwise', () => {
    expect(gaps(holding({ a: 7, b: 1 }), holding({ a: 5 }))).toEqual([]);
    expect(gaps(holding({ a: 1 }), holding({ a: 1 | 512, b: 0 }))).toEqual([
      { menu: 'a', bits: 512 },
      { menu: 'b', bits: 0 },
    ]);
  });

  it('a super administrator covers everything and is covered by no one else', () => {
    expect(gaps(holding({}, true), holding({ a: 1023 }))).toEqual([]);
    expect(gaps(holding({ a: 1023 }), holding({}, true))).toEqual([{ menu: '*', bits: SUPER_MASK }]);
  });
});

describe('mergeGrants', () => {
  const actor = holding({ a: 1 | 4, b: 0 });

  it('follows the request on the bits the actor holds and keeps the bits it lacks', () => {
    const { grants, refused } = mergeGrants(actor, map({ a: 4 | 512, c: 8 }), map({ a: 1 }));
    expect(refused).toEqual([]);
    expect(grants).toEqual(map({ a: 1 | 512, c: 8 }));
  });

  it('refuses what the role did not have and the actor does not hold, bit by bit and menu by menu', () => {
    expect(mergeGrants(actor, map({ a: 512 }), map({ a: 1 | 512 | 8 })).refused).toEqual([{ menu: 'a', bits: 8 }]);
    expect(mergeGrants(actor, map({}), map({ c: 0 })).refused).toEqual([{ menu: 'c', bits: 0 }]);
    expect(mergeGrants(actor, map({ c: 1 }), map({ c: 1 })).refused).toEqual([]);
  });

  it('removes a menu only when nothing the actor lacks remains on it', () => {
    expect(mergeGrants(actor, map({ a: 1, b: 0 }), map({})).grants).toEqual(map({}));
    expect(mergeGrants(actor, map({ a: 1 | 2 }), map({})).grants).toEqual(map({ a: 2 }));
  });
});

describe('unionOf', () => {
  it('ORs per menu, all-ones absorbing', () => {
    expect(
      unionOf([
        [['a', 1]],
        [
          ['a', 4],
          ['b', 2],
        ],
        [['b', SUPER_MASK]],
      ]),
    ).toEqual(map({ a: 5, b: SUPER_MASK }));
  });
});
