/**
 * A stand-in for a web archive's save service (the Internet Archive's Save Page Now), so demo mode and the tests
 * can send linked URLs to one without a network. `GET /save/<url>` answers as Save Page Now does: for a page its
 * small web serves, a 302 to the capture, `/web-archive/<14-digit UTC timestamp>/<url>` (in `Location` and
 * `Content-Location`), and that address serves the page as captured; for a URL it cannot capture (an unknown
 * host, a page that is gone), a 520 with the reason as text. Every save request is logged with its time on the
 * sandbox clock (`GET /__sandbox/save-requests`), so a test can see how they were paced.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxClock } from './clock';
import type { MediaLog } from './ledger';
import { webAnswer, webKind } from './web';

const HOST = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** a capture's timestamp, as the Wayback Machine writes it: 14 digits, UTC */
const waybackStamp = (at: number): string =>
  new Date(at)
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, '');

/** The small web's host and path of a URL to save, or the reason the stand-in cannot capture it. */
function saveTarget(
  seed: number,
  raw: string,
): { ok: true; url: string; host: string; path: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'Not a web address.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'Not a web address.' };
  const host = url.hostname.toLowerCase();
  if (!HOST.test(host) || /\.(invalid|test|localhost)$/.test(host) || /^[\d.]+$/.test(host))
    return { ok: false, message: `Couldn't resolve host for ${url.href}` };
  const path = `${url.pathname.slice(1)}${url.search}`;
  const kind = webKind(seed, host, path);
  if (kind === 'gone') return { ok: false, message: 'The page is gone: the site answered 404.' };
  if (kind === 'inner')
    return { ok: false, message: 'The page redirects to a private address, which is not archived.' };
  return { ok: true, url: url.href, host, path };
}

export function registerSaveStandIn(app: FastifyInstance, seed: number, clock: SandboxClock, log: MediaLog): void {
  app.get('/save/*', async (req, reply) => {
    let raw = req.url.slice('/save/'.length);
    try {
      raw = decodeURIComponent(raw);
    } catch {
      /* kept as sent */
    }
    const target = saveTarget(seed, raw);
    const status = target.ok ? 302 : 520;
    log.add({ at: clock.now(), url: raw, status, agent: String(req.headers['user-agent'] ?? '').slice(0, 120) });
    if (!target.ok) return reply.code(520).type('text/plain; charset=utf-8').send(target.message);
    const capture = `/web-archive/${waybackStamp(clock.now())}/${target.url}`;
    return reply.code(302).header('location', capture).header('content-location', capture).send();
  });
  // a capture: the page as the small web serves it (where a page moved, where it leads)
  app.get('/web-archive/*', async (req, reply) => {
    const m = /^\/web-archive\/(\d{14})\/(.+)$/.exec(req.url);
    const target = m ? saveTarget(seed, m[2] as string) : undefined;
    if (!target?.ok) return reply.code(404).type('text/plain').send('Not in the web archive');
    const answer = webAnswer(seed, target.host, target.path);
    const moved = answer.kind === 'moved' ? webAnswer(seed, target.host, `moved/${target.path}`) : answer;
    if (moved.kind !== 'page' && moved.kind !== 'slow')
      return reply.code(404).type('text/plain').send('The capture holds no page');
    return reply.type('text/html; charset=utf-8').send(moved.html);
  });
}
