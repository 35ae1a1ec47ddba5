/**
 * Barcodes (PNG or SVG) with `bwip-js` (pure JavaScript Barcode Writer in Pure PostScript). The text is checked here
 * first, so a wrong check digit or a letter in a numeric code is an error that says exactly what is wrong instead of
 * bwip-js's internal message. Pure module: no HTTP framework here.
 */
import bwipjs from 'bwip-js';
import { paramError } from '../../../errors.js';
import { gs1CheckDigit, isbn10CheckChar, upceCheckDigit } from './check-digits.js';
import { pngSize } from '../../../engines/qr/png-bitmap.js';

export const BARCODE_TYPES = [
  'code128',
  'ean13',
  'ean8',
  'upca',
  'upce',
  'itf14',
  'isbn',
  'code39',
  'code93',
  'codabar',
  'datamatrix',
  'pdf417',
] as const;
export type BarcodeType = (typeof BARCODE_TYPES)[number];

interface Prepared {
  /** What is encoded (check digit included). */
  text: string;
  /** The check digit this service computed or verified, for the GS1 / ISBN types. */
  checkDigit: string | null;
}

interface Symbology {
  label: string;
  bcid: string;
  twoD: boolean;
  /** One line for the documentation: what `text` must be. */
  rule: string;
  prepare(text: string): Prepared;
  extra?: Record<string, unknown>;
}

const fail = (message: string, text: string) => paramError('text', message, text);

/** Digits only (spaces and hyphens people copy from packaging are dropped), with a message naming the first stray character. */
function digits(label: string, text: string): string {
  const d = text.replace(/[\s-]/g, '');
  const bad = [...d].findIndex((ch) => ch < '0' || ch > '9');
  if (bad >= 0) throw fail(`${label} 只能包含数字 0–9（第 ${bad + 1} 位是 "${[...d][bad]}"）`, text);
  return d;
}

/**
 * A GS1 number of `n` digits with check digit: `n − 1` digits get the check digit appended; `n` digits must end in it.
 */
function gs1(label: string, n: number) {
  return (text: string): Prepared => {
    const d = digits(label, text);
    if (d.length === n - 1) {
      const check = String(gs1CheckDigit(d));
      return { text: d + check, checkDigit: check };
    }
    if (d.length !== n)
      throw fail(`${label} 应为 ${n - 1} 位数字（自动补校验位）或 ${n} 位（含校验位），实际 ${d.length} 位`, text);
    const check = String(gs1CheckDigit(d.slice(0, -1)));
    if (d.at(-1) !== check) {
      throw fail(
        `${label} 校验位应为 ${check}，末位却是 ${d.at(-1)}（正确编码为 ${d.slice(0, -1)}${check}；只传前 ${n - 1} 位可自动计算）`,
        text,
      );
    }
    return { text: d, checkDigit: check };
  };
}

function upce(text: string): Prepared {
  let d = digits('UPC-E', text);
  if (d.length === 6) d = `0${d}`; // number system 0 when only the six data digits are given
  if (d.length !== 7 && d.length !== 8)
    throw fail(
      `UPC-E 应为 6 位数据（系统位默认 0）、7 位（系统位 0/1 + 6 位）或 8 位（含校验位），实际 ${d.length} 位`,
      text,
    );
  if (d[0] !== '0' && d[0] !== '1') throw fail(`UPC-E 的第 1 位（数字系统）只能是 0 或 1，实际是 ${d[0]}`, text);
  const check = String(upceCheckDigit(d.slice(0, 7)));
  if (d.length === 8 && d[7] !== check) {
    throw fail(
      `UPC-E 校验位应为 ${check}，末位却是 ${d[7]}（正确编码为 ${d.slice(0, 7)}${check}；只传前 7 位可自动计算）`,
      text,
    );
  }
  return { text: d.slice(0, 7) + check, checkDigit: check };
}

/** ISBN-13 as is, or ISBN-10 converted to its ISBN-13 (978 + nine digits + new check digit); both checks verified. */
function isbn(text: string): Prepared {
  const s = text.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{9}[\dX]$/.test(s)) {
    const check10 = isbn10CheckChar(s.slice(0, 9));
    if (s[9] !== check10)
      throw fail(`ISBN-10 校验位应为 ${check10}，末位却是 ${s[9]}（正确为 ${s.slice(0, 9)}${check10}）`, text);
    const body = `978${s.slice(0, 9)}`;
    const check = String(gs1CheckDigit(body));
    return { text: body + check, checkDigit: check };
  }
  if (!/^\d{12,13}$/.test(s))
    throw fail(
      `ISBN 应为 10 位（末位可为 X）或 13 位数字（可含连字符；12 位则自动补校验位），实际 ${s.length} 位`,
      text,
    );
  if (!/^97[89]/.test(s)) throw fail(`ISBN-13 必须以 978 或 979 开头，实际以 ${s.slice(0, 3)} 开头`, text);
  return gs1('ISBN-13', 13)(s);
}

/** Characters outside `allowed` (a regex character class body), named in the message with what is allowed. */
function charset(label: string, allowed: RegExp, allowedText: string, max: number) {
  return (text: string): Prepared => {
    const chars = [...text];
    const bad = chars.findIndex((ch) => !allowed.test(ch));
    if (bad >= 0) {
      const hint = /[a-z]/.test(chars[bad]) && allowed.test(chars[bad].toUpperCase()) ? '（小写字母请改为大写）' : '';
      throw fail(`${label} 只能包含 ${allowedText}，第 ${bad + 1} 个字符 "${chars[bad]}" 不在其中${hint}`, text);
    }
    if (chars.length > max) throw fail(`${label} 最多 ${max} 个字符，实际 ${chars.length} 个`, text);
    return { text, checkDigit: null };
  };
}

function codabar(text: string): Prepared {
  let t = text.toUpperCase();
  const startStop = /^[A-D].*[A-D]$/.test(t) && t.length >= 2;
  if (!startStop) {
    if (/^[A-D]|[A-D]$/.test(t))
      throw fail('Codabar 的起止符 A–D 必须成对出现在首尾（如 A40156B），或都不写（默认加 A…A）', text);
    t = `A${t}A`;
  }
  charset('Codabar', /[0-9\-$:/.+]/, '数字 0–9 和 - $ : / . +（首尾可加起止符 A–D）', 60)(t.slice(1, -1));
  return { text: t, checkDigit: null };
}

const any =
  (label: string, max: number) =>
  (text: string): Prepared => {
    const n = [...text].length;
    if (n > max) throw fail(`${label} 最多 ${max} 个字符，实际 ${n} 个`, text);
    return { text, checkDigit: null };
  };

/** ECI 26: the bytes that follow are UTF-8 (ISO/IEC 15424 and AIM's ECI register). */
const ECI_UTF8 = '^ECI000026';

/**
 * What a 2D symbol carries, as the bwip-js options for it (one byte per character). The symbols' default character
 * set is ISO-8859-1, so such text goes as is. Text beyond it (Chinese) goes as its UTF-8 bytes behind the ECI 26
 * marker, so ZXing and phone scanners know to read UTF-8 rather than guess (without it ZXing shows Latin-1
 * mojibake). The marker is written `^ECI000026` with `parsefnc`, under which a caret of the text is written `^^`.
 */
function symbolText2d(text: string): { text: string; parsefnc?: true } {
  if ([...text].every((ch) => ch.codePointAt(0)! <= 0xff)) return { text };
  const bytes = Buffer.from(text, 'utf8').toString('latin1');
  return { text: `${ECI_UTF8}${bytes.replaceAll('^', '^^')}`, parsefnc: true };
}

export const SYMBOLOGIES: Record<BarcodeType, Symbology> = {
  code128: {
    label: 'Code 128',
    bcid: 'code128',
    twoD: false,
    rule: 'ASCII 可打印字符（空格到 ~），最多 80 个',
    prepare: charset('Code 128', /[\x20-\x7e]/, 'ASCII 可打印字符（空格到 ~，不含中文）', 80),
  },
  ean13: {
    label: 'EAN-13',
    bcid: 'ean13',
    twoD: false,
    rule: '12 位数字（自动补校验位）或 13 位（校验）',
    prepare: gs1('EAN-13', 13),
  },
  ean8: { label: 'EAN-8', bcid: 'ean8', twoD: false, rule: '7 位或 8 位数字', prepare: gs1('EAN-8', 8) },
  upca: { label: 'UPC-A', bcid: 'upca', twoD: false, rule: '11 位或 12 位数字', prepare: gs1('UPC-A', 12) },
  upce: { label: 'UPC-E', bcid: 'upce', twoD: false, rule: '6、7 或 8 位数字，系统位 0/1', prepare: upce },
  itf14: { label: 'ITF-14', bcid: 'itf14', twoD: false, rule: '13 位或 14 位数字', prepare: gs1('ITF-14', 14) },
  isbn: {
    label: 'ISBN',
    bcid: 'ean13',
    twoD: false,
    rule: 'ISBN-10 或 ISBN-13（可含连字符），以 EAN-13 绘制',
    prepare: isbn,
  },
  code39: {
    label: 'Code 39',
    bcid: 'code39',
    twoD: false,
    rule: '大写字母、数字、空格和 - . $ / + %，最多 60 个',
    prepare: charset('Code 39', /[0-9A-Z \-.$/+%]/, '大写字母 A–Z、数字 0–9、空格和 - . $ / + %', 60),
  },
  // Code 93's two check characters are mandatory in the standard; BWIPP leaves them out unless asked.
  code93: {
    label: 'Code 93',
    bcid: 'code93',
    twoD: false,
    rule: '同 Code 39 的字符集，最多 60 个',
    prepare: charset('Code 93', /[0-9A-Z \-.$/+%]/, '大写字母 A–Z、数字 0–9、空格和 - . $ / + %', 60),
    extra: { includecheck: true },
  },
  codabar: {
    label: 'Codabar',
    bcid: 'rationalizedCodabar',
    twoD: false,
    rule: '数字和 - $ : / . +，起止符 A–D 可选',
    prepare: codabar,
  },
  datamatrix: {
    label: 'Data Matrix',
    bcid: 'datamatrix',
    twoD: true,
    rule: '任意文本（UTF-8），最多 1000 个字符',
    prepare: any('Data Matrix', 1000),
  },
  pdf417: {
    label: 'PDF417',
    bcid: 'pdf417',
    twoD: true,
    rule: '任意文本（UTF-8），最多 800 个字符',
    prepare: any('PDF417', 800),
  },
};

export interface BarcodeOptions {
  text: string;
  type: BarcodeType;
  format: 'png' | 'svg';
  /** Pixels per module (bar width unit). */
  scale: number;
  /** Bar height in millimetres at 72 dpi (linear codes). */
  height: number;
  includeText: boolean;
}

export interface BarcodeImage {
  contentType: string;
  body: Buffer;
  width: number;
  height: number;
  /** The encoded text, check digit included. */
  text: string;
  checkDigit: string | null;
}

/** What the drawing step needs: bwip-js options and the output format. Plain data, so it can cross to a worker thread. */
export interface BarcodeJob {
  bwip: Record<string, unknown> & { bcid: string; text: string };
  format: 'png' | 'svg';
  label: string;
  /** The text as given, for error messages. */
  input: string;
}

/** Validates the text for the symbology (the cheap part, on the caller's thread) and describes the drawing job. */
export function prepareBarcode(o: BarcodeOptions): { job: BarcodeJob; prepared: Prepared } {
  const sym = SYMBOLOGIES[o.type];
  const prepared = sym.prepare(o.text);
  const bwip = {
    bcid: sym.bcid,
    ...(sym.twoD ? symbolText2d(prepared.text) : { text: prepared.text }),
    scale: o.scale,
    ...(sym.twoD ? {} : { height: o.height, includetext: o.includeText, textxalign: 'center' }),
    paddingwidth: sym.twoD ? 2 : 10,
    paddingheight: 2,
    backgroundcolor: 'FFFFFF',
    ...sym.extra,
  };
  return { job: { bwip, format: o.format, label: sym.label, input: o.text }, prepared };
}

export interface DrawnBarcode {
  contentType: string;
  body: Uint8Array;
  width: number;
  height: number;
}

/** Draws a prepared barcode. Synchronous and CPU-bound (BWIPP's 2D encoders take up to ~0.3 s): run it in a worker. */
export async function drawBarcode(job: BarcodeJob): Promise<DrawnBarcode> {
  try {
    if (job.format === 'svg') {
      const svg = bwipjs.toSVG(job.bwip as unknown as bwipjs.RenderOptions);
      const [, w, h] = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(svg) ?? [];
      const sized = svg.replace('<svg ', `<svg width="${w}" height="${h}" `);
      return {
        contentType: 'image/svg+xml; charset=utf-8',
        body: Buffer.from(sized),
        width: Number(w),
        height: Number(h),
      };
    }
    const png = await bwipjs.toBuffer(job.bwip as unknown as bwipjs.RenderOptions);
    return { contentType: 'image/png', body: png, ...pngSize(png) };
  } catch (err) {
    // What the checks in prepareBarcode let through and bwip-js still refuses (mostly capacity of the 2D symbols).
    const detail = String((err as Error).message ?? err).replace(/^bwipp\.\w+#\d+:\s*/, '');
    throw fail(`无法编码为 ${job.label}：${detail}`, job.input);
  }
}
