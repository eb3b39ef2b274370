/**
 * NDJSON (one JSON value per line) cut into lines from a byte stream, for imports: the whole input is
 * never held, only the line being read. Lines end at "\n" (a "\r" before it is dropped, so CRLF files
 * read the same); a last line without a line break counts; a UTF-8 byte order mark at the start is
 * skipped. Cutting happens on bytes before decoding (0x0A never occurs inside a multi-byte UTF-8
 * sequence), so a character split across chunks arrives whole. Blank lines are answered too (with
 * their number), so that line numbers stay those an editor shows; the caller decides to skip them.
 */

/** One line of the input: its text, or why it has none. */
export type NdjsonLine =
  | {
      /** 1-based, counting every line (blank ones too). */
      number: number;
      /** Without its line break. */
      text: string;
    }
  | {
      number: number;
      /** Why the line was not read: longer than the limit (its bytes were skipped, never held) or not UTF-8. */
      problem: string;
    };

export interface NdjsonSplitterOptions {
  /** Longest line in bytes, line break excluded; a longer line is answered as a problem. */
  maxLineBytes: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The push-based splitter: feed chunks, collect the lines each one completes, then end(). */
export class NdjsonSplitter {
  private readonly maxLineBytes: number;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  /** Bytes of the line being read (its earlier chunks' parts). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The line being read is over the limit: its bytes are skipped up to the next line break. */
  private skipping = false;
  private lineNumber = 0;
  private atStart = true;

  constructor(options: NdjsonSplitterOptions) {
    this.maxLineBytes = options.maxLineBytes;
  }

  /** Lines read so far, the one in progress excluded. */
  get linesRead(): number {
    return this.lineNumber;
  }

  push(chunk: Uint8Array | string): NdjsonLine[] {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.atStart) bytes = this.skipByteOrderMark(bytes);
    const lines: NdjsonLine[] = [];
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end === -1) {
        this.hold(bytes.subarray(start));
        return lines;
      }
      lines.push(this.completeLine(bytes.subarray(start, end)));
      start = end + 1;
    }
  }

  /** The last line, when the input does not end with a line break. */
  end(): NdjsonLine[] {
    if (this.pendingBytes === 0 && !this.skipping) return [];
    return [this.completeLine(Buffer.alloc(0))];
  }

  private skipByteOrderMark(bytes: Buffer): Buffer {
    // The mark may itself arrive split: wait until three bytes have been seen.
    const seen = Buffer.concat([...this.pending, bytes]);
    if (seen.length < BYTE_ORDER_MARK.length && BYTE_ORDER_MARK.subarray(0, seen.length).equals(seen)) {
      this.pending = [seen];
      this.pendingBytes = seen.length;
      return Buffer.alloc(0);
    }
    this.atStart = false;
    this.pending = [];
    this.pendingBytes = 0;
    return seen.subarray(0, BYTE_ORDER_MARK.length).equals(BYTE_ORDER_MARK) ? seen.subarray(BYTE_ORDER_MARK.length) : seen;
  }

  private hold(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    // One byte of grace: a "\r" that ends the line is not part of it.
    if (this.pendingBytes + part.length > this.maxLineBytes + 1) {
      this.skipping = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // A chunk's buffer may be reused by its producer: keep a copy of the part.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  /** Ends the line being read with its last part (read in place when the line lies within one chunk). */
  private completeLine(last: Buffer): NdjsonLine {
    this.lineNumber += 1;
    const number = this.lineNumber;
    let bytes = last;
    if (this.pendingBytes > 0 || this.skipping) {
      this.hold(last);
      bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    } else if (bytes.length > this.maxLineBytes + 1) {
      this.skipping = true;
    }
    const skipped = this.skipping;
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
    if (skipped || bytes.length > this.maxLineBytes) return { number, problem: `the line is longer than ${this.maxLineBytes} bytes` };
    try {
      return { number, text: this.decoder.decode(bytes) };
    } catch {
      return { number, problem: "the line is not valid UTF-8" };
    }
  }
}

/** The lines of a byte stream (a request body, a file), read as they arrive. */
export async function* splitNdjsonLines(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, options: NdjsonSplitterOptions): AsyncGenerator<NdjsonLine> {
  const splitter = new NdjsonSplitter(options);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}
