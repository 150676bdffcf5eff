/**
 * Trusted time for what a run kept (RFC 3161): media's keeping runs and the pages area's capture runs. After a
 * run, the files it kept are listed in a manifest (a plain text file, one sorted line per file: its SHA-256, size
 * and where it came from, under a header naming the project and the time), written into the area's folder's
 * `timestamps/`; a timestamp authority is asked for a token over the manifest's SHA-256 (a fresh nonce, its
 * certificate asked for), and a second one when the first fails. The answer is checked before it is kept beside
 * the manifest as `<stamp>.tsr`: granted, over the same imprint and nonce, its signature valid against the
 * certificate in the token, that certificate one for timestamps. Every attempt is recorded through the area's
 * store (its own table) with its authority, time and serial, or the reason it failed.
 *
 * Only the manifest's hash leaves the machine. The authority's address is untrusted network like a media URL:
 * https only (the demo sandbox's origin aside), every address checked (core/net), no redirect, size and time
 * limits. A token's check is one function (`checkToken`), used when it arrives and again by `tokenProblem`,
 * which each area's verify calls for every token it kept.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import {
  AlgorithmIdentifier,
  type Certificate,
  MessageImprint,
  PKIStatus,
  SignedData,
  TimeStampReq,
  TimeStampResp,
  TSTInfo,
  id_ContentType_SignedData,
  id_eContentType_TSTInfo,
} from 'pkijs';
import { checkTarget, FetchStop as Stop, plainNetworkError, send, type FetchPolicy } from '../net';

/** One request for trusted time over a run's manifest, or the note that none was made (an area's table row). */
export interface TimestampRecord {
  /** the manifest's path inside the area's folder, and its SHA-256 */
  manifest: string;
  manifestSha256: string;
  /** the authority asked; null when none was (none is set) */
  authority: string | null;
  at: number;
  status: 'granted' | 'failed' | 'not-asked';
  /** a granted token's time, serial (hex), path inside the area's folder and SHA-256 */
  genTime?: number | null;
  serial?: string | null;
  token?: string | null;
  tokenSha256?: string | null;
  /** why it failed or was not asked, in plain words */
  reason?: string | null;
}

/** A kept token, as recorded: what `tokenProblem` checks again. */
export interface KeptToken {
  manifest: string;
  manifestSha256: string;
  authority: string;
  genTime: number;
  serial: string;
  token: string;
  tokenSha256: string;
}

/** the area folder's subfolder for manifests and their tokens */
const TIMESTAMPS_DIR = 'timestamps';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const EXT_KEY_USAGE = '2.5.29.37';
const QUERY = 'application/timestamp-query';
const REPLY = 'application/timestamp-reply';
/** a reply is a few kilobytes (a token and a certificate or two); anything larger is not one */
const REPLY_BYTES = 256 * 1024;
const ASK_TOTAL_MS = 30_000;
const ASK_IDLE_MS = 15_000;

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** one file a run kept */
export interface ManifestEntry {
  sha256: string;
  size: number;
  /** where it came from (a media file's URL), or the file's name (a WACZ) */
  url: string;
}

/** What a manifest lists, named in its header: its title, and what each line is. */
export interface ManifestKind {
  title: string;
  lines: string;
}

/** a keeping run's media files (the first kind, and the words every media manifest already carries) */
const MEDIA_MANIFEST: ManifestKind = {
  title: 'Skein media manifest',
  lines: 'one line per file kept in this run: its SHA-256, its size in bytes, the address it was fetched from',
};

/** a URL on one line, whatever a post said: white space (never part of a parsed URL) percent-encoded */
const oneLine = (s: string) => s.replace(/\s/g, (c) => encodeURIComponent(c));

/** The manifest of a run: deterministic for the same project, time and files (sorted, each once). */
export function manifestText(
  project: string,
  at: number,
  entries: readonly ManifestEntry[],
  kind: ManifestKind = MEDIA_MANIFEST,
): string {
  const lines = [...new Set(entries.map((e) => `${e.sha256}  ${e.size}  ${oneLine(e.url)}`))].sort();
  return [
    `# ${kind.title}`,
    `# project: ${project.replace(/[\r\n]+/g, ' ')}`,
    `# written: ${new Date(at).toISOString()}`,
    `# ${kind.lines}`,
    ...lines,
    '',
  ].join('\n');
}

/** The files a manifest names (its lines that are not the header). */
export function manifestEntries(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(\d+) {2}(.+)$/.exec(line);
    if (m) out.push({ sha256: m[1] as string, size: Number(m[2]), url: m[3] as string });
  }
  return out;
}

/** A TimeStampReq (DER) for a SHA-256 digest, with a nonce and the authority's certificate asked for. */
export function timestampQuery(digest: Uint8Array, nonce: bigint): Uint8Array {
  const req = new TimeStampReq({
    version: 1,
    messageImprint: new MessageImprint({
      hashAlgorithm: new AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: Uint8Array.from(digest).buffer }),
    }),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
  });
  return new Uint8Array(req.toSchema().toBER(false));
}

/** a fresh positive 64-bit nonce */
export function freshNonce(): bigint {
  const bytes = randomBytes(8);
  bytes[0] = (bytes[0] as number) & 0x7f;
  return BigInt(`0x${bytes.toString('hex')}`);
}

export type TokenCheck =
  { ok: true; genTime: number; serial: string; policy: string; nonce: bigint | null } | { ok: false; reason: string };

const STATUS_WORDS: Record<number, string> = {
  [PKIStatus.rejection]: 'refused the request',
  [PKIStatus.waiting]: 'has not answered yet (waiting)',
  [PKIStatus.revocationWarning]: 'warns its certificate is about to be revoked',
  [PKIStatus.revocationNotification]: 'says its certificate was revoked',
};

const toBuffer = (u: Uint8Array): ArrayBuffer => Uint8Array.from(u).buffer;

/**
 * Checks a timestamp reply (a TimeStampResp, DER, as an authority sends it and Skein keeps it) against the
 * bytes it is meant to be over and, when one was sent, the nonce: granted, a token over a TSTInfo whose imprint
 * is the SHA-256 of `data`, the same nonce, a signature that verifies against the signer's certificate in the
 * token, that certificate marked for timestamping. Every failure is a reason in plain words, never a throw.
 */
export async function checkToken(reply: Uint8Array, data: Uint8Array, nonce?: bigint): Promise<TokenCheck> {
  const no = (reason: string): TokenCheck => ({ ok: false, reason });
  let resp: TimeStampResp;
  try {
    resp = TimeStampResp.fromBER(toBuffer(reply));
  } catch {
    return no('the answer is not a timestamp reply');
  }
  const status = resp.status.status;
  if (status !== PKIStatus.granted && status !== PKIStatus.grantedWithMods) {
    const said = (resp.status.statusStrings ?? []).map((s) => s.valueBlock.value).join('; ');
    return no(`the authority ${STATUS_WORDS[status] ?? `answered status ${status}`}${said ? `: ${said}` : ''}`);
  }
  const token = resp.timeStampToken;
  if (!token || token.contentType !== id_ContentType_SignedData) return no('the answer carries no signed token');
  let signed: SignedData;
  let tst: TSTInfo;
  try {
    signed = new SignedData({ schema: token.content });
    if (signed.encapContentInfo.eContentType !== id_eContentType_TSTInfo || !signed.encapContentInfo.eContent)
      return no('the token is not a timestamp');
    const content = signed.encapContentInfo.eContent.getValue();
    tst = TSTInfo.fromBER(content);
    // as a plain octet string again: pkijs's verify reads the TSTInfo from its bytes, which a decoded one hides
    signed.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: content });
  } catch {
    return no('the token cannot be read');
  }
  if (tst.messageImprint.hashAlgorithm.algorithmId !== SHA256) return no('the token is over another hash than SHA-256');
  const imprint = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView).toString('hex');
  if (imprint !== sha256(data)) return no('the token is for other bytes than this manifest');
  const got = tst.nonce ? tst.nonce.toBigInt() : null;
  if (nonce !== undefined && got !== nonce) return no('the answer’s nonce is not the one sent (it may be replayed)');
  let verified: boolean | null | undefined;
  let signer: Certificate | null | undefined;
  try {
    const result = await signed.verify({ signer: 0, data: toBuffer(data), extendedMode: true, checkChain: false });
    verified = result.signatureVerified;
    signer = result.signerCertificate;
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code === 3) return no('the token carries no certificate to check its signature against');
    return no('the token’s signature does not verify against its certificate');
  }
  if (!verified || !signer) return no('the token’s signature does not verify against its certificate');
  const eku = signer.extensions?.find((e) => e.extnID === EXT_KEY_USAGE);
  const purposes = (eku?.parsedValue as { keyPurposes?: string[] } | undefined)?.keyPurposes ?? [];
  if (!eku?.critical || !purposes.includes(TIME_STAMPING))
    return no('the token was signed with a certificate that is not for timestamps');
  return {
    ok: true,
    genTime: tst.genTime.getTime(),
    serial: Buffer.from(tst.serialNumber.valueBlock.valueHexView).toString('hex'),
    policy: tst.policy,
    nonce: got,
  };
}

/** One query to one authority; its reply's bytes, or why there are none, in plain words. */
export async function askAuthority(
  url: string,
  query: Uint8Array,
  policy: FetchPolicy,
): Promise<{ ok: true; reply: Uint8Array } | { ok: false; reason: string }> {
  const ac = new AbortController();
  let why: Stop | undefined;
  const stop = (s: Stop) => {
    why ??= s;
    ac.abort(s);
  };
  const total = setTimeout(() => stop(new Stop('timed-out', 'the authority took too long to answer')), ASK_TOTAL_MS);
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop(new Stop('timed-out', 'the authority stopped answering')), ASK_IDLE_MS);
  };
  try {
    touch();
    const target = await checkTarget(url, policy);
    const res = await send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': QUERY, accept: REPLY, 'accept-encoding': 'identity', 'user-agent': 'Skein' },
        body: query,
      },
      ac.signal,
      touch,
    );
    const status = res.statusCode ?? 0;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (status !== 200 || type !== REPLY || encoding !== 'identity') {
      res.destroy();
      if (status === 503) throw new Stop('failed', 'the authority is unavailable (it answered 503)', status);
      if (status >= 300 && status < 400) throw new Stop('refused', 'the authority redirected, which is not followed');
      if (status !== 200) throw new Stop('failed', `the authority answered ${status}`, status);
      if (encoding !== 'identity') throw new Stop('wrong-type', 'the authority sent a compressed answer');
      throw new Stop('wrong-type', 'the authority answered with something other than a timestamp reply');
    }
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > REPLY_BYTES) {
      res.destroy();
      throw new Stop('too-large', 'the authority’s answer is too large to be a timestamp reply');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      touch();
      size += chunk.length;
      if (size > REPLY_BYTES) {
        res.destroy();
        throw new Stop('too-large', 'the authority’s answer is too large to be a timestamp reply');
      }
      chunks.push(chunk);
    }
    if (why) throw why;
    if (!res.complete) throw new Stop('failed', 'the connection closed before the answer was whole');
    return { ok: true, reply: Buffer.concat(chunks) };
  } catch (error) {
    const s = why ?? (error instanceof Stop ? error : new Stop('failed', plainNetworkError(error)));
    return { ok: false, reason: s.message };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}

/** Where the run's trusted time comes from: the authorities to ask, in order, or why none is. */
export interface TimestampSettings {
  /** the authority, then its fallback; empty when none is set */
  authorities: readonly string[];
  /** why no trusted time is asked for when `authorities` is empty, in plain words */
  noneReason: string;
  /** the project's name, for the manifest's header */
  project: string;
  /** the reach of a request (https only, public addresses, the sandbox's origin trusted) */
  policy: FetchPolicy;
  /** what the manifest lists (media's files when not said) */
  kind?: ManifestKind;
}

/** How a run's trusted time ended: the token kept (its authority, time, serial), or why there is none. */
export interface TimestampOutcome {
  /** the manifest's path inside the area's folder */
  manifest: string;
  manifestSha256: string;
  /** files the manifest names */
  files: number;
  /** the authority that granted the kept token, or null */
  authority: string | null;
  genTime: number | null;
  serial: string | null;
  /** the token's path inside the area's folder, or null */
  token: string | null;
  /** why no token was kept, in plain words; null when one was */
  reason: string | null;
}

async function writeWhole(path: string, bytes: Uint8Array | string): Promise<void> {
  const temp = `${path}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** the stamp a run's files are named by: its time to the second and the manifest's hash, so two never meet */
const stampOf = (at: number, hash: string) =>
  `${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${hash.slice(0, 12)}`;

/**
 * Writes the run's manifest and asks for a token over it (each authority in turn until one is granted and
 * checks), keeping the token beside it; every attempt, or the reason none was made, recorded. It never throws:
 * what the run kept stays kept, and a manifest that could not be written (a full disk) is the reason given.
 */
export function timestampRun(
  entries: readonly ManifestEntry[],
  settings: TimestampSettings,
  store: { recordTimestamp: (r: TimestampRecord) => Promise<void> },
  /** the area's folder (the project's media or pages folder): the manifest and token go in its `timestamps/` */
  folder: string,
  now: () => number,
): Promise<TimestampOutcome> {
  return stampRun(entries, settings, store, folder, now).catch((e: unknown): TimestampOutcome => ({
    manifest: '',
    manifestSha256: '',
    files: entries.length,
    authority: null,
    genTime: null,
    serial: null,
    token: null,
    reason: `the run's manifest could not be written (${e instanceof Error ? e.message : String(e)})`,
  }));
}

async function stampRun(
  ...[entries, settings, store, folder, now]: Parameters<typeof timestampRun>
): Promise<TimestampOutcome> {
  const at = now();
  const text = manifestText(settings.project, at, entries, settings.kind);
  const hash = sha256(text);
  const stamp = stampOf(at, hash);
  await mkdir(join(folder, TIMESTAMPS_DIR), { recursive: true });
  const manifest = `${TIMESTAMPS_DIR}/${stamp}.manifest`;
  await writeWhole(join(folder, manifest), text);
  const out: TimestampOutcome = {
    manifest,
    manifestSha256: hash,
    files: manifestEntries(text).length,
    authority: null,
    genTime: null,
    serial: null,
    token: null,
    reason: null,
  };
  const base = { manifest, manifestSha256: hash };
  if (settings.authorities.length === 0) {
    out.reason = settings.noneReason;
    await store.recordTimestamp({ ...base, authority: null, at, status: 'not-asked', reason: out.reason });
    return out;
  }
  const reasons: string[] = [];
  for (const authority of settings.authorities) {
    const nonce = freshNonce();
    const asked = await askAuthority(authority, timestampQuery(Buffer.from(hash, 'hex'), nonce), settings.policy);
    const checked = asked.ok ? await checkToken(asked.reply, Buffer.from(text), nonce) : asked;
    const when = now();
    if (!checked.ok || !asked.ok) {
      const reason = checked.ok ? 'the answer could not be read' : checked.reason;
      reasons.push(`${hostOf(authority)}: ${reason}`);
      await store.recordTimestamp({ ...base, authority, at: when, status: 'failed', reason });
      continue;
    }
    const token = `${TIMESTAMPS_DIR}/${stamp}.tsr`;
    await writeWhole(join(folder, token), asked.reply);
    await store.recordTimestamp({
      ...base,
      authority,
      at: when,
      status: 'granted',
      genTime: checked.genTime,
      serial: checked.serial,
      token,
      tokenSha256: sha256(asked.reply),
    });
    return { ...out, authority, genTime: checked.genTime, serial: checked.serial, token };
  }
  out.reason = `no trusted time was obtained (${reasons.join('; ')})`;
  return out;
}

/** an authority's host, as a person would name it */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const readOrNull = (path: string): Promise<Buffer | null> =>
  readFile(path).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  });

/**
 * What is wrong with a kept token, in plain words, or null when it still proves its manifest: the manifest and
 * the token unchanged (their recorded hashes), the token verifying, and every file the manifest names in
 * `intact` (the SHA-256s the area's own check found unchanged).
 */
async function tokenProblem(t: KeptToken, folder: string, intact: ReadonlySet<string>): Promise<string | null> {
  const manifest = await readOrNull(join(folder, t.manifest));
  if (!manifest) return 'its manifest is missing';
  if (sha256(manifest) !== t.manifestSha256) return 'its manifest changed after it was timestamped';
  const token = await readOrNull(join(folder, t.token));
  if (!token) return 'the token is missing';
  if (sha256(token) !== t.tokenSha256) return 'the token changed after it was kept';
  const check = await checkToken(token, manifest);
  if (!check.ok) return `the token no longer verifies: ${check.reason}`;
  const gone = manifestEntries(manifest.toString('utf8')).filter((e) => !intact.has(e.sha256));
  if (gone.length > 0)
    return `${gone.length} of the files it names ${gone.length === 1 ? 'is' : 'are'} no longer kept unchanged`;
  return null;
}

/** A kept timestamp token that no longer proves its manifest, and why, in plain words. */
export interface TokenProblem {
  /** the manifest's and the token's paths inside the area's folder */
  manifest: string;
  token: string;
  authority: string;
  genTime: number;
  problem: string;
}

/**
 * Every kept token checked again (`tokenProblem`), the event loop given back between them: how many were checked,
 * and the first `limit` that no longer prove their manifest.
 */
export async function checkTokens(
  tokens: readonly KeptToken[],
  folder: string,
  intact: ReadonlySet<string>,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ checked: number; problems: TokenProblem[] }> {
  const problems: TokenProblem[] = [];
  for (const t of tokens) {
    const problem = await tokenProblem(t, folder, intact);
    if (problem && problems.length < limit)
      problems.push({ manifest: t.manifest, token: t.token, authority: t.authority, genTime: t.genTime, problem });
    await yieldToLoop();
  }
  return { checked: tokens.length, problems };
}
