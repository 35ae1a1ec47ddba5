import { validation } from '../../errors.js';

export interface PasswordPolicy {
  /** PASSWORD_MIN_LENGTH */
  minLength: number;
  /** PASSWORD_MIN_SCORE: the zxcvbn score (0–4) of /api/password-strength */
  minScore: number;
}

/**
 * Why `password` falls short of the policy, as a Chinese sentence that never contains the password (the strength
 * engine's feedback included), or undefined when it meets it. zxcvbn runs here on the event loop: admin passwords
 * are at most 128 characters (the body schema) and are set rarely, unlike the public endpoint's worker-pool load.
 * The engine is loaded at the first check, not at start-up, and scores over the dictionaries the password pool's
 * threads share (compiled once per process in a thread of its own, lookup/toolbox/password-pool.ts): the event loop
 * neither stops to load the word lists nor keeps them (~40 MB of heap).
 */
export async function passwordPolicyProblem(password: string, policy: PasswordPolicy): Promise<string | undefined> {
  const length = [...password].length;
  if (length < policy.minLength) return `密码长度应至少为 ${policy.minLength} 个字符（当前 ${length} 个）`;
  if (policy.minScore <= 0) return undefined;
  const [{ checkPassword, configureZxcvbn }, { sharedPasswordWords }] = await Promise.all([
    import('../../lookup/toolbox/password-strength.js'),
    import('../../lookup/toolbox/password-pool.js'),
  ]);
  configureZxcvbn(await sharedPasswordWords());
  const { score, feedback } = checkPassword(password);
  if (score >= policy.minScore) return undefined;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  return `密码强度不足（评分 ${score}，至少需要 ${policy.minScore}，满分 4）${advice ? `：${advice}` : ''}`;
}

/** Refuses a new password that is too short or too weak: 400 naming `field`, with passwordPolicyProblem's reason. */
export async function assertPasswordPolicy(field: string, password: string, policy: PasswordPolicy): Promise<void> {
  const problem = await passwordPolicyProblem(password, policy);
  if (problem) throw validation(`参数 ${field} 无效：${problem}`);
}
