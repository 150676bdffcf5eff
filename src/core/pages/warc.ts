/**
 * A WARC 1.1 file written as pages are captured (warcio, Webrecorder's own library, so the records are the ones
 * ReplayWeb.page reads): a `warcinfo` record first, then per capture its `response` record and the `request`
 * that asked for it (`WARC-Concurrent-To` the response); a redirect is a capture of its own (its 3xx, no body).
 * Each record is its own gzip member, so an index can
 * point at one by offset and length. The file is hashed as it is written (a WACZ names its hash), and records
 * are appended one at a time, in the order captures finish.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { SentRequest } from '../net';

/** One page as it was fetched: what its two records keep. */
export interface Capture {
  /** the URL the post links to: the records' target, whatever address the bytes came from */
  url: string;
  /** when it was fetched */
  at: number;
  request: SentRequest;
  status: number;
  statusText: string;
  httpVersion: string;
  /** the response's headers as sent (their case kept) */
  headers: ReadonlyArray<readonly [string, string]>;
  body: Buffer;
}

/** Where a capture's response record is in the WARC. */
export interface RecordPlace {
  offset: number;
  length: number;
}

const WARC_1_1 = 'WARC/1.1';

/** headers that described the bytes on the wire, not the payload a record keeps (de-chunked, whole) */
const WIRE_ONLY = new Set(['transfer-encoding', 'content-length', 'connection', 'keep-alive']);

export class WarcWriter {
  private offset = 0;
  private readonly hash = createHash('sha256');
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: FileHandle) {}

  /** Starts a WARC at `path` (which must not exist) with its warcinfo record. */
  static async create(path: string, filename: string, at: number, info: Record<string, string>): Promise<WarcWriter> {
    const writer = new WarcWriter(await open(path, 'wx'));
    const record = WARCRecord.createWARCInfo(
      { filename, warcVersion: WARC_1_1, date: new Date(at).toISOString() },
      {
        format: 'WARC File Format 1.1',
        conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
        ...info,
      },
    );
    await writer.append(await WARCSerializer.serialize(record));
    return writer;
  }

  /** Appends a capture's response and request records; where its response record is. */
  capture(c: Capture): Promise<RecordPlace> {
    const work = this.tail.then(async () => {
      const date = new Date(c.at).toISOString();
      const target = new URL(c.url);
      const headers: Array<[string, string]> = c.headers
        .filter(([name]) => !WIRE_ONLY.has(name.toLowerCase()))
        .map(([name, value]) => [name, value]);
      headers.push(['Content-Length', String(c.body.length)]);
      const response = WARCRecord.create(
        {
          url: c.url,
          date,
          type: 'response',
          warcVersion: WARC_1_1,
          statusline: `HTTP/${c.httpVersion} ${c.status} ${c.statusText}`.trim(),
          httpHeaders: headers,
          keepHeadersCase: true,
        },
        [new Uint8Array(c.body.buffer, c.body.byteOffset, c.body.length)],
      );
      const place = await this.append(await WARCSerializer.serialize(response));
      const request = WARCRecord.create(
        {
          url: c.url,
          date,
          type: 'request',
          warcVersion: WARC_1_1,
          statusline: `${c.request.method} ${target.pathname}${target.search} HTTP/1.1`,
          // the request as sent, addressed to the linked URL's host (demo mode fetches it from the sandbox)
          httpHeaders: c.request.headers.map(([name, value]) => [name, name === 'Host' ? target.host : value]),
          keepHeadersCase: true,
          warcHeaders: { 'WARC-Concurrent-To': response.warcHeader('WARC-Record-ID') ?? '' },
        },
        [],
      );
      await this.append(await WARCSerializer.serialize(request));
      return place;
    });
    this.tail = work.catch(() => undefined);
    return work;
  }

  /** Closes the file: its SHA-256 and size. */
  async close(): Promise<{ sha256: string; size: number }> {
    await this.tail;
    await this.file.close();
    return { sha256: this.hash.digest('hex'), size: this.offset };
  }

  /** Closes the file after a failure (its bytes are not kept). */
  async abandon(): Promise<void> {
    await this.tail.catch(() => undefined);
    await this.file.close().catch(() => undefined);
  }

  private async append(record: Uint8Array): Promise<RecordPlace> {
    const member = gzipSync(record);
    const place = { offset: this.offset, length: member.length };
    await this.file.write(member);
    this.hash.update(member);
    this.offset += member.length;
    return place;
  }
}
