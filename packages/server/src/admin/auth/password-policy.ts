import { validation } from '../../errors.js';

export interface PasswordPolicy {
  /** PASSWORD_MIN_LENGTH */
  minLength: number;
  /** PASSWORD_MIN_SCORE: the zxcvbn score (0–4) of /api/password-strength */
  minScore: number;
}

/**
 * Refuses a new password that is too short or too weak: 400 naming `field`, with the strength engine's Chinese
 * feedback. The password itself is never part of the message. zxcvbn runs here on the event loop: admin passwords
 * are at most 128 characters (the body schema) and are set rarely, unlike the public endpoint's worker-pool load.
 * The engine and its dictionaries are loaded at the first check, not at start-up: importing them costs the main
 * thread ~20 MB of heap, and most processes never set an admin password (the public endpoint scores in its own
 * threads, lookup/toolbox/password-pool.ts).
 */
export async function assertPasswordPolicy(field: string, password: string, policy: PasswordPolicy): Promise<void> {
  const length = [...password].length;
  if (length < policy.minLength)
    throw validation(`参数 ${field} 无效：密码长度应至少为 ${policy.minLength} 个字符（当前 ${length} 个）`);
  if (policy.minScore <= 0) return;
  const { checkPassword } = await import('../../lookup/toolbox/password-strength.js');
  const { score, feedback } = checkPassword(password);
  if (score >= policy.minScore) return;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  throw validation(
    `参数 ${field} 无效：密码强度不足（评分 ${score}，至少需要 ${policy.minScore}，满分 4）${advice ? `：${advice}` : ''}`,
  );
}
