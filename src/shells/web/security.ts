/**
 * The browser shell's gate. A local web server can be reached by every page the
 * user visits, so every request must show three things before it gets anything:
 * - its Host header is exactly the bound host:port (a DNS-rebound name is refused);
 * - it carries the per-run secret, as the HttpOnly, SameSite=Strict cookie the
 *   printed URL set (compared in constant time);
 * - a bridge call also comes from the shell's own Origin (other local ports are
 *   the same *site* for cookies, so the cookie alone is not enough).
 * Pure functions over headers; the server (server.ts) applies them.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** 256 random bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Equal strings, in time that does not depend on where they differ (hashes first: equal lengths). */
export function secretsEqual(given: string | null | undefined, secret: string): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 512) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** `host:port` as browsers write it in Host and Origin (IPv6 in brackets). */
function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** Cookies are per host, not per port: the name carries the port so two shells do not overwrite each other. */
export function cookieName(port: number): string {
  return `skein-shell-${port}`;
}

function sessionCookie(port: number, secret: string): string {
  return `${cookieName(port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The value of one cookie in a Cookie header (first one wins), or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Loopback addresses and `localhost`: the only hosts the shell binds to unless told otherwise. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

export type GateVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export interface GateRequest {
  host: string | undefined;
  cookie: string | undefined;
  origin: string | undefined;
}

export interface Gate {
  /** `http://host:port`, the only Origin a bridge call may come from */
  readonly origin: string;
  /** the Host header names the bound host:port */
  hostOk: (host: string | undefined) => boolean;
  /** Host header and secret cookie: every request */
  check: (req: GateRequest) => GateVerdict;
  /** the above, plus the caller's Origin must be the shell's own: every bridge request */
  checkBridge: (req: GateRequest) => GateVerdict;
  /** the secret of the printed URL, exchanged once for the cookie */
  checkSecret: (given: string | null) => boolean;
  cookie: () => string;
}

export function createGate(options: { host: string; port: number; secret: string }): Gate {
  const expectedHost = hostPort(options.host, options.port);
  const origin = `http://${expectedHost}`;
  const name = cookieName(options.port);
  const check = (req: GateRequest): GateVerdict => {
    if (req.host !== expectedHost) return { ok: false, status: 403, reason: 'wrong host' };
    if (!secretsEqual(readCookie(req.cookie, name), options.secret))
      return { ok: false, status: 401, reason: 'no session' };
    return { ok: true };
  };
  return {
    origin,
    check,
    checkBridge(req) {
      const first = check(req);
      if (!first.ok) return first;
      if (req.origin !== origin) return { ok: false, status: 403, reason: 'wrong origin' };
      return first;
    },
    hostOk: (host) => host === expectedHost,
    checkSecret: (given) => secretsEqual(given, options.secret),
    cookie: () => sessionCookie(options.port, options.secret),
  };
}
