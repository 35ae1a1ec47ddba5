import {
  AUDIT_ACTIONS,
  AUDIT_TARGETS,
  CLIENT_KIND_NAMES,
  ERROR_MESSAGES,
  LOGIN_EVENT_NAMES,
  LOGIN_REASON_NAMES,
  MENU_KIND_NAMES,
  PERMISSION_POINTS,
  POINT_NAMES,
  SIGN_IN_METHOD_NAMES,
} from '@tianji/client';

/** The two interface languages. */
export type Lang = 'zh' | 'en';

/** A server message's Chinese part: the English detail it ends with in brackets is for logs and developers. */
export const chinesePart = (message: string): string => message.replace(/\s*\([\x20-\x7e]*\)\s*$/, '');
type Names = Record<string, { readonly zh: string; readonly en: string }>;

/** One language's side of a name table: `namesIn(POINT_NAMES, 'zh').ADD_CHILD === '新增下级'`. */
export const namesIn = <T extends Names>(table: T, lang: Lang) =>
  Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v[lang]])) as Record<keyof T & string, string>;

/** Why the session ended when the server gave no code: the client's own reasons (SignOutReason). */
const SIGNED_OUT = {
  logout: { zh: '已退出登录', en: 'You have signed out.' },
  'other-tab': { zh: '已在其他标签页退出登录', en: 'Signed out in another tab' },
  'refresh-failed': { zh: '登录已失效，请重新登录', en: 'Your session has ended. Please sign in again.' },
};

/** Talking to the server failed: no answer at all, or a proxy's 502/503/504. */
const CONNECTION = {
  unreachable: { zh: '无法连接服务器', en: 'Cannot reach the server' },
  unreachableHint: {
    zh: '请检查网络或稍后重试；你的登录仍然有效。',
    en: 'Check the network or try again later; you are still signed in.',
  },
  retry: { zh: '重试', en: 'Retry' },
};

/** Labels of content library fields; a field not listed shows its own name. */
const FIELDS = {
  type: { zh: '分类', en: 'Category' },
  content: { zh: '内容', en: 'Content' },
  hitokoto: { zh: '内容', en: 'Content' },
  from: { zh: '出处', en: 'Source' },
  from_who: { zh: '作者', en: 'Author' },
  creator: { zh: '提交者', en: 'Submitted by' },
  commit_from: { zh: '来源', en: 'Submitted via' },
  source: { zh: '出处与授权', en: 'Provenance' },
  title: { zh: '标题', en: 'Title' },
  author: { zh: '作者', en: 'Author' },
  dynasty: { zh: '朝代', en: 'Dynasty' },
  lines: { zh: '诗句', en: 'Lines' },
  featured: { zh: '名句', en: 'Featured line' },
  category: { zh: '类别', en: 'Category' },
  riddle: { zh: '谜面', en: 'Riddle' },
  answer: { zh: '谜底', en: 'Answer' },
  style: { zh: '风格', en: 'Style' },
  date: { zh: '日期', en: 'Date' },
  description: { zh: '描述', en: 'Description' },
  url: { zh: '地址', en: 'URL' },
  width: { zh: '宽度', en: 'Width' },
  height: { zh: '高度', en: 'Height' },
  copyright: { zh: '版权', en: 'Copyright' },
  year: { zh: '年份', en: 'Year' },
  holidays: { zh: '假期', en: 'Holidays' },
  name: { zh: '名称', en: 'Name' },
  start: { zh: '开始', en: 'Start' },
  end: { zh: '结束', en: 'End' },
  work: { zh: '调休上班', en: 'Working days' },
};

function textsIn(lang: Lang) {
  return {
    points: namesIn(POINT_NAMES, lang),
    errors: namesIn(ERROR_MESSAGES, lang) as Record<string, string>,
    auditActions: namesIn(AUDIT_ACTIONS, lang) as Record<string, string>,
    auditTargets: namesIn(AUDIT_TARGETS, lang) as Record<string, string>,
    menuKinds: namesIn(MENU_KIND_NAMES, lang),
    loginEvents: namesIn(LOGIN_EVENT_NAMES, lang) as Record<string, string>,
    loginReasons: namesIn(LOGIN_REASON_NAMES, lang) as Record<string, string>,
    clientKinds: namesIn(CLIENT_KIND_NAMES, lang) as Record<string, string>,
    signInMethods: namesIn(SIGN_IN_METHOD_NAMES, lang) as Record<string, string>,
    signedOut: namesIn(SIGNED_OUT, lang) as Record<string, string>,
    connection: namesIn(CONNECTION, lang),
    fields: namesIn(FIELDS, lang) as Record<string, string>,
  };
}

/**
 * The texts both web apps show for codes: the server's names (generated from its sources: points, error codes, audit
 * actions, menu kinds, login-log events and reasons, client kinds, sign-in methods) and the clients' own (sign-out
 * reasons, connection states, fields).
 */
export const TEXTS = { zh: textsIn('zh'), en: textsIn('en') };
export type Texts = (typeof TEXTS)['zh'];

/** `table[key]`, or the key itself when the table has no name for it (a code newer than this client). */
export const nameOf = (table: Record<string, string>, key: string): string =>
  Object.hasOwn(table, key) ? table[key] : key;

/** The names of the points in `bits`, in point order, joined as the server joins them: `pointNames(7, 'zh') === '查询、新增、编辑'`. */
export const pointNames = (bits: number, lang: Lang): string =>
  PERMISSION_POINTS.filter((p) => (bits & p.bits) !== 0)
    .map((p) => TEXTS[lang].points[p.value])
    .join(lang === 'zh' ? '、' : ', ');
