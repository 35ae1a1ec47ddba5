/**
 * The pages of the documentation site written from the code, not by hand: the command line reference (from the
 * commander definitions) and the settings (from config.ts's schema).
 *
 *   npm run docs:reference        rewrites them; packages/cli/test/reference.test.ts fails when they are stale
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../packages/cli/src/main.js';
import { renderReference } from '../packages/cli/src/reference.js';
import { describeSettings } from '../packages/server/src/config.js';

const root = new URL('../', import.meta.url);

function settingsPage(): string {
  // Markdown pages are Vue templates in VitePress: a bare <path> would open an element.
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;');
  return [
    '# 配置项 Settings',
    '',
    '<!-- 由 scripts/docs-reference.ts 从 packages/server/src/config.ts 生成，请勿手改：npm run docs:reference -->',
    '',
    '每个设置都是一个环境变量，启动时校验一次；取值不合法时服务拒绝启动，并在消息里写明是哪个变量。',
    '部署文件（`compose.yaml`、`deploy/kubernetes/`）列出了全部设置，并由测试与本表的来源核对。',
    '',
    '| 变量 | 默认值 | 含义 |',
    '|---|---|---|',
    ...describeSettings().map(
      (s) => `| \`${s.name}\` | ${s.default ? `\`${cell(s.default)}\`` : '—'} | ${cell(s.description)} |`,
    ),
    '',
  ].join('\n');
}

/** Each generated page: its path under the repository root and its text. */
export function generatedPages(): Record<string, string> {
  return {
    'docs/guide/cli-reference.md': renderReference(buildProgram()),
    'docs/guide/configuration.md': settingsPage(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of Object.entries(generatedPages())) {
    fs.writeFileSync(new URL(file, root), text);
    console.log(`wrote ${file}`);
  }
}
