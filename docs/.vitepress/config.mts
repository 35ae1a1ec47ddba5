import { defineConfig } from 'vitepress';

/**
 * The documentation site, served by the server at /docs (packages/server/src/web/docs-site.ts); the API
 * reference sits beside it at /docs/api/. Everything is built into the site: no font, script or search service
 * from another host, so it works offline and under the server's CSP.
 */
export default defineConfig({
  base: '/docs/',
  lang: 'zh-CN',
  title: '天机 tianji',
  description: '可自托管的管理后台 API（位掩码权限）与离线公共查询 API',
  // Pages are files (guide/permissions.html): the server sends them as they are, with no rewriting.
  cleanUrls: false,
  // Site data and the page-hash map in a script file rather than inline: the server's CSP allows no inline script.
  metaChunk: true,
  lastUpdated: false,
  // Served by the server beside the site, not pages here: Scalar's console (web/api-reference.ts).
  ignoreDeadLinks: [/^\/api\/scalar\//],
  srcExclude: ['screenshots/**', 'README.md'],
  head: [['meta', { name: 'theme-color', content: '#3c6ef0' }]],
  themeConfig: {
    nav: [
      { text: '指南', link: '/guide/quick-start' },
      { text: 'API 参考', link: '/api/' },
      { text: '基准测试', link: '/guide/benchmarks' },
    ],
    sidebar: [
      {
        text: '开始',
        items: [
          { text: '快速开始', link: '/guide/quick-start' },
          { text: '公共接口', link: '/guide/public-api' },
          { text: '从 hitokoto.cn 迁移', link: '/guide/hitokoto' },
          { text: '参数、示例与错误归属', link: '/guide/public-api-inputs' },
          { text: '接口密钥', link: '/guide/api-keys' },
        ],
      },
      {
        text: '管理后台',
        items: [
          { text: '权限模型', link: '/guide/permissions' },
          { text: '会话与安全', link: '/guide/sessions' },
          { text: '客户端', link: '/guide/clients' },
          { text: '命令行参考', link: '/guide/cli-reference' },
        ],
      },
      {
        text: '运维',
        items: [
          { text: '部署', link: '/deploy' },
          { text: '配置项', link: '/guide/configuration' },
          { text: '基准测试', link: '/guide/benchmarks' },
          { text: '基准测试记录', link: '/guide/benchmarks-notes' },
        ],
      },
      {
        text: '参与开发',
        items: [
          { text: '架构与新增功能', link: '/guide/contributing' },
          { text: 'Web 公共核心', link: '/guide/web-core' },
          { text: 'API 参考', link: '/api/' },
        ],
      },
    ],
    // MiniSearch over the built pages, in the browser: no search service.
    search: {
      provider: 'local',
      options: {
        translations: {
          button: { buttonText: '搜索文档', buttonAriaLabel: '搜索文档' },
          modal: {
            noResultsText: '没有结果',
            resetButtonTitle: '清除',
            footer: { selectText: '选择', navigateText: '切换', closeText: '关闭' },
          },
        },
      },
    },
    outline: { level: [2, 3], label: '本页目录' },
    docFooter: { prev: '上一页', next: '下一页' },
    returnToTopLabel: '回到顶部',
    sidebarMenuLabel: '目录',
    darkModeSwitchLabel: '外观',
    footer: { message: 'MIT 许可 · 本站随服务一起构建，离线可用' },
  },
});
