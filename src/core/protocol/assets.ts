/**
 * How the built renderer is served, free of Electron: the Content Security
 * Policy, the security headers, and the URL path → file resolver that refuses
 * to leave the renderer folder. Electron's `skein://app/` handler and the browser
 * shell (src/shells/web, which the e2e host runs) both use this module, so
 * both shells and the tests run under the same policy.
 */
import { readFile, realpath } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

export const APP_SCHEME = 'skein';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Where images and media may come from: `https:` unless the user turned
 * remote media off, and the running demo sandbox's exact origin — never any
 * local port (a hostile server's media URLs must not make the page hit local
 * services).
 */
export interface MediaPolicy {
  remote: boolean;
  /** exact origins, e.g. the demo sandbox's `http://127.0.0.1:PORT` */
  localOrigins: readonly string[];
}

const EXACT_LOCAL_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/**
 * No inline script, no eval, nothing loaded from elsewhere except images and
 * media (see MediaPolicy). Data reaches the renderer only through the bridge,
 * so connect-src is 'self'.
 */
export function contentSecurityPolicy(media: MediaPolicy = { remote: true, localOrigins: [] }): string {
  const sources = [
    ...(media.remote ? ['https:'] : []),
    ...media.localOrigins.filter((o) => EXACT_LOCAL_ORIGIN.test(o)),
  ].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${sources ? ` ${sources}` : ''}`,
    `media-src 'self' blob:${sources ? ` ${sources}` : ''}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The policy as a `<meta>` in index.html, for where no header is applied. A meta cannot know the demo
 * sandbox's port, so it allows any loopback port for images and media; where the header is served too
 * (the app protocol, the browser shell) both apply, and the header's exact origin is what holds.
 * `frame-ancestors` has no effect in a meta and is left out.
 */
export function metaContentSecurityPolicy(): string {
  const loopback = ' http://127.0.0.1:* http://localhost:*';
  return contentSecurityPolicy()
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors'))
    .map((directive) =>
      directive.startsWith('img-src') || directive.startsWith('media-src') ? directive + loopback : directive,
    )
    .join('; ');
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), bluetooth=()',
});

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

function mimeType(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that a URL path names, or null when the path is
 * malformed or points outside `root` (`..`, encoded `%2e%2e`, `%2f`,
 * backslashes, NUL, absolute or drive paths). `/` is `index.html`; a path
 * without an extension is an in-app route and also gets `index.html`.
 */
export function resolveAssetPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || /^\/?[a-zA-Z]:/.test(decoded)) return null;
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return null;
  if (segments.length === 0 || extname(segments[segments.length - 1] ?? '') === '')
    segments.splice(0, segments.length, 'index.html');
  const base = resolve(root);
  const file = resolve(base, ...segments);
  const rel = relative(base, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null;
  return file;
}

export interface AssetResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | string;
}

/** Reads the asset a URL path names, with the security headers; 404 for anything else. */
export async function serveAsset(root: string, urlPath: string, media?: MediaPolicy): Promise<AssetResponse> {
  const security = media
    ? { ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(media) }
    : SECURITY_HEADERS;
  const notFound: AssetResponse = {
    status: 404,
    headers: { ...security, 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'Not found',
  };
  const file = resolveAssetPath(root, urlPath);
  if (!file) return notFound;
  try {
    // A symlink inside the folder must not lead out of it either.
    const [real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
    if (!real.startsWith(realRoot + sep)) return notFound;
    const body = await readFile(real);
    return {
      status: 200,
      headers: { ...security, 'Content-Type': mimeType(real), 'Cache-Control': 'no-cache' },
      body,
    };
  } catch {
    return notFound;
  }
}
