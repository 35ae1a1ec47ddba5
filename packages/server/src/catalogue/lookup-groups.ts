/** The five groups of the public API; each is an OpenAPI tag. */
export const LOOKUP_GROUPS = {
  daily: {
    name: '每日推荐 Daily',
    description: '同一北京时间日人人相同的内容。The same answer for everyone on a given day (Asia/Shanghai)',
  },
  random: {
    name: '随机生成 Random',
    description: '随机数据；传 `seed` 可复现。Random data; pass `seed` for reproducible output',
  },
  mood: { name: '心情语录 Mood quotes', description: '五种风格的语录。Quote generators in five styles' },
  life: {
    name: '生活服务 Life services',
    description: '日常生活的查询与计算。Lookups and calculators for everyday life',
  },
  toolbox: { name: '工具箱 Toolbox', description: '图片与颜色工具。Images and colour tools' },
} as const;

export type LookupGroup = keyof typeof LOOKUP_GROUPS;
