/**
 * Limits of the password-strength check, in a module of their own so that the server's main thread can use them
 * without importing zxcvbn and its dictionaries (only the worker threads load those).
 */

/** Longest password the service checks, in characters: zxcvbn's cost grows steeply with length on crafted inputs. */
export const PASSWORD_MAX_LENGTH = 64;

/** The `dictionaryName` of matches against data/zh-common-passwords.json. */
export const ZH_DICTIONARY = 'zhCommonPasswords';
