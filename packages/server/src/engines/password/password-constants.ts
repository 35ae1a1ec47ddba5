/**
 * Limits of the password-strength check, in a module of their own so that the server's main thread can use them
 * without importing zxcvbn and its dictionaries (only the worker threads load those).
 */

/** Longest password the service checks, in characters: zxcvbn's cost grows steeply with length on crafted inputs. */
export const PASSWORD_MAX_LENGTH = 64;

/** Default time budget of one check in milliseconds, queueing included (the PASSWORD_BUDGET_MS setting). */
export const PASSWORD_BUDGET_MS = 2000;

/** The `dictionaryName` of matches against data/zh-common-passwords.json. */
export const ZH_DICTIONARY = 'zhCommonPasswords';
