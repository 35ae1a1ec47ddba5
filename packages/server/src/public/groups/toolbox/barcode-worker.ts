/**
 * Worker-thread entry of barcode-pool.ts: draws one barcode per task with bwip-js, so BWIPP's encoders (up to ~0.3 s
 * for a long PDF417 or Data Matrix) and the PNG encoding never run on the server's event loop.
 */
import { drawBarcode, type BarcodeJob, type DrawnBarcode } from './barcode.js';

/** Errors do not survive the trip between threads as LookupError; their message does. */
export type BarcodeTaskResult = DrawnBarcode | { error: string };

export default async function drawInWorker(job: BarcodeJob): Promise<BarcodeTaskResult> {
  try {
    const drawn = await drawBarcode(job);
    // Copied back by structured clone (a few hundred KB at most): a transfer would need the buffer to itself.
    return { ...drawn, body: new Uint8Array(drawn.body) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
