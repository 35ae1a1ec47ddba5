/**
 * The notice of the first start: the generated password of the first super administrator, framed so that a person
 * starting the service cannot miss it among the log lines. Written to stderr as plain text, whatever the log format
 * (JSON lines on stdout are read by machines; this is read by the person at the terminal or in `docker logs`).
 */

export interface FirstStartNotice {
  /** Where the admin app answers, e.g. http://127.0.0.1:3000/admin/ */
  adminUrl: string;
  username: string;
  password: string;
  /** The interface the server listens on (HOST): a wildcard address reaches beyond this machine. */
  host: string;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The banner's lines, Chinese first; no colour codes, so it reads the same in a file. */
export function firstStartBanner(n: FirstStartNotice): string {
  const lines = [
    '天机 tianji — 首次启动：已创建超级管理员 / first start: the super administrator was created',
    '',
    `  管理后台 Admin app : ${n.adminUrl}`,
    `  用户名   Username  : ${n.username}`,
    `  密码     Password  : ${n.password}`,
    '',
    '  首次登录后必须修改此密码；它只显示这一次。',
    '  You must change this password at first sign-in; it is shown only this once.',
  ];
  if (WILDCARD.has(n.host))
    lines.push(
      '',
      `  注意：服务监听 ${n.host || '0.0.0.0'}，本机以外也能访问；请尽快登录并修改密码。`,
      `  Note: listening on ${n.host || '0.0.0.0'}, reachable from other machines: sign in and change it now.`,
    );
  const width = Math.max(...lines.map(displayWidth)) + 2;
  const rule = '='.repeat(width + 2);
  return `\n${rule}\n${lines.map((l) => (l ? ` ${l}` : '')).join('\n')}\n${rule}\n\n`;
}

/** Columns a line takes in a terminal: CJK characters take two. */
function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s)
    w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch)
      ? 2
      : 1;
  return w;
}

/** The admin app's address as a person would type it: a wildcard bind is shown as localhost. */
export function adminUrl(opts: { publicBaseUrl?: string; host: string; port: number }): string {
  if (opts.publicBaseUrl) return `${opts.publicBaseUrl}/admin/`;
  const host = WILDCARD.has(opts.host) ? 'localhost' : opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return `http://${host}:${opts.port}/admin/`;
}
