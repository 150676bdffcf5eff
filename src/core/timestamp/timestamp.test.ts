/**
 * Trusted time for a keeping run, against the sandbox's stand-in authority: a token is kept beside the run's
 * manifest only when it is granted over the manifest's hash with the nonce sent and a signature that verifies;
 * an authority that answers a replayed nonce, another imprint, a tampered token or 503 is recorded with its
 * reason and the fallback asked; Debian's `openssl ts -verify` accepts what Skein kept.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import { TimeStampReq } from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../net';
import {
  askAuthority,
  checkToken,
  freshNonce,
  manifestEntries,
  manifestText,
  timestampQuery,
  timestampRun,
  type ManifestEntry,
  type TimestampRecord,
  type TimestampSettings,
} from './timestamp';

let sandbox: Sandbox;
let root: string;
let policy: FetchPolicy;
/** a local authority that changes each query before the sandbox signs it: how a dishonest one answers */
let liar: Server;
let liarUrl: string;
let lie: (req: TimeStampReq) => void = () => {};

const ENTRIES: ManifestEntry[] = [
  { sha256: 'b'.repeat(64), size: 20, url: 'https://video.example/b.mp4' },
  { sha256: 'a'.repeat(64), size: 10, url: 'https://pbs.example/a.jpg?name=orig' },
];

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 1, 12, 0, 0) });
  root = await mkdtemp(join(tmpdir(), 'skein-tsa-'));
  liar = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const query = TimeStampReq.fromBER(Uint8Array.from(Buffer.concat(chunks)).buffer);
      lie(query);
      void fetch(`${sandbox.baseUrl}/tsa`, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query' },
        body: Buffer.from(query.toSchema().toBER(false)),
      })
        .then(async (r) => Buffer.from(await r.arrayBuffer()))
        .then((reply) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply));
    });
  });
  await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r));
  liarUrl = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/tsa`;
  policy = {
    ...DEFAULT_FETCH_POLICY,
    trustedOrigins: [new URL(sandbox.baseUrl).origin, new URL(liarUrl).origin],
  };
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => liar.close(r));
  await rm(root, { recursive: true, force: true });
});

const settings = (authorities: string[]): TimestampSettings => ({
  authorities,
  noneReason: 'no timestamp authority is set in Settings, so no trusted time was asked for',
  project: 'study',
  policy,
});

function recorder() {
  const records: TimestampRecord[] = [];
  return { records, recordTimestamp: async (r: TimestampRecord) => void records.push(r) };
}

let n = 0;
const folderFor = () => join(root, `run-${++n}`);
const clock = () => Date.UTC(2026, 10, 29, 1, 30, 0);

describe('a run’s manifest', () => {
  it('is deterministic and sorted, names each file once, and reads back', () => {
    const text = manifestText('study', clock(), [...ENTRIES, ENTRIES[0] as ManifestEntry]);
    expect(text).toBe(manifestText('study', clock(), [...ENTRIES].reverse()));
    expect(text.split('\n').slice(0, 2)).toEqual(['# Skein media manifest', '# project: study']);
    expect(manifestEntries(text)).toEqual([ENTRIES[1], ENTRIES[0]]);
  });
});

describe('asking for trusted time', () => {
  it('keeps a granted token beside the manifest, with the authority’s time and serial recorded', async () => {
    const folder = folderFor();
    const store = recorder();
    const out = await timestampRun(ENTRIES, settings([`${sandbox.baseUrl}/tsa`]), store, folder, clock);
    expect(out).toMatchObject({
      authority: `${sandbox.baseUrl}/tsa`,
      files: 2,
      // the sandbox clock's time, not this machine's
      genTime: Date.UTC(2026, 10, 1, 12, 0, 0),
      reason: null,
    });
    expect(out.token).toMatch(/^timestamps\/20261129T013000Z-[0-9a-f]{12}\.tsr$/);
    const manifest = await readFile(join(folder, out.manifest));
    expect(createHash('sha256').update(manifest).digest('hex')).toBe(out.manifestSha256);
    expect(store.records).toEqual([
      expect.objectContaining({ status: 'granted', serial: out.serial, token: out.token, manifest: out.manifest }),
    ]);
    const check = await checkToken(await readFile(join(folder, out.token as string)), manifest);
    expect(check).toMatchObject({ ok: true, genTime: out.genTime });
  });

  it('asks the fallback when the first authority answers 503, and records both attempts', async () => {
    const store = recorder();
    const out = await timestampRun(
      ENTRIES,
      settings([`${sandbox.baseUrl}/tsa-down`, `${sandbox.baseUrl}/tsa`]),
      store,
      folderFor(),
      clock,
    );
    expect(out.authority).toBe(`${sandbox.baseUrl}/tsa`);
    expect(out.token).not.toBeNull();
    expect(store.records.map((r) => [r.authority, r.status, r.reason ?? null])).toEqual([
      [`${sandbox.baseUrl}/tsa-down`, 'failed', 'the authority is unavailable (it answered 503)'],
      [`${sandbox.baseUrl}/tsa`, 'granted', null],
    ]);
  });

  it('when every authority fails, keeps no token and says why, each attempt recorded', async () => {
    const folder = folderFor();
    const store = recorder();
    const out = await timestampRun(
      ENTRIES,
      settings([`${sandbox.baseUrl}/tsa-down`, 'https://127.0.0.1/tsa', 'http://tsa.example/tsa']),
      store,
      folder,
      clock,
    );
    expect(out).toMatchObject({ authority: null, token: null, genTime: null });
    expect(out.reason).toMatch(/^no trusted time was obtained \(.*503.*private or local address.*only https/);
    expect(store.records.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await readdir(join(folder, 'timestamps'))).filter((f) => f.endsWith('.tsr'))).toEqual([]);
  });

  it('with no authority set, writes the manifest and records plainly that none was asked', async () => {
    const store = recorder();
    const out = await timestampRun(ENTRIES, settings([]), store, folderFor(), clock);
    expect(out).toMatchObject({ token: null, reason: expect.stringMatching(/no trusted time was asked for/) });
    expect(store.records).toEqual([expect.objectContaining({ status: 'not-asked', authority: null })]);
  });

  it('never throws when the manifest cannot be written: the run keeps what it kept and says why there is no time', async () => {
    const store = recorder();
    // the area's folder is a file, so its timestamps/ folder cannot be made
    const notAFolder = folderFor();
    await writeFile(notAFolder, 'x');
    const out = await timestampRun(ENTRIES, settings([`${sandbox.baseUrl}/tsa`]), store, notAFolder, clock);
    expect(out).toMatchObject({ token: null, authority: null, files: ENTRIES.length });
    expect(out.reason).toMatch(/^the run's manifest could not be written \(.+\)$/);
    expect(store.records).toEqual([]);
  });

  it('refuses a validly signed answer with another nonce (a replay) and asks the fallback', async () => {
    lie = (q) => void (q.nonce = asn1js.Integer.fromBigInt((q.nonce?.toBigInt() ?? 0n) + 1n));
    const store = recorder();
    const out = await timestampRun(ENTRIES, settings([liarUrl, `${sandbox.baseUrl}/tsa`]), store, folderFor(), clock);
    lie = () => {};
    expect(store.records[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/nonce is not the one sent/),
    });
    expect(out.authority).toBe(`${sandbox.baseUrl}/tsa`);
  });

  it('refuses a validly signed answer over another imprint', async () => {
    lie = (q) => {
      const other = createHash('sha256').update('something else').digest();
      q.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: Uint8Array.from(other).buffer });
    };
    const store = recorder();
    const out = await timestampRun(ENTRIES, settings([liarUrl]), store, folderFor(), clock);
    lie = () => {};
    expect(out.token).toBeNull();
    expect(store.records[0]?.reason).toBe('the token is for other bytes than this manifest');
  });
});

describe('checking a token', () => {
  const data = Buffer.from(manifestText('study', clock(), ENTRIES));
  const digest = createHash('sha256').update(data).digest();

  async function reply(nonce: bigint): Promise<Buffer> {
    const asked = await askAuthority(`${sandbox.baseUrl}/tsa`, timestampQuery(digest, nonce), policy);
    if (!asked.ok) throw new Error(asked.reason);
    return Buffer.from(asked.reply);
  }

  it('accepts the answer to its own query, and refuses another nonce and other bytes', async () => {
    const nonce = freshNonce();
    const r = await reply(nonce);
    expect(await checkToken(r, data, nonce)).toMatchObject({ ok: true, nonce });
    expect(await checkToken(r, data, nonce + 1n)).toEqual({
      ok: false,
      reason: 'the answer’s nonce is not the one sent (it may be replayed)',
    });
    expect(await checkToken(r, Buffer.from('another manifest'))).toEqual({
      ok: false,
      reason: 'the token is for other bytes than this manifest',
    });
  });

  it('refuses a token whose time or signature was changed', async () => {
    const r = await reply(freshNonce());
    // the genTime inside the signed TSTInfo: 20261101120000Z becomes 20261101120001Z
    const at = r.indexOf(Buffer.from('20261101120000Z'));
    expect(at).toBeGreaterThan(0);
    const retimed = Buffer.from(r);
    retimed[at + 13] = 0x31;
    expect(await checkToken(retimed, data)).toEqual({
      ok: false,
      reason: 'the token’s signature does not verify against its certificate',
    });
    const resigned = Buffer.from(r);
    const sig = resigned.length - 10; // inside the signature, the reply's last field
    resigned[sig] = (resigned[sig] as number) ^ 0x01;
    expect((await checkToken(resigned, data)).ok).toBe(false);
    expect(await checkToken(Buffer.from('not a reply'), data)).toEqual({
      ok: false,
      reason: 'the answer is not a timestamp reply',
    });
  });

  it('never sends a query over plain http or to a private address', async () => {
    const q = timestampQuery(digest, 1n);
    const strict = { ...DEFAULT_FETCH_POLICY, trustedOrigins: [] };
    expect(await askAuthority('http://tsa.example/tsa', q, strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/only https/),
    });
    expect(await askAuthority(`${sandbox.baseUrl.replace('http:', 'https:')}/tsa`, q, strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/private or local address/),
    });
  });
});

/** why `openssl` cannot be run here, or null; in CI its absence is a failure (.ci/run installs it) */
function opensslMissing(): string | null {
  const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  if (!probe.error && probe.status === 0) return null;
  if (process.env.CI) throw new Error('openssl is missing: .ci/run installs it');
  return 'openssl is not installed here';
}

describe('a kept token, read by openssl', () => {
  const missing = opensslMissing();
  it.skipIf(missing !== null)(
    `verifies with openssl ts -verify against the sandbox's CA${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const folder = folderFor();
      const out = await timestampRun(ENTRIES, settings([`${sandbox.baseUrl}/tsa`]), recorder(), folder, clock);
      const ca = join(folder, 'ca.pem');
      await writeFile(ca, await (await fetch(`${sandbox.baseUrl}/tsa/certificate.pem`)).text());
      const manifest = join(folder, out.manifest);
      const token = join(folder, out.token as string);
      const verify = (data: string) =>
        spawnSync('openssl', ['ts', '-verify', '-data', data, '-in', token, '-CAfile', ca], { encoding: 'utf8' });
      const ok = verify(manifest);
      expect(ok.stdout + ok.stderr).toMatch(/Verification: OK/);
      expect(ok.status).toBe(0);
      // openssl reads the same time Skein recorded
      const text = execFileSync('openssl', ['ts', '-reply', '-in', token, '-text'], { encoding: 'utf8' });
      expect(text).toMatch(/Time stamp: Nov {2}1 12:00:00 2026 GMT/);
      // and refuses the token for a manifest changed by one byte
      const changed = join(folder, 'changed.manifest');
      const bytes = await readFile(manifest);
      bytes[bytes.length - 2] = (bytes[bytes.length - 2] as number) ^ 1;
      await writeFile(changed, bytes);
      const bad = verify(changed);
      expect(bad.status).not.toBe(0);
      expect(bad.stdout + bad.stderr).toMatch(/Verification: FAILED/);
    },
  );
});
