import { MENU_CATALOGUE } from '@tianji/client';

/** Each content library's menu code → the library's name (from the catalogue: the menus the content page shows). */
const LIBRARY_OF = new Map<string, string>(
  MENU_CATALOGUE.flatMap((m) =>
    'page' in m && m.page === 'content' && 'api' in m ? [[m.code, m.api.slice(m.api.lastIndexOf('/') + 1)]] : [],
  ),
);

/** The content library a menu stands for, or undefined when it is not a content library's menu. */
export const libraryOfMenu = (code: string): string | undefined => LIBRARY_OF.get(code);
