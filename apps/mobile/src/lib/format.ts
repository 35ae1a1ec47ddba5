import { TEXTS, nameOf } from '@tianji/web-core';

export { beijingTime } from '@tianji/web-core';

/** The phone app speaks Chinese: the shared texts for the server's codes (client kinds, login-log events, ...). */
export const TEXT = TEXTS.zh;

/** A content field's Chinese label, or the field's own name. */
export const fieldLabel = (name: string) => nameOf(TEXT.fields, name);
