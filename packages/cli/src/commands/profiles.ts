/** profiles list|use|remove — several servers, one profile each (`--profile NAME` picks one per command). */
import fs from 'node:fs';
import type { Command } from 'commander';
import { credentialsPath, profileName, readProfiles, writeProfiles } from '../config.js';
import type { GlobalOptions } from '../context.js';
import { CliError, emit, EXIT, table } from '../output.js';

export function register(program: Command): void {
  const profiles = program.command('profiles').description('多个服务器的配置（profiles）');

  profiles
    .command('list', { isDefault: true })
    .description('列出配置')
    .action((_o: unknown, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const file = readProfiles();
      const active = profileName(g.profile);
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        server: p.server,
        username: p.username ?? '',
        signedIn: fs.existsSync(credentialsPath(name)),
        current: name === active,
      }));
      const text = table(rows, [
        { header: '', value: (r) => (r.current ? '*' : '') },
        { header: '配置', value: (r) => r.name },
        { header: '服务器', value: (r) => r.server },
        { header: '用户名', value: (r) => r.username },
        { header: '已登录', value: (r) => (r.signedIn ? '是' : '否') },
      ]);
      emit({ json: rows, text }, Boolean(g.json));
    });

  profiles
    .command('use <name>')
    .description('设为默认配置')
    .action((name: string, _o: unknown, cmd: Command) => {
      const file = readProfiles();
      if (!file.profiles[name])
        throw new CliError(
          EXIT.USAGE,
          `没有这个配置：${name}；可选：${Object.keys(file.profiles).join(', ') || '（无，先 tianji login --profile NAME）'}`,
        );
      file.current = name;
      writeProfiles(file);
      emit({ json: { current: name }, text: `默认配置：${name}` }, Boolean(cmd.optsWithGlobals<GlobalOptions>().json));
    });

  profiles
    .command('remove <name>')
    .description('删除配置及其本地凭据（不通知服务器；要吊销会话请先 logout）')
    .action((name: string, _o: unknown, cmd: Command) => {
      const file = readProfiles();
      if (!file.profiles[name]) throw new CliError(EXIT.USAGE, `没有这个配置：${name}`);
      delete file.profiles[name];
      if (file.current === name) delete file.current;
      writeProfiles(file);
      for (const suffix of ['', '.access']) fs.rmSync(credentialsPath(name) + suffix, { force: true });
      emit({ json: { removed: name }, text: `已删除配置 ${name}` }, Boolean(cmd.optsWithGlobals<GlobalOptions>().json));
    });
}
