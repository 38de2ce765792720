import { Transform, type TransformCallback } from 'node:stream';

/** The largest stdio MCP message served (the same bound as an HTTP request body). */
export const MAX_STDIO_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Bytes kept at each end of an oversized message to find its id: clients write it first or last. */
const ID_WINDOW = 4096;

const ID_VALUE = '(-?\\d+|"(?:[^"\\\\]|\\\\.){0,200}")';
const ID_AT_HEAD = new RegExp(`^\\s*\\{(?:\\s*"jsonrpc"\\s*:\\s*"[^"]*"\\s*,)?\\s*"id"\\s*:\\s*${ID_VALUE}`);
const ID_AT_TAIL = new RegExp(`[,{]\\s*"id"\\s*:\\s*${ID_VALUE}\\s*\\}\\s*$`);

/** The `id` of a JSON-RPC message from the first or last bytes of its line, or null when neither holds it. */
export function requestIdOf(head: Buffer, tail: Buffer = Buffer.alloc(0)): string | number | null {
  const match = ID_AT_HEAD.exec(head.toString('utf8')) ?? ID_AT_TAIL.exec(tail.toString('utf8'));
  if (!match) return null;
  return match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : Number(match[1]);
}

/**
 * Sits between stdin and the SDK's stdio transport and passes it whole lines only. A line over
 * `maxBytes` is never buffered whole: its bytes are dropped up to its newline and `onOversized`
 * gets its size and id, so serve answers it with a JSON-RPC error and goes on — the SDK transport
 * alone closes the session (and serve with it) when its read buffer overflows, saying nothing.
 */
export class StdioMessageGuard extends Transform {
  #line: Buffer[] = [];
  #lineBytes = 0;
  #head: Buffer | null = null;
  #tail: Buffer = Buffer.alloc(0);
  #dropping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onOversized: (bytes: number, id: string | number | null) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.#take(chunk.subarray(start, end), newline !== -1);
      start = end;
    }
    done();
  }

  #take(piece: Buffer, endsLine: boolean): void {
    this.#lineBytes += piece.length;
    if (!this.#dropping && this.#lineBytes > this.maxBytes) {
      this.#dropping = true;
      this.#head = Buffer.concat(this.#line).subarray(0, ID_WINDOW);
      if (this.#head.length < ID_WINDOW)
        this.#head = Buffer.concat([this.#head, piece.subarray(0, ID_WINDOW - this.#head.length)]);
      this.#line = [];
    }
    if (!this.#dropping) this.#line.push(piece);
    else this.#tail = Buffer.concat([this.#tail, piece]).subarray(-ID_WINDOW);
    if (!endsLine) return;
    if (this.#dropping) this.onOversized(this.#lineBytes, requestIdOf(this.#head ?? Buffer.alloc(0), this.#tail));
    else this.push(Buffer.concat(this.#line));
    this.#line = [];
    this.#lineBytes = 0;
    this.#head = null;
    this.#tail = Buffer.alloc(0);
    this.#dropping = false;
  }
}
