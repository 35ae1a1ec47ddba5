/**
 * Variant characters (异体字) → their standard simplified form (规范字), for classical texts converted with opencc's
 * t2s, which leaves them as they are (隣, 劒, 疎, 鴈 … are not traditional characters of a simplified one, so t2s has
 * nothing to say about them). Written out by the project from the 《第一批异体字整理表》 (1955) and the
 * 《规范字与繁体字、异体字对照表》 of the 《通用规范汉字表》 (2013), for the variants the shipped poems and sentences
 * held. Only unambiguous pairs are listed: a character that is also a standard character with a meaning of its own
 * (祇 qí, 荅 dá, 烝, 槃 of 涅槃, 釐, 菑, 絜, 俛 miǎn, 褎, 愬 …) is left alone.
 *
 * Pairs of `variant standard`, one pair per entry.
 */
const PAIRS = `
疎疏 踈疏 劒剑 猨猿 鬬斗 鬭斗 簷檐 鴈雁 蘂蕊 橤蕊 蘃蕊 珮佩 桮杯 廻回 慙惭 櫂棹 隠隐 媿愧 堦阶 燄焰 嬾懒 徧遍 飜翻
髪发 敧欹 攲欹 隣邻 暎映 鸎莺 鶑莺 斾旆 呌叫 嘂叫 鏁锁 壻婿 鬰郁 煖暖 鵶鸦 竝并 麤粗 巵卮 妬妒 彊强 棃梨 帬裙 粧妆
臯皋 皐皋 褭袅 羇羁 碁棋 覩睹 牋笺 讐雠 嚬颦 浄净 邨村 輭软 穉稚 髙高 衞卫 顦憔 顇悴 旛幡 椀碗 盌碗 醆盏 琖盏 拏拿
僊仙 臞癯 頼赖 斲斫 斵斫 羗羌 筯箸 懽欢 髣仿 髴佛 塲场 栢柏 歛敛 懃勤 緜绵 鼇鳌 缾瓶 鉏锄 駮驳 蜺霓 袴裤 搥捶 胷胸
欵款 剉锉 毬球 隄堤 覰觑 賸剩 慇殷 罇樽 寛宽 諠喧 涖莅 惸茕 竚伫 竢俟 讬托 牕窗 窓窗 螘蚁 犂犁 遝沓 狥徇 篲彗 韈袜
瑯琅 筿筱 勗勖 擕携 鼈鳖 櫺棂 廐厩 牓榜 揜掩 虵蛇 襃褒 柟楠 虀齑 韲齑 蔕蒂 蹔暂 粃秕 畧略 怱匆 樝楂 閙闹 餠饼 殀夭
歠啜 儵倏 璅琐 悮误 汚污 倢婕 伃妤 埜野 鰕虾 埿泥 篴笛 櫉橱 幮橱 嗁啼 姪侄 柹柿 瓌瑰 餙饰 阯址 恡吝 悋吝 崄险 澣浣
躶裸 阬坑 峩峨 踡蜷 燐磷 輙辄 檝楫 鷰燕 纒缠 眀明 鍳鉴 艣橹 磵涧 羮羹 籖签 遯遁 勌倦 効效 萠萌 箒帚 抝拗 燿耀 顋腮
躭耽 搆构 噉啖 啗啖 瑠琉 臙胭 覔觅 裌夹 畊耕 緫总 縂总 葅菹 曡叠 餻糕 澁涩 蠭蜂 氷冰 迺乃 毘毗 閴阒 飰饭 勲勋 槩概
宼寇 吿告 翶翱 撡操 嚢囊 貎貌 醤酱 膓肠 幙幕 醎咸 逰游 邉边 壍堑 蠧蠹 兠兜 寃冤 凖准 氊毡 凴凭 穽阱 舩船 聫联 駞驼
戸户 寕宁 眎视 槖橐 巌岩 嵒岩 濵滨 鳯凤 靣面 灎滟 鸖鹤 蒭刍 椶棕 趂趁 憇憩 艸草 煼炒 齩咬 鮌鲧 碪砧 蜯蚌 朞期 鞵鞋
衺邪 迃迂 鬛鬣 欬咳 蟇蟆 蜋螂 嫓媲 趍趋 犇奔 癕痈 窼窠 驘骡 篛箬 瘖喑 霣陨 嬭奶 踘鞠 衒炫 憙喜 颿帆 蹏蹄 淛浙 譍应
簁筛 潄漱 勦剿 雝雍 憍骄 怳恍 涙泪 呪咒 逈迥 荘庄 鞾靴 髠髡 詶酬
`;

/** Variant → standard character. */
export const VARIANT_CHARS: ReadonlyMap<string, string> = new Map(
  PAIRS.split(/\s+/u)
    .filter(Boolean)
    .map((pair) => [...pair] as [string, string]),
);

const VARIANT_PATTERN = new RegExp(`[${[...VARIANT_CHARS.keys()].join('')}]`, 'gu');

/** `s` with every listed variant character replaced by its standard form: `天涯若比隣` → `天涯若比邻`. */
export const standardChars = (s: string): string => s.replace(VARIANT_PATTERN, (c) => VARIANT_CHARS.get(c) ?? c);
