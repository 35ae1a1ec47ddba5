import { SUPER_MASK } from './mask.js';

/**
 * "You may only grant what you hold" (Kubernetes RBAC escalation prevention), as plain functions over masks.
 *
 * A holding is per menu: menu key → bits. Holding a menu with bits 0 still means something (the menu is visible), so
 * presence counts too: a menu the holder does not have at all covers nothing, not even a 0-bit grant.
 * A super administrator (`isSuper`, or an all-ones mask) covers everything.
 */
export interface Holding {
  isSuper: boolean;
  masks: ReadonlyMap<string, number>;
}

/** What a holding lacks on one menu: `bits` it does not hold (0 when only the menu itself is missing). */
export interface Gap {
  menu: string;
  bits: number;
}

/** The menus and bits of `wanted` that `holder` does not hold; empty when `holder` covers `wanted`. */
export function gaps(holder: Holding, wanted: Holding): Gap[] {
  if (holder.isSuper) return [];
  if (wanted.isSuper) return [{ menu: '*', bits: SUPER_MASK }];
  const out: Gap[] = [];
  for (const [menu, bits] of wanted.masks) {
    const held = holder.masks.get(menu);
    if (held === undefined) out.push({ menu, bits });
    else if (held !== SUPER_MASK && (bits === SUPER_MASK || (bits & ~held) !== 0))
      out.push({ menu, bits: bits === SUPER_MASK ? bits : bits & ~held });
  }
  return out;
}

/**
 * The grants a role ends with when `actor` asks for `requested`, given the role's `existing` grants (menu → bits):
 * on each menu the actor holds, the actor's bits follow the request and the bits it lacks stay as they were (never
 * silently removed); a menu the actor does not hold is left exactly as it was (present or absent). `refused` lists what
 * the request asks for beyond that: bits (or a menu) the role did not have and the actor does not hold.
 */
export function mergeGrants(
  actor: Holding,
  existing: ReadonlyMap<string, number>,
  requested: ReadonlyMap<string, number>,
): { grants: Map<string, number>; refused: Gap[] } {
  if (actor.isSuper) return { grants: new Map(requested), refused: [] };
  const grants = new Map<string, number>();
  const refused: Gap[] = [];
  for (const menu of new Set([...existing.keys(), ...requested.keys()])) {
    const held = actor.masks.get(menu);
    const ex = existing.get(menu);
    const req = requested.get(menu);
    if (held === undefined) {
      if (req !== undefined && (ex === undefined || (req & ~ex) !== 0))
        refused.push({ menu, bits: ex === undefined ? req : req & ~ex });
      if (ex !== undefined) grants.set(menu, ex);
      continue;
    }
    const mine = held === SUPER_MASK ? ~0 : held;
    if (req !== undefined) {
      const beyond = req & ~mine & ~(ex ?? 0);
      if (beyond !== 0) refused.push({ menu, bits: beyond });
      grants.set(menu, (req & mine) | ((ex ?? 0) & ~mine));
    } else if (ex !== undefined && (ex & ~mine) !== 0) {
      grants.set(menu, ex & ~mine);
    }
  }
  return { grants, refused };
}

/** The OR, per menu, of several grant lists (a user's roles): the aggregate a set of roles amounts to. */
export function unionOf(lists: Iterable<Iterable<readonly [string, number]>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const list of lists) {
    for (const [menu, bits] of list) {
      const prev = out.get(menu);
      out.set(menu, prev === SUPER_MASK || bits === SUPER_MASK ? SUPER_MASK : (prev ?? 0) | bits);
    }
  }
  return out;
}
