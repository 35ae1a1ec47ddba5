import { pageTabs } from '@tianji/web-core';
import { onSignedOut } from '../session';

/** The shell's open pages (AppLayout shows them as tabs); the next user to sign in starts with the home tab only. */
export const tabs = pageTabs({ home: { path: '/', title: '首页' }, storage: sessionStorage });
onSignedOut(() => tabs.reset());
