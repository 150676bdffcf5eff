import { describe, expect, it } from 'vitest';
import {
  checkAuthorityUrl,
  checkBaseUrl,
  checkRequestsPerSecond,
  checkSavePace,
  checkSaveServiceUrl,
} from './connection-form';

describe('connection fields', () => {
  it('accepts web addresses and trims a trailing slash', () => {
    expect(checkBaseUrl(' https://api.example.com/ ')).toEqual({ ok: true, value: 'https://api.example.com' });
    expect(checkBaseUrl('http://127.0.0.1:8080')).toEqual({ ok: true, value: 'http://127.0.0.1:8080' });
    for (const bad of ['', 'api.example.com', 'ftp://x.example', 'javascript:alert(1)'])
      expect(checkBaseUrl(bad).ok).toBe(false);
  });
  it('accepts a pace above 0 and at most 50 per second', () => {
    expect(checkRequestsPerSecond('0.2')).toEqual({ ok: true, value: 0.2 });
    expect(checkRequestsPerSecond('20')).toEqual({ ok: true, value: 20 });
    for (const bad of ['0', '51', '-1', 'fast', '']) expect(checkRequestsPerSecond(bad).ok).toBe(false);
  });
});

describe('a timestamp authority’s address', () => {
  it('is https only, and empty clears it', () => {
    expect(checkAuthorityUrl(' https://tsa.example.org/tsr ')).toEqual({
      ok: true,
      value: 'https://tsa.example.org/tsr',
    });
    expect(checkAuthorityUrl('')).toEqual({ ok: true, value: null });
    expect(checkAuthorityUrl('http://tsa.example.org/tsr')).toMatchObject({ ok: false });
    expect(checkAuthorityUrl('https://user:pw@tsa.example.org/')).toMatchObject({ ok: false });
    expect(checkAuthorityUrl('tsa.example.org')).toMatchObject({ ok: false });
  });
});

describe('a web archive save service', () => {
  it('is https only at an address, at a pace no faster than the floor', () => {
    expect(checkSaveServiceUrl(' https://web.archive.org/save/ ')).toEqual({
      ok: true,
      value: 'https://web.archive.org/save/',
    });
    for (const bad of ['', 'http://web.archive.org/save/', 'https://me:pw@archive.example/', 'archive.example'])
      expect(checkSaveServiceUrl(bad).ok).toBe(false);
    expect(checkSavePace('10')).toEqual({ ok: true, value: 10 });
    expect(checkSavePace('1.5')).toEqual({ ok: true, value: 1.5 });
    for (const bad of ['0', '0.5', '3601', 'soon', '']) expect(checkSavePace(bad).ok).toBe(false);
  });
});
