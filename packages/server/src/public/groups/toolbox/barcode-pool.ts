/**
 * Barcode drawing off the event loop, with bwip-js in the process's drawing threads (shared/worker-entry.ts). The
 * text is validated on the calling thread first (cheap, and its errors name the parameter), then the drawing runs in
 * a thread. Threads start on first use and stop when idle; a full queue is answered with an error rather than piling
 * requests up.
 */
import { LookupError } from '../../../errors.js';
import { lazyPool } from '../../../engines/workers/worker-entry.js';
import { prepareBarcode, type BarcodeImage, type BarcodeJob, type BarcodeOptions } from './barcode.js';
import type { BarcodeTaskResult } from './barcode-worker.js';

const run = lazyPool(import.meta.url, 'barcode-worker', '条形码生成繁忙：排队的任务过多，请稍后重试');

/**
 * Drawings under way, by job. The route memo stores an answer only once it is ready, so a burst of identical requests
 * on a cold cache would otherwise queue one drawing each; they share the first instead.
 */
const inFlight = new Map<string, Promise<BarcodeImage>>();

/** Validates and draws a barcode; parameter errors are thrown before any thread is involved. */
export function renderBarcode(o: BarcodeOptions): Promise<BarcodeImage> {
  const { job, prepared } = prepareBarcode(o);
  const key = JSON.stringify(job);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = draw(job, prepared).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function draw(job: BarcodeJob, prepared: { text: string; checkDigit: string | null }): Promise<BarcodeImage> {
  const result = await run<BarcodeTaskResult>(job);
  if ('error' in result) throw new LookupError(result.error);
  const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
  return {
    contentType: result.contentType,
    body,
    width: result.width,
    height: result.height,
    text: prepared.text,
    checkDigit: prepared.checkDigit,
  };
}
