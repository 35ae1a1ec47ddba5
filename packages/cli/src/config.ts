/**
 * Where the CLI keeps its profiles and credentials, and the one place it reads the environment.
 * `$XDG_CONFIG_HOME/tianji/` (fallback `~/.config/tianji/`), folder 0700, files 0600:
 *   profiles.json            { current, profiles: { NAME: { server, username } } }
 *   credentials/NAME         refresh token (plus NAME.access, the latest access token, and NAME.lock while refreshing)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Profile {
  server: string;
  username?: string;
}

export interface ProfilesFile {
  current?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_SERVER = 'http://127.0.0.1:3000';
export const DEFAULT_PROFILE = 'default';

export function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'tianji');
}

const profilesPath = () => path.join(configDir(), 'profiles.json');

/** The refresh-token file of a profile (the file storage of @tianji/client adds `.access` and `.lock` beside it). */
export function credentialsPath(profile: string): string {
  return path.join(configDir(), 'credentials', profile);
}

export function readProfiles(): ProfilesFile {
  try {
    const parsed = JSON.parse(fs.readFileSync(profilesPath(), 'utf8')) as Partial<ProfilesFile>;
    return { current: parsed.current, profiles: parsed.profiles ?? {} };
  } catch {
    return { profiles: {} };
  }
}

export function writeProfiles(file: ProfilesFile): void {
  const dir = configDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const tmp = `${profilesPath()}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, profilesPath());
}

/** The profile named by --profile, else TIANJI_PROFILE, else the current one, else `default`. */
export function profileName(flag?: string): string {
  return namedProfile(flag) || readProfiles().current || DEFAULT_PROFILE;
}

/** The profile the user named (--profile, else TIANJI_PROFILE), if they named one. */
export const namedProfile = (flag?: string): string | undefined => flag || process.env.TIANJI_PROFILE || undefined;

/** Where profiles live, as a person would type it (`~/.config/tianji/profiles.json`). */
export function profilesFileForPeople(): string {
  const file = profilesPath();
  const home = os.homedir();
  return file.startsWith(`${home}${path.sep}`) ? `~${file.slice(home.length)}` : file;
}

/** Whether stdin is a terminal we may prompt on. */
export const interactive = () => Boolean(process.stdin.isTTY);

/** The language of tables and labels: English when the locale says so (LANG=en_US.UTF-8), else Chinese. */
export const lang = (): 'zh' | 'en' => (/^en/i.test(process.env.LC_ALL || process.env.LANG || '') ? 'en' : 'zh');
