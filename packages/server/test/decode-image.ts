/**
 * Test helper: reads a barcode or QR code back from a PNG with ZXing (`@zxing/library`, a dev dependency), so tests
 * can check that what was drawn scans as what was asked for. Not used by the service.
 */
import { PNG } from 'pngjs';
import zxing from '@zxing/library';

const { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } = zxing;

export type ZxingFormat = keyof typeof BarcodeFormat;

/** Decodes the PNG; `format` narrows the search (ZXing's one-pass multi-reader misses Codabar otherwise). */
export function decodePng(png: Buffer, format?: ZxingFormat): { format: string; text: string; bytes?: Uint8Array } {
  const img = PNG.sync.read(png);
  // Luminance, with transparent pixels composited over white as a viewer would show them.
  const lum = new Uint8ClampedArray(img.width * img.height);
  for (let i = 0; i < lum.length; i++) {
    const a = img.data[i * 4 + 3] / 255;
    const y = 0.299 * img.data[i * 4] + 0.587 * img.data[i * 4 + 1] + 0.114 * img.data[i * 4 + 2];
    lum[i] = Math.round(y * a + 255 * (1 - a));
  }
  const hints = new Map<zxing.DecodeHintType, unknown>([[DecodeHintType.TRY_HARDER, true]]);
  if (format) hints.set(DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat[format]]);
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, img.width, img.height)));
  let result: zxing.Result;
  if (format === 'CODABAR') {
    // ZXing-js 0.21's multi-format reader does not reach its Codabar reader; ask it directly.
    result = new zxing.CodaBarReader().decode(bitmap, hints);
  } else {
    const reader = new MultiFormatReader();
    reader.setHints(hints);
    result = reader.decode(bitmap);
  }
  const segments = result.getResultMetadata()?.get(zxing.ResultMetadataType.BYTE_SEGMENTS) as Uint8Array[] | undefined;
  return { format: BarcodeFormat[result.getBarcodeFormat()], text: result.getText(), bytes: segments?.[0] };
}

/**
 * The data codewords ZXing reads from a Data Matrix or PDF417 image (before it interprets them), with the text it
 * makes of them: to check what a symbol carries beyond what ZXing-js interprets, such as an ECI marker (ZXing-js
 * skips the Data Matrix ECI codeword 241 and reads the ECI number after it as an ASCII codeword, and reads the PDF417
 * ECI codewords 927 n without applying the character set).
 */
export function decodeCodewords(png: Buffer, format: 'DATA_MATRIX' | 'PDF_417'): { codewords: number[]; text: string } {
  const parser = (format === 'DATA_MATRIX'
    ? zxing.DataMatrixDecodedBitStreamParser
    : zxing.PDF417DecodedBitStreamParser) as unknown as { decode: (...args: unknown[]) => unknown };
  const original = parser.decode;
  let codewords: number[] = [];
  parser.decode = (...args: unknown[]) => {
    codewords = Array.from(args[0] as ArrayLike<number>);
    return original.apply(parser, args);
  };
  try {
    const { text } = decodePng(png, format);
    return { codewords, text };
  } finally {
    parser.decode = original;
  }
}
