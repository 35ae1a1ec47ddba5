import fp from 'fastify-plugin';
import { ChinaCityNames, OfflineIpRegionProvider, recentIpRegions } from './ip-region.js';
import { openIpSources } from './ip-region-sources.js';
import { recentPlaces } from './ip-place.js';
import { loadPostcodes } from '../postcodes/postcodes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The offline IP database, opened once for every use: the public /api/ip-region and the admin's 登录地点. */
    ipLookup: {
      /** The ip-region answer for an address (lang zh-CN or en), the last 10 000 kept. */
      region: ReturnType<typeof recentIpRegions>;
      /** 登录地点: `{zh: '广东省 深圳市 电信', en: …}`, 本机, 内网地址 or 未知; the last 10 000 kept. */
      place: ReturnType<typeof recentPlaces>;
    };
  }
}

/**
 * One set of IP databases per process (ip-region-sources.ts), behind two answers. The place text reads only the
 * Chinese and City databases, so an admin list never loads the ASN table (the largest).
 */
export default fp(
  async (app) => {
    const sources = openIpSources(app.config.maxmind);
    const cityNames = new ChinaCityNames(loadPostcodes());
    app.decorate('ipLookup', {
      region: recentIpRegions(new OfflineIpRegionProvider(sources, cityNames)),
      place: recentPlaces(sources, cityNames),
    });
  },
  { name: 'ip-lookup' },
);
