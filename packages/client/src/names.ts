import { LOOKUP_GROUPS, type LookupGroup } from './generated/public-api.js';

/** The grace periods offered when rotating a key (minutes the old secret keeps working; the server allows 0–10080). */
export const ROTATION_GRACE_CHOICES = [
  { minutes: 0, zh: '立即失效', en: 'Ends at once' },
  { minutes: 60, zh: '1 小时', en: '1 hour' },
  { minutes: 1440, zh: '1 天', en: '1 day' },
  { minutes: 10080, zh: '7 天', en: '7 days' },
] as const;

/** The longest grace a rotation may give the old secret, in minutes (7 days). */
export const ROTATION_GRACE_MAX = 10080;

/** The public API's endpoint groups a key may be limited to (the server's LOOKUP_GROUPS, generated). */
export const LOOKUP_GROUP_CODES = Object.keys(LOOKUP_GROUPS) as LookupGroup[];

/** An endpoint group's name in one language (`life` → 生活服务 or Life services); the code for a group not known here. */
export function lookupGroupName(code: string, lang: 'zh' | 'en'): string {
  if (!Object.hasOwn(LOOKUP_GROUPS, code)) return code;
  const name = LOOKUP_GROUPS[code as LookupGroup].name;
  const space = name.indexOf(' ');
  return lang === 'zh' ? name.slice(0, space) : name.slice(space + 1);
}
