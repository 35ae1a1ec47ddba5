import { validation } from '../../errors.js';

export interface PasswordPolicy {
  /** PASSWORD_MIN_LENGTH */
  minLength: number;
  /** PASSWORD_MIN_SCORE: the zxcvbn score (0–4) of /api/password-strength */
  minScore: number;
}

/** What the strength engine says of a password: its score and its (Chinese) advice, never the password. */
interface Strength {
  score: number;
  feedback: { warning: string; suggestions: string[] };
}

/**
 * The strength engine's verdict. zxcvbn runs here on the event loop: admin passwords are at most 128 characters (the
 * body schema) and are set rarely, unlike the public endpoint's worker-pool load. The engine is loaded at the first
 * check, not at start-up, and scores over the dictionaries the password pool's threads share (compiled once per
 * process in a thread of its own, engines/password/password-pool.ts): the event loop neither stops to load the word
 * lists nor keeps them (~40 MB of heap).
 */
async function strengthOf(password: string): Promise<Strength> {
  const [{ checkPassword, configureZxcvbn }, { sharedPasswordWords }] = await Promise.all([
    import('../../engines/password/password-strength.js'),
    import('../../engines/password/password-pool.js'),
  ]);
  configureZxcvbn(await sharedPasswordWords());
  return checkPassword(password);
}

const lengthProblem = (password: string, policy: PasswordPolicy): string | undefined => {
  const length = [...password].length;
  return length < policy.minLength ? `密码长度应至少为 ${policy.minLength} 个字符（当前 ${length} 个）` : undefined;
};

const strengthProblem = ({ score, feedback }: Strength, policy: PasswordPolicy): string | undefined => {
  if (policy.minScore <= 0 || score >= policy.minScore) return undefined;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  return `密码强度不足（评分 ${score}，至少需要 ${policy.minScore}，满分 4）${advice ? `：${advice}` : ''}`;
};

/**
 * Why `password` falls short of the policy, as a Chinese sentence that never contains the password (the strength
 * engine's feedback included), or undefined when it meets it. The engine is not loaded when the length already
 * refuses the password or the policy asks no score.
 */
export async function passwordPolicyProblem(password: string, policy: PasswordPolicy): Promise<string | undefined> {
  return (
    lengthProblem(password, policy) ??
    (policy.minScore > 0 ? strengthProblem(await strengthOf(password), policy) : undefined)
  );
}

/**
 * The strength meter's answer (POST /api/auth/password-check): the score, and the policy's verdict by the same rules
 * and words as passwordPolicyProblem, so the meter and the submit never disagree.
 */
export async function passwordCheck(
  password: string,
  policy: PasswordPolicy,
): Promise<{ score: number; ok: boolean; problem: string }> {
  const strength = await strengthOf(password);
  const problem = lengthProblem(password, policy) ?? strengthProblem(strength, policy) ?? '';
  return { score: strength.score, ok: problem === '', problem };
}

/** Refuses a new password that is too short or too weak: 400 naming `field`, with passwordPolicyProblem's reason. */
export async function assertPasswordPolicy(field: string, password: string, policy: PasswordPolicy): Promise<void> {
  const problem = await passwordPolicyProblem(password, policy);
  if (problem) throw validation(`参数 ${field} 无效：${problem}`);
}
