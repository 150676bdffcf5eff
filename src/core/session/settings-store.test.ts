import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../shared/api';
import {
  DEFAULT_CREDITS_PER_HOUR,
  DEFAULT_REQUESTS_PER_SECOND,
  UNCONFIRMED_BASE_URL,
  createSettingsStore,
} from './settings-store';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'skein-settings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('settings store', () => {
  it('starts in demo mode without a key and in live mode with one, until the user picks', () => {
    const s = createSettingsStore({ dir: tempDir() });
    expect(s.get(false)).toEqual({
      mode: 'demo',
      baseUrl: UNCONFIRMED_BASE_URL,
      requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND,
      creditsPerHour: DEFAULT_CREDITS_PER_HOUR,
      loadRemoteMedia: true,
      prices: DEFAULT_PRICES,
      persistKeyWithoutKeyring: false,
      // which authority sees the hashes of a project's files is the researcher's choice: none until set
      timestampAuthority: null,
      timestampFallback: null,
      // sending linked pages to a web archive tells it what the project links to: off until the researcher turns it on
      saveService: false,
      saveServiceUrl: 'https://web.archive.org/save/',
      saveServicePaceSeconds: 10,
      // evidence wants the best copy: no maximum until one is chosen
      maxVideoBitrate: null,
    });
    expect(s.get(true).mode).toBe('live');
    s.update({ mode: 'demo' }, true);
    expect(s.get(true).mode).toBe('demo');
    expect(s.modeChosen).toBe(true);
  });

  it('keeps a timestamp authority and its fallback, https only', () => {
    const s = createSettingsStore({ dir: tempDir() });
    s.update({ timestampAuthority: 'https://tsa.example/tsr', timestampFallback: 'https://tsa2.example/' }, true);
    expect(s.get(true)).toMatchObject({
      timestampAuthority: 'https://tsa.example/tsr',
      timestampFallback: 'https://tsa2.example/',
    });
    expect(() => s.update({ timestampAuthority: 'http://tsa.example/tsr' }, true)).toThrow();
    s.update({ timestampFallback: null }, true);
    expect(s.get(true).timestampFallback).toBeNull();
  });

  it('keeps the save service on, its https address and a pace no faster than the floor', () => {
    const s = createSettingsStore({ dir: tempDir() });
    s.update({ saveService: true, saveServiceUrl: 'https://archive.example/save/', saveServicePaceSeconds: 30 }, true);
    expect(s.get(true)).toMatchObject({
      saveService: true,
      saveServiceUrl: 'https://archive.example/save/',
      saveServicePaceSeconds: 30,
    });
    // a page cannot make Skein flood the service, nor send the links in clear text or to credentials
    expect(() => s.update({ saveServicePaceSeconds: 0.1 }, true)).toThrow();
    expect(() => s.update({ saveServiceUrl: 'http://archive.example/save/' }, true)).toThrow();
    expect(() => s.update({ saveServiceUrl: 'https://me:pw@archive.example/save/' }, true)).toThrow();
    expect(s.get(true).saveServicePaceSeconds).toBe(30);
  });

  it('keeps a largest video to keep, and forgets it again', () => {
    const dir = tempDir();
    createSettingsStore({ dir }).update({ maxVideoBitrate: 900_000 }, true);
    expect(createSettingsStore({ dir }).get(true).maxVideoBitrate).toBe(900_000);
    expect(() => createSettingsStore({ dir }).update({ maxVideoBitrate: -1 }, true)).toThrow();
    createSettingsStore({ dir }).update({ maxVideoBitrate: null }, true);
    expect(createSettingsStore({ dir }).get(true).maxVideoBitrate).toBeNull();
  });

  it('persists across restarts', () => {
    const dir = tempDir();
    createSettingsStore({ dir }).update(
      { baseUrl: 'https://api.provider.example/', requestsPerSecond: 3, prices: { ...DEFAULT_PRICES, perPost: 20 } },
      false,
    );
    const again = createSettingsStore({ dir }).get(false);
    expect(again.baseUrl).toBe('https://api.provider.example');
    expect(again.requestsPerSecond).toBe(3);
    expect(again.prices.perPost).toBe(20);
  });

  it('refuses invalid values and keeps the old ones', () => {
    const s = createSettingsStore({ dir: tempDir() });
    expect(() => s.update({ baseUrl: 'ftp://x' }, false)).toThrow();
    expect(() => s.update({ requestsPerSecond: 0 }, false)).toThrow();
    expect(() => s.update({ apiKey: 'x' } as never, false)).toThrow();
    expect(s.get(false).baseUrl).toBe(UNCONFIRMED_BASE_URL);
  });

  it('falls back to the default for one bad value in the file, and survives a corrupt file', () => {
    const dir = tempDir();
    const s = createSettingsStore({ dir });
    s.update({ requestsPerSecond: 5 }, false);
    writeFileSync(s.path!, JSON.stringify({ requestsPerSecond: -1, mode: 'live' }));
    expect(createSettingsStore({ dir }).get(false)).toMatchObject({
      requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND,
      mode: 'live',
    });
    writeFileSync(s.path!, '{not json');
    expect(createSettingsStore({ dir }).get(false).mode).toBe('demo');
    expect(readFileSync(s.path!, 'utf8')).toBeDefined();
  });

  it('writes back what a newer Skein kept that it does not read: its settings, its values, its prices', () => {
    const dir = tempDir();
    const path = createSettingsStore({ dir }).path!;
    const newer = {
      mode: 'offline',
      requestsPerSecond: 3,
      modelEndpoint: { url: 'https://models.example/v1', name: 'local' },
      prices: { ...DEFAULT_PRICES, perPost: 12, perSpace: 40 },
    };
    writeFileSync(path, JSON.stringify(newer));
    const s = createSettingsStore({ dir });
    // what it reads is in effect; what it does not falls back to its default here
    expect(s.get(true)).toMatchObject({
      mode: 'live',
      requestsPerSecond: 3,
      prices: { ...DEFAULT_PRICES, perPost: 12 },
    });
    s.update({ creditsPerHour: 50_000, prices: { ...DEFAULT_PRICES, perPost: 14 } }, true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      ...newer,
      creditsPerHour: 50_000,
      prices: { ...DEFAULT_PRICES, perPost: 14, perSpace: 40 },
    });
    // a value a person sets here replaces the one it could not read
    s.update({ mode: 'demo' }, true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ mode: 'demo', modelEndpoint: newer.modelEndpoint });
    expect(createSettingsStore({ dir }).get(true).mode).toBe('demo');
  });

  it('reads its file once and then answers from memory, its own updates included', () => {
    const dir = tempDir();
    const s = createSettingsStore({ dir });
    s.update({ requestsPerSecond: 5 }, false);
    expect(s.get(false).requestsPerSecond).toBe(5);
    // Skein is the file's only writer: an edit behind its back is seen at the next start
    writeFileSync(s.path!, JSON.stringify({ requestsPerSecond: 7 }));
    expect(s.get(false).requestsPerSecond).toBe(5);
    expect(createSettingsStore({ dir }).get(false).requestsPerSecond).toBe(7);
    s.update({ mode: 'live' }, false);
    expect(s.get(false)).toMatchObject({ mode: 'live', requestsPerSecond: 5 });
    expect(JSON.parse(readFileSync(s.path!, 'utf8'))).toMatchObject({ mode: 'live', requestsPerSecond: 5 });
  });
});
