/**
 * A small web for the posts' links. The world's posts link to pages on made-up domains (`entities.urls[]`),
 * which demo mode cannot reach; the sandbox answers for them at `/web/<host>/<path>`, so keeping linked pages
 * works offline and tests can count what was fetched. Each page is a pure function of (seed, host, path): a
 * title, a paragraph, an image (at `/media/img-<n>.png` on the same host: one of the sandbox's own photos) and a
 * few links, or one of the ways the real web goes wrong — gone (404), moved to another page of the small web, a
 * redirect to this machine (`http://127.0.0.1/`, which a safe fetcher must refuse), or slow to answer.
 */
import { hash32, Rng } from './random';

export type WebAnswer =
  | { kind: 'page'; html: string }
  | { kind: 'slow'; html: string; delayMs: number }
  | { kind: 'gone' }
  | { kind: 'moved'; location: string }
  | { kind: 'inner'; location: string }
  | { kind: 'image'; id: string };

export type WebKind = WebAnswer['kind'];

/** how long a slow page waits before it answers */
export const SLOW_MS = 1_500;

/** where a page that moved now is: always a page, on the same host */
const MOVED = 'moved/';

const WORDS = (
  'river archive signal harbour lantern meadow circuit garden ledger compass orchard beacon quarry atlas thread ' +
  'window market summit canvas engine station letter island bridge forest studio season column pattern village'
).split(' ');

/** a page's image, at `https://<host>/media/img-<n>.png`: the sandbox's own photo of that id */
const IMAGE = /^media\/img-(\d{1,20})\.png$/;

/** which way a URL of the small web answers (most are pages) */
export function webKind(seed: number, host: string, path: string): WebKind {
  if (IMAGE.test(path)) return 'image';
  if (path.startsWith(MOVED)) return 'page';
  const r = hash32(seed, 'web', host, path) % 100;
  return r < 8 ? 'gone' : r < 14 ? 'moved' : r < 19 ? 'inner' : r < 24 ? 'slow' : 'page';
}

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The page at `https://<host>/<path>` as HTML: the same bytes for the same seed and URL. */
export function webPage(seed: number, host: string, path: string): string {
  const rng = new Rng(seed, 'web-page', host, path);
  const words = (n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
  const title = capitalise(words(3 + rng.int(3)));
  const paragraph = `${capitalise(words(12 + rng.int(20)))}.`;
  const image = `/media/img-${hash32(seed, 'web-img', host, path)}.png`;
  const links = Array.from({ length: 2 + rng.int(3) }, () => {
    const word = rng.pick(WORDS);
    return `<li><a href="https://${escape(host)}/${word}">${capitalise(word)}</a></li>`;
  }).join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escape(title)}</title></head>`,
    `<body><h1>${escape(title)}</h1>`,
    `<p>${escape(paragraph)}</p>`,
    `<img src="${image}" alt="${escape(words(2))}" width="320">`,
    `<ul>${links}</ul>`,
    `<footer>${escape(host)}/${escape(path)}</footer>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** What the small web answers for `https://<host>/<path>` (path without its leading slash, query included). */
export function webAnswer(seed: number, host: string, path: string): WebAnswer {
  switch (webKind(seed, host, path)) {
    case 'gone':
      return { kind: 'gone' };
    case 'moved':
      return { kind: 'moved', location: `/web/${host}/${MOVED}${path}` };
    case 'inner':
      return { kind: 'inner', location: 'http://127.0.0.1/' };
    case 'slow':
      return { kind: 'slow', html: webPage(seed, host, path), delayMs: SLOW_MS };
    case 'image':
      return { kind: 'image', id: (IMAGE.exec(path) as RegExpExecArray)[1] as string };
    default:
      return { kind: 'page', html: webPage(seed, host, path) };
  }
}

const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/i;

/** the host and path of a request to `/web/<host>/<path>`, or undefined when it names no page */
export function parseWebPath(url: string): { host: string; path: string } | undefined {
  const m = /^\/web\/([^/?#]+)\/?([^#]*)$/.exec(url);
  if (!m) return undefined;
  const host = (m[1] as string).toLowerCase();
  if (!HOST.test(host) || (m[2] as string).length > 2048) return undefined;
  return { host, path: m[2] as string };
}
