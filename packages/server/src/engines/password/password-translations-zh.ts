import type { TranslationKeys } from '@zxcvbn-ts/core';

/**
 * Simplified Chinese text for every key of @zxcvbn-ts/core v3's `translationKeys` (warnings, suggestions and the
 * crack-time display). zxcvbn refuses a translations object that misses a key, so the type keeps this complete.
 */
export const zhCnTranslations: TranslationKeys = {
  warnings: {
    straightRow: '键盘上同一行的连续按键很容易被猜到。',
    keyPattern: '简短的键盘图案很容易被猜到。',
    simpleRepeat: '像 "aaa" 这样的重复字符很容易被猜到。',
    extendedRepeat: '像 "abcabcabc" 这样的重复字符组合很容易被猜到。',
    sequences: '像 "abc" 这样的常见字符序列很容易被猜到。',
    recentYears: '最近的年份很容易被猜到。',
    dates: '日期很容易被猜到。',
    topTen: '这是使用最多的密码之一。',
    topHundred: '这是被频繁使用的密码。',
    common: '这是常用密码。',
    similarToCommon: '这与常用密码很相似。',
    wordByItself: '单个词语很容易被猜到。',
    namesByThemselves: '单独的名字或姓氏很容易被猜到。',
    commonNames: '常见的名字和姓氏很容易被猜到。',
    userInputs: '密码中不应包含个人信息或与页面相关的信息。',
    pwned: '该密码已在互联网上的数据泄露事件中曝光。',
  },
  suggestions: {
    l33t: "避免可预测的字符替换，例如用 '@' 代替 'a'。",
    reverseWords: '避免把常用词倒过来拼写。',
    allUppercase: '只将部分字母大写，而不是全部。',
    capitalization: '除首字母外，再大写其他一些字母。',
    dates: '避免使用与你有关的日期和年份。',
    recentYears: '避免使用最近的年份。',
    associatedYears: '避免使用与你有关的年份。',
    sequences: '避免使用常见的字符序列。',
    repeated: '避免重复的词语和字符。',
    longerKeyboardPattern: '使用更长的键盘图案，并多次改变输入方向。',
    anotherWord: '再加入一些不常见的词语。',
    useWords: '使用多个词语组合，但要避免常见短语。',
    noNeed: '不使用符号、数字或大写字母，也能设置出强密码。',
    pwned: '如果你在其他地方也使用了这个密码，应当立即更换。',
  },
  timeEstimation: {
    ltSecond: '不到 1 秒',
    second: '{base} 秒',
    seconds: '{base} 秒',
    minute: '{base} 分钟',
    minutes: '{base} 分钟',
    hour: '{base} 小时',
    hours: '{base} 小时',
    day: '{base} 天',
    days: '{base} 天',
    month: '{base} 个月',
    months: '{base} 个月',
    year: '{base} 年',
    years: '{base} 年',
    centuries: '数百年',
  },
};
