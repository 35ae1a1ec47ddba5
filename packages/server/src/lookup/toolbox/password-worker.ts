/**
 * Worker-thread entry of the password pool (password-pool.ts): each thread loads the dictionaries once, then
 * scores one password per task. Runs only inside piscina workers, never on the server's event loop.
 */
import { checkPassword, configureZxcvbn, type PasswordStrength } from './password-strength.js';

configureZxcvbn();

export default function scorePassword(password: string): PasswordStrength {
  return checkPassword(password);
}
