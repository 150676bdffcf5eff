/**
 * Opaque paging cursors: base64url of (version, offset, hop) plus a MAC bound
 * to the world seed, the operation and every other query parameter. A cursor
 * that was edited, or is replayed against another query, fails the MAC and
 * the request answers 422 (`loc: ["query", "cursor"]`).
 *
 * `hop` only distinguishes cursors that point at the same offset (the
 * empty-page quirk hands out a fresh cursor for the position it skipped).
 */
import { createHmac } from 'node:crypto';

const VERSION = 1;
const MAC_BYTES = 8;
const SIZE = 1 + 4 + 1 + MAC_BYTES;

export interface CursorPosition {
  offset: number;
  hop: number;
}

export class CursorCodec {
  private readonly key: string;

  constructor(seed: number) {
    this.key = `skein-sandbox-cursor:${seed}`;
  }

  encode(scope: string, pos: CursorPosition): string {
    const buf = Buffer.alloc(SIZE);
    buf.writeUInt8(VERSION, 0);
    buf.writeUInt32BE(pos.offset, 1);
    buf.writeUInt8(pos.hop & 0xff, 5);
    this.mac(scope, buf.subarray(0, 6)).copy(buf, 6);
    return buf.toString('base64url');
  }

  /** the position, or undefined when the cursor is not one of ours for this query */
  decode(scope: string, cursor: string): CursorPosition | undefined {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const buf = Buffer.from(cursor, 'base64url');
    if (buf.length !== SIZE || buf.readUInt8(0) !== VERSION) return undefined;
    if (!this.mac(scope, buf.subarray(0, 6)).equals(buf.subarray(6))) return undefined;
    return { offset: buf.readUInt32BE(1), hop: buf.readUInt8(5) };
  }

  private mac(scope: string, head: Buffer): Buffer {
    return createHmac('sha256', this.key).update(scope).update(head).digest().subarray(0, MAC_BYTES);
  }
}

/** The query a cursor is bound to: operation + sorted params, cursor excluded. */
export function cursorScope(operation: string, params: Record<string, unknown>): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'cursor' && params[k] !== undefined)
    .sort();
  return `${operation}?${keys.map((k) => `${k}=${String(params[k])}`).join('&')}`;
}
