import { describe, expect, it } from 'vitest';
import { decodeCodewords, decodePng, type ZxingFormat } from '../../../../test/decode-image.js';
import { drawBarcode, prepareBarcode, type BarcodeOptions, type BarcodeType } from './barcode.js';

const opts = (type: BarcodeType, text: string, more: Partial<BarcodeOptions> = {}): BarcodeOptions => ({
  type,
  text,
  format: 'png',
  scale: 3,
  height: 15,
  includeText: true,
  ...more,
});

const prepared = (type: BarcodeType, text: string) => prepareBarcode(opts(type, text)).prepared;
const errorOf = (type: BarcodeType, text: string) => {
  try {
    prepareBarcode(opts(type, text));
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${type} "${text}" was accepted`);
};

describe('barcode text checks', () => {
  it('appends the GS1 check digit to 12 EAN-13 digits and verifies 13', () => {
    expect(prepared('ean13', '400638133393')).toEqual({ text: '4006381333931', checkDigit: '1' });
    expect(prepared('ean13', '4006381333931').text).toBe('4006381333931');
    expect(prepared('ean13', '4 006381 333931').text).toBe('4006381333931'); // spaces as printed under the bars
  });

  it('names the right check digit when the given one is wrong', () => {
    const msg = errorOf('ean13', '4006381333934');
    expect(msg).toContain('参数 text 无效：EAN-13 校验位应为 1，末位却是 4');
    expect(msg).toContain('4006381333931');
    expect(msg).toContain('收到 "4006381333934"');
    expect(errorOf('upca', '036000291453')).toContain('UPC-A 校验位应为 2');
    expect(errorOf('itf14', '15400141288760')).toContain('ITF-14 校验位应为 3');
  });

  it('names the stray character in a numeric code and the allowed ones', () => {
    expect(errorOf('ean13', '40063A133393')).toContain('EAN-13 只能包含数字 0–9（第 6 位是 "A"）');
    expect(errorOf('ean8', '12345')).toContain('EAN-8 应为 7 位数字（自动补校验位）或 8 位（含校验位），实际 5 位');
  });

  it('rejects what Code 39 cannot encode and suggests upper case for lower-case letters', () => {
    expect(errorOf('code39', 'abc')).toContain('第 1 个字符 "a" 不在其中（小写字母请改为大写）');
    expect(errorOf('code39', 'A_B')).toContain('大写字母 A–Z、数字 0–9、空格和 - . $ / + %');
    expect(errorOf('code128', '条码')).toContain('ASCII 可打印字符');
  });

  it('turns an ISBN-10 into its ISBN-13 and checks both check digits', () => {
    expect(prepared('isbn', '0-306-40615-2').text).toBe('9780306406157');
    expect(prepared('isbn', '978-0-306-40615-7').text).toBe('9780306406157');
    expect(errorOf('isbn', '0-306-40615-3')).toContain('ISBN-10 校验位应为 2');
    expect(errorOf('isbn', '4006381333931')).toContain('必须以 978 或 979 开头');
  });

  it('UPC-E takes 6, 7 or 8 digits with number system 0 or 1', () => {
    expect(prepared('upce', '425261').text).toBe('04252614');
    expect(prepared('upce', '04252614').checkDigit).toBe('4');
    expect(errorOf('upce', '04252615')).toContain('UPC-E 校验位应为 4');
    expect(errorOf('upce', '2425261')).toContain('只能是 0 或 1');
  });

  it('Codabar gets A…A start/stop characters unless both are given', () => {
    expect(prepared('codabar', '40156').text).toBe('A40156A');
    expect(prepared('codabar', 'a40156b').text).toBe('A40156B');
    expect(errorOf('codabar', 'A40156')).toContain('成对出现');
  });
});

describe('drawn barcodes scan back to their text (ZXing)', () => {
  const cases: Array<[BarcodeType, string, ZxingFormat, string]> = [
    ['code128', 'Tianji-2026 ok!', 'CODE_128', 'Tianji-2026 ok!'],
    ['ean13', '400638133393', 'EAN_13', '4006381333931'],
    ['isbn', '0306406152', 'EAN_13', '9780306406157'],
    ['ean8', '9638507', 'EAN_8', '96385074'],
    ['upca', '03600029145', 'UPC_A', '036000291452'],
    ['itf14', '1540014128876', 'ITF', '15400141288763'],
    ['code39', 'CODE-39 $1', 'CODE_39', 'CODE-39 $1'],
    ['code93', 'HELLO-93', 'CODE_93', 'HELLO-93'],
    ['codabar', 'A40156B', 'CODABAR', 'A40156B'],
    ['datamatrix', 'https://example.com/?q=1', 'DATA_MATRIX', 'https://example.com/?q=1'],
    ['pdf417', 'PDF417 test 123', 'PDF_417', 'PDF417 test 123'],
  ];
  it.each(cases)('%s "%s"', async (type, text, format, expected) => {
    const { job } = prepareBarcode(opts(type, text));
    const drawn = await drawBarcode(job);
    expect(drawn.contentType).toBe('image/png');
    const decoded = decodePng(Buffer.from(drawn.body), format);
    expect(decoded.format).toBe(format);
    expect(decoded.text).toBe(expected);
  });

  it('a 2D code carries Chinese text as UTF-8 behind the ECI 26 marker, so scanners read UTF-8 (issue 50)', async () => {
    const texts = ['天机 2026', '你好，世界', '价格 ^ 上涨 5%', '北京市海淀区中关村大街 1 号', '😀 表情', '€ 与 ¥'];
    for (const text of texts) {
      const utf8 = Buffer.from(text, 'utf8').toString('latin1');
      // Data Matrix: ECI codeword 241, then 27 (ECI 26 + 1), then the bytes (ZXing-js reads the 27 as ASCII 26).
      const dm = decodeCodewords(
        Buffer.from((await drawBarcode(prepareBarcode(opts('datamatrix', text)).job)).body),
        'DATA_MATRIX',
      );
      expect(dm.codewords.slice(0, 2), text).toEqual([241, 27]);
      expect(dm.text, text).toBe(`\x1a${utf8}`);
      // PDF417: after the length descriptor, ECI codeword 927 with the ECI number 26, then the bytes.
      const pdf = decodeCodewords(
        Buffer.from((await drawBarcode(prepareBarcode(opts('pdf417', text)).job)).body),
        'PDF_417',
      );
      expect(pdf.codewords.slice(1, 3), text).toEqual([927, 26]);
      expect(pdf.text, text).toBe(utf8);
    }
  });

  it('a 2D code of Latin-1 text carries no ECI marker (ISO-8859-1 is the symbols’ default)', async () => {
    const dm = decodeCodewords(
      Buffer.from((await drawBarcode(prepareBarcode(opts('datamatrix', 'Café ^ 1')).job)).body),
      'DATA_MATRIX',
    );
    expect(dm.codewords[0]).not.toBe(241);
    expect(dm.text).toBe('Café ^ 1');
  });

  it('an SVG carries its size and no text of the input as markup', async () => {
    const { job } = prepareBarcode(opts('code128', '<script>x</script>', { format: 'svg' }));
    const svg = Buffer.from((await drawBarcode(job)).body).toString();
    expect(svg).toMatch(/^<svg width="\d+" height="\d+" viewBox=/);
    expect(svg).not.toContain('<script');
  });

  it('a 2D symbol over capacity is an error naming the symbology', async () => {
    const { job } = prepareBarcode(opts('pdf417', '汉'.repeat(800)));
    await expect(drawBarcode(job)).rejects.toThrow(/参数 text 无效：无法编码为 PDF417/);
  });
});
