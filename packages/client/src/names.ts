/**
 * Names every tianji client shows for the client kinds the server records (X-Client-Kind), in Chinese and English:
 * the session lists and the login log of the web apps and the CLI say 网页, 移动端, 命令行 alike.
 */
export const CLIENT_KIND_NAMES = {
  web: { zh: '网页', en: 'Web' },
  mobile: { zh: '移动端', en: 'Mobile' },
  cli: { zh: '命令行', en: 'CLI' },
  sdk: { zh: 'SDK', en: 'SDK' },
  other: { zh: '其他', en: 'Other' },
} as const;
