import { usernameKey } from '../shared/username-key.js';

/**
 * The form role names are compared in: as usernames (NFKC, case folded), and without whitespace or invisible format
 * characters, so that 「超级管理员 」, 「超级 管理员」 and 「超级管理员\u200b」 are the same name as 「超级管理员」: a list
 * showing two of them would let one pass for the other. Names are stored as typed; roles.name is also unique as such.
 */
export function roleNameKey(name: string): string {
  return usernameKey(name).replace(/[\s\p{Cf}]/gu, '');
}
