/**
 * @tianji/web-core — what both tianji web apps share: the reactive session and its API calls, the router rules,
 * route access, the texts for the server's codes, time formatting, schema-driven forms and the admin API's row types.
 * The apps (apps/admin with Element Plus, apps/mobile with Vant) are its UI layers; neither imports the other.
 */
export { createAppSession, type AppSessionOptions, type CallOptions } from './app-session';
export { fieldErrorOf, useFieldErrors, type FieldErrors } from './field-errors';
export { reactiveSession, signedOutHub, isHandled, type SignedOutHandler } from './reactive-session';
export { guardRouter, totpSetupText, type GuardOptions } from './router-guard';
export { connection, isUnreachable, markUnreachable } from './connection';
export { signedOutText } from './signed-out';
export { offeredPoints, pointActions, pointOfRoute, pointIcon } from './route-access';
export { TEXTS, namesIn, nameOf, pointNames, type Lang, type Texts } from './texts';
export { beijingTime } from '@tianji/client';
export { theme, type ThemeChoice } from './theme';
export { applyTabCommand, pageTabs, tabCommandsFor, type PageTab, type TabCommand } from './tabs';
export { SCREEN_LOCK_KEY, screenLock, screenLockTexts } from './screen-lock';
export * from './column-settings';
export * from './schema-form';
export { formProblems } from './form-check';
export { librarySchema, requestSchema } from './library-schema';
export * from './usage';
export * from './home-numbers';
export type * from './types';
export * from './sign-in';
export * from './security-notice';
export * from './two-factor';
export * from './passkeys';
export { useIdentityProof } from './identity-proof';
export * from './device-approval';
export * from './recovery-codes';
export * from './password-check';
export * from './api-keys';
export * from './server-status';
