import { describe, expect, it } from 'vitest';
import { PERMISSION_POINTS, ROUTE_PERMISSIONS } from '@tianji/client';
import { offeredPoints, pointActions } from './route-access';

describe('the points a menu offers for granting', () => {
  it('a built-in menu offers exactly the points its routes declare', () => {
    expect(offeredPoints('system:login-log')).toBe(1 | 512); // 查询、导出
    expect(offeredPoints('system:session')).toBe(1 | 8 | 16); // 查询、删除、批量删除
    expect(offeredPoints('system:menu')).toBe(1 | 2 | 4 | 8 | 32); // … 新增下级
    // 用户管理: 解锁 (RESET) and 重置密码 / 重置两步验证 (RESET_PASSWORD) are declared there.
    expect(offeredPoints('system:user') & (64 | 128)).toBe(64 | 128);
    expect(offeredPoints('monitor:api')).toBe(1);
  });

  it('a directory offers none (visibility only); a menu an operator added offers all ten', () => {
    expect(offeredPoints('system')).toBe(0);
    expect(offeredPoints('content')).toBe(0);
    expect(offeredPoints('ops:wiki')).toBe(1023);
  });

  it('every point a route declares on a menu is offered there', () => {
    for (const [route, decl] of Object.entries(ROUTE_PERMISSIONS)) {
      if (typeof decl !== 'object' || !('menu' in decl)) continue;
      for (const b of decl.bits) {
        const bit = PERMISSION_POINTS.find((p) => p.value === b)!.bits;
        expect(offeredPoints(decl.menu) & bit, `${route} ${b}`).not.toBe(0);
      }
    }
  });
});

describe('what a point allows on a menu', () => {
  it('names the actions of the routes behind it, so 重置 is not mistaken for 重置密码', () => {
    expect(pointActions('system:user', 'RESET')).toEqual(['解锁用户']);
    expect(pointActions('system:user', 'RESET_PASSWORD')).toEqual(['重置用户密码', '重置两步验证']);
    expect(pointActions('monitor:api-key', 'RESET')).toEqual(['轮换接口密钥']);
    expect(pointActions('system:session', 'DELETE')).toContain('强制用户在所有设备下线');
  });

  it('has no English in the action names, and nothing for a point not offered or an operator’s menu', () => {
    for (const p of PERMISSION_POINTS)
      for (const a of pointActions('system:user', p.value)) expect(a).not.toMatch(/ [A-Z][a-z]/);
    expect(pointActions('system:login-log', 'RESET')).toEqual([]);
    expect(pointActions('ops:wiki', 'EDIT')).toEqual([]);
  });
});
