import { describe, expect, it } from 'vitest';
import { MENUS } from '../../catalogue/index.js';
import { PAGE_TARGETS, targetProblem } from './target.js';

describe('targetProblem', () => {
  const origins = ['https://grafana.example.com'];

  it('accepts each kind with a fitting target', () => {
    expect(targetProblem('directory', '', origins)).toBeNull();
    expect(targetProblem('page', '', origins)).toBeNull();
    expect(targetProblem('page', MENUS.users.code, origins)).toBeNull();
    expect(targetProblem('link', 'https://example.com/docs?a=1', origins)).toBeNull();
    expect(targetProblem('embed', 'https://grafana.example.com/d/abc', origins)).toBeNull();
  });

  it('page targets are the built-in menus that have a page, not directories', () => {
    expect(PAGE_TARGETS).toContain(MENUS.loginLogs.code);
    expect(PAGE_TARGETS).not.toContain(MENUS.system.code);
    expect(targetProblem('page', MENUS.system.code, origins)).toContain('内置页面的菜单编码');
  });

  it('refuses what a browser would run or misread', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/relative',
      'https://u:p@x.com',
      'https://a b.com',
    ])
      expect(targetProblem('link', bad, origins), bad).toMatch(/http/);
  });

  it('embeds only configured origins, and says so when none is configured', () => {
    expect(targetProblem('embed', 'https://evil.example.com/', origins)).toContain('https://grafana.example.com');
    expect(targetProblem('embed', 'http://grafana.example.com/', origins)).not.toBeNull();
    expect(targetProblem('embed', 'https://grafana.example.com/', [])).toContain('当前未配置');
  });

  it('a directory points nowhere', () => {
    expect(targetProblem('directory', 'https://example.com', origins)).toContain('须为空');
  });
});
