/**
 * One media file, fetched safely and kept by content. A post's media URL is untrusted: it (or a redirect it
 * leads to) may point at the machine Skein runs on, never end, claim five gigabytes, serve a web page as a
 * photo or a gzip bomb. The GET itself is the core's one safe GET (`core/net`: https only but the demo's
 * origin, every address checked after DNS and each redirect, size and time limits, no decompression); here the
 * size limit is held on the bytes as they come, and the bytes' own type checked against the declared one.
 * Bytes go to a temporary file inside the media folder, hashed as they are written, and are renamed to their
 * SHA-256 name when whole; a file already there with that name is the same bytes, so the new copy is dropped
 * (stored once by content).
 *
 * Every outcome is a value: the file, or a reason in plain words (gone, refused, too large, timed out, wrong
 * type, failed, cancelled). Nothing throws for what a server does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_FETCH_POLICY, FetchStop, MB, safeGet, type Answer, type FailedFetch, type FetchPolicy } from '../net';
import { declaredMatches, EXTENSION, sniffMime, SNIFF_BYTES, type MediaMime } from './sniff';

export { DEFAULT_FETCH_POLICY, type FailedFetch, type FetchPolicy };

export interface KeptFile {
  ok: true;
  /** the URL asked for; `finalUrl` after redirects */
  url: string;
  finalUrl: string;
  status: number;
  sha256: string;
  size: number;
  mime: MediaMime;
  /** the file's name inside the media folder */
  name: string;
  /** false when the folder already had these bytes: nothing new was stored */
  stored: boolean;
}

export type FetchOutcome = KeptFile | FailedFetch;

/** the name a kept file has in the media folder: its hash and its type's extension */
const keptName = (sha256: string, mime: MediaMime): string => `${sha256}.${EXTENSION[mime]}`;

/** Fetches `url` into `dir` (the project's media folder, which must exist). */
export async function fetchMedia(
  url: string,
  dir: string,
  policy: FetchPolicy = DEFAULT_FETCH_POLICY,
  signal?: AbortSignal,
): Promise<FetchOutcome> {
  const out = await safeGet(
    url,
    policy,
    { accept: 'image/*, video/mp4', cancelled: 'the keeping was cancelled', gone: 'the file is gone', signal },
    (answer) => keep(answer, dir, policy),
  );
  if (!out.ok) return out;
  const { value, ...rest } = out;
  return { ...rest, ...value };
}

async function keep(
  answer: Answer,
  dir: string,
  policy: FetchPolicy,
): Promise<Omit<KeptFile, 'ok' | 'url' | 'finalUrl' | 'status'>> {
  const { res, touch, stopped, status } = answer;
  const declaredLength =
    res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
  const declaredType = res.headers['content-type'];
  const temp = join(dir, `.partial-${randomUUID()}`);
  const file = await open(temp, 'wx');
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  let mime: MediaMime | undefined;
  const sniff = () => {
    mime = sniffMime(head);
    if (!mime)
      throw new FetchStop(
        'wrong-type',
        `the bytes are not a photo or video (declared ${declaredType ?? 'nothing'})`,
        status,
      );
    if (!declaredMatches(declaredType, mime))
      throw new FetchStop('wrong-type', `the server said ${declaredType} but the bytes are ${mime}`, status);
  };
  let done = false;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      touch();
      size += chunk.length;
      if (size > policy.maxBytes)
        throw new FetchStop('too-large', `the file grew past the ${MB(policy.maxBytes)} limit`, status);
      if (!mime && head.length < SNIFF_BYTES) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) sniff();
      }
      hash.update(chunk);
      await file.write(chunk);
    }
    const why = stopped();
    if (why) throw why;
    if (!res.complete) throw new FetchStop('failed', 'the connection closed before the file was whole', status);
    if (declaredLength !== undefined && size !== declaredLength)
      throw new FetchStop('failed', 'the file ended before its declared length', status);
    if (!mime) sniff();
    await file.close();
    done = true;
    const sha256 = hash.digest('hex');
    const name = keptName(sha256, mime as MediaMime);
    const final = join(dir, name);
    const there = await stat(final).then(
      (s) => s.isFile(),
      () => false,
    );
    if (there) await rm(temp, { force: true });
    else await rename(temp, final);
    return { sha256, size, mime: mime as MediaMime, name, stored: !there };
  } catch (error) {
    if (!done) await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw stopped() ?? error;
  }
}
