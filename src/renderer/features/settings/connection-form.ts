/** Validation of the connection fields (base URL, requests per second), with the bridge's own schema. */
import { SAVE_PACE_FLOOR_SECONDS, Settings } from '../../../shared/ipc/settings';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkBaseUrl(input: string): Checked<string> {
  const text = input.trim().replace(/\/+$/, '');
  const r = Settings.shape.baseUrl.safeParse(text);
  return r.success
    ? { ok: true, value: r.data }
    : {
        ok: false,
        message:
          'Enter an https:// address, like https://api.example.com (http:// only for this computer: localhost, 127.0.0.1).',
      };
}

export function checkRequestsPerSecond(input: string): Checked<number> {
  const text = input.trim();
  const n = /^\d+(?:\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  const r = Settings.shape.requestsPerSecond.safeParse(n);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, message: 'Requests per second is a number above 0 and at most 50 (0.2 means one every 5 s).' };
}

/** A timestamp authority's address: https only; empty means none (the setting cleared). */
export function checkAuthorityUrl(input: string): Checked<string | null> {
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  const r = Settings.shape.timestampAuthority.safeParse(text);
  return r.success && r.data !== null
    ? { ok: true, value: r.data }
    : {
        ok: false,
        message: 'Enter the authority’s https:// address, like https://tsa.example.org/tsr, or leave it empty.',
      };
}

/** A web archive save service's address: https only (the URL to save is appended to it). */
export function checkSaveServiceUrl(input: string): Checked<string> {
  const r = Settings.shape.saveServiceUrl.safeParse(input.trim());
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, message: 'Enter the save service’s https:// address, like https://web.archive.org/save/.' };
}

/** The save service's pace: whole or decimal seconds, from the floor to an hour. */
export function checkSavePace(input: string): Checked<number> {
  const text = input.trim();
  const n = /^\d+(?:\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  const r = Settings.shape.saveServicePaceSeconds.safeParse(n);
  return r.success
    ? { ok: true, value: r.data }
    : {
        ok: false,
        message: `Seconds between two requests: at least ${SAVE_PACE_FLOOR_SECONDS}, at most 3600.`,
      };
}
