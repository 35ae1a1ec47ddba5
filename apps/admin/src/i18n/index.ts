import { createI18n } from 'vue-i18n';
import zhCN from './zh-CN';
import en from './en';
import { MENU_CATALOGUE } from '@tianji/client';

export type Locale = 'zh-CN' | 'en';
const KEY = 'tianji.locale';

const saved = (typeof localStorage !== 'undefined' && localStorage.getItem(KEY)) as Locale | null;

/** Chinese by default; the choice of English is remembered in this browser. */
export const i18n = createI18n({
  legacy: false,
  locale: saved === 'en' ? 'en' : 'zh-CN',
  fallbackLocale: 'zh-CN',
  messages: { 'zh-CN': zhCN, en },
});

export function setLocale(locale: Locale) {
  i18n.global.locale.value = locale;
  localStorage.setItem(KEY, locale);
  document.documentElement.lang = locale;
}

/** A sign-in's 登录地点 in the chosen language (the server sends both). */
export const placeName = (location: { zh: string; en: string }): string =>
  i18n.global.locale.value === 'en' ? location.en : location.zh;

/** A menu's display name: the server's (Chinese) name, or its English translation when English is chosen. */
export function menuName(node: { code: string; name: string }): string {
  if (i18n.global.locale.value === 'zh-CN') return node.name;
  return MENU_CATALOGUE.find((m) => m.code === node.code)?.nameEn ?? node.name;
}

/**
 * A content field's label in the chosen language, or the field's own name. Read from the message objects directly:
 * vue-i18n's `te` would pull ~25 KB (gzipped) of message resolution into the first load.
 */
export function fieldLabel(name: string): string {
  const fields: Record<string, string> = i18n.global.locale.value === 'en' ? en.fields : zhCN.fields;
  return Object.hasOwn(fields, name) ? fields[name] : name;
}

/**
 * A server error in the interface language. The server's own messages are Chinese and name the parameter: the Chinese
 * interface shows them as they are; English shows the code's English text. Errors not from the server (a proxy's
 * 502 page) get a generic sentence in either language.
 */
export function serverMessage(e: { status: number; code: string; message: string }): string {
  const english = i18n.global.locale.value === 'en';
  const errors: Record<string, string> = english ? en.errors : zhCN.errors;
  const known = Object.hasOwn(errors, e.code) && e.code !== 'other';
  if (!english && known) return e.message;
  return known ? errors[e.code] : errors.other.replace('{status}', String(e.status));
}

/**
 * An audit label in the chosen language: an action (`user.create`), a target type or a field name; unknown keys show
 * as they are. Read from the message objects: the keys contain dots, which vue-i18n would read as a path.
 */
export function auditLabel(kind: 'actions' | 'targets' | 'fields', key: string): string {
  const labels: Record<string, string> = (i18n.global.locale.value === 'en' ? en : zhCN).audit[kind];
  return Object.hasOwn(labels, key) ? labels[key] : key;
}
