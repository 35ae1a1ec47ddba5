import { beijingTime } from '@tianji/client';

/**
 * Recovery codes leave the screen in two ways: copied to the clipboard, or saved as a text file
 * (`tianji-恢复码-<username>.txt`) whose first line says what they are, for whom, and when (Beijing time).
 */
export function recoveryCodesFile(username: string, codes: readonly string[], now = new Date()) {
  const text = [
    `天机两步验证恢复码（用户 ${username}，生成于 ${beijingTime(now.toISOString())} 北京时间）`,
    '每个恢复码只能代替验证码登录一次；重新生成后，旧的恢复码全部失效。',
    '',
    ...codes,
    '',
  ].join('\n');
  return { name: `tianji-恢复码-${username}.txt`, text };
}

/** Saves `blob` as a file named `name` (the browser's download). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves the user's recovery codes as `tianji-恢复码-<username>.txt`. */
export function downloadRecoveryCodes(username: string, codes: readonly string[]): void {
  const { name, text } = recoveryCodesFile(username, codes);
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);
}

/**
 * Puts `text` on the clipboard; true when it got there. The Clipboard API needs a secure context (HTTPS or
 * localhost): a self-hosted instance on plain HTTP in the LAN falls back to the selection and `copy` command.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, document not focused): try the old way.
  }
  const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
  area.style.cssText = 'position:fixed;top:0;left:0;opacity:0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
