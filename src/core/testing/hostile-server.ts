/**
 * A hostile API server for attack tests (unit and e2e): it speaks the API's
 * paths but answers with adversarial bodies, one category at a time, and
 * records every request it gets (with the key it was sent, if any). Loopback
 * only, ephemeral port. Switch the category with `use(category)` or the
 * `x-hostile` request header; `POST /__hostile/use?category=…` does it over HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DECEPTIVE_URL_ENTITIES, postFixture, userFixture } from '../../shared/api/fixtures';

export const HOSTILE_CATEGORIES = [
  'markup',
  'bad-indices',
  'deep',
  'retry-after',
  'formula',
  'proto-keys',
  'spoofing',
  'local-media',
  'links',
] as const;
export type HostileCategory = (typeof HOSTILE_CATEGORIES)[number];

export interface HostileRequest {
  path: string;
  query: string;
  /** the `x-api-key` header as received (null: none) */
  key: string | null;
  category: HostileCategory;
}

export interface HostileServer {
  baseUrl: string;
  port: number;
  requests: HostileRequest[];
  use: (category: HostileCategory) => void;
  /** the Retry-After header the `retry-after` category sends (default: a day in seconds) */
  retryAfter: (value: string) => void;
  close: () => Promise<void>;
}

type Json = Record<string, unknown>;

const post = (id: string, extra: Json = {}): Json => ({
  ...postFixture,
  id,
  url: `https://x.example/ada/status/${id}`,
  quoted_tweet: null,
  ...extra,
});

/** a plain post that must still show and export next to the hostile ones */
export const INNOCENT_TEXT = 'An innocent post that must still show';

/** 1 MB of text whose entity indices point anywhere but at it */
function badIndexPost(id: string, chars = 1_000_000): Json {
  const text = 'a'.repeat(chars - 20) + ' #tag @who http://x';
  const wild = (n: number) =>
    Array.from({ length: n }, (_, i) => [(i * 7919) % (chars * 2), ((i * 104729) % (chars * 2)) - 5]);
  return post(id, {
    text,
    displayTextRange: [5, chars * 3],
    entities: {
      hashtags: wild(3000).map((indices, i) => ({ text: `tag${i}`, indices })),
      user_mentions: wild(3000).map((indices, i) => ({
        id_str: String(i + 1),
        name: 'x',
        screen_name: `who${i}`,
        indices,
      })),
      urls: wild(3000).map((indices) => ({
        url: 'https://t.co/x',
        display_url: 'x.example',
        expanded_url: 'https://x.example',
        indices,
      })),
      symbols: [],
    },
  });
}

/**
 * A post whose `retweeted_tweet` chain and an unknown field are each `depth` deep, as JSON text
 * (built as text: JSON.stringify itself overflows the stack on such a value).
 */
function deepPostJson(id: string, depth = 10_000): string {
  const link = (i: number) =>
    `{"type":"tweet","id":"${id.slice(0, -4)}${String(i % 10_000).padStart(4, '0')}","text":"deep ${i}","retweeted_tweet":`;
  const chain = Array.from({ length: depth }, (_, i) => link(i)).join('') + 'null' + '}'.repeat(depth);
  const unknown = '{"nested":'.repeat(depth) + '{"leaf":true}' + '}'.repeat(depth);
  const outer = JSON.stringify(
    post(id, { text: 'A post with a deep retweet chain', entities: null, displayTextRange: null }),
  );
  return `${outer.slice(0, -1)},"retweeted_tweet":${chain},"extra_unknown_field":${unknown}}`;
}

const PROTO_WORDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

function bodyText(category: HostileCategory, origin: string): string {
  if (category !== 'deep') return JSON.stringify(bodyFor(category, origin));
  const page = JSON.stringify(bodyFor('deep', origin));
  // the deep post goes first in the list, before the innocent one
  return page.replace('"tweets":[', `"tweets":[${deepPostJson('1900000000000000001')},`);
}

function bodyFor(category: HostileCategory, origin: string): Json {
  const innocent = post('1900000000000000009', { text: INNOCENT_TEXT, entities: null, displayTextRange: null });
  const items: Json[] = [];
  switch (category) {
    case 'markup':
      items.push(
        post('1900000000000000001', {
          text: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>',
          entities: null,
          displayTextRange: null,
          author: {
            ...userFixture,
            name: '<b onmouseover=alert(1)>Mallory</b>',
            description: '<iframe src=javascript:alert(1)>',
          },
        }),
      );
      break;
    case 'bad-indices':
      items.push(badIndexPost('1900000000000000001'));
      break;
    case 'deep':
      break; // added as text by bodyText
    case 'formula':
      for (const [i, t] of [
        '=HYPERLINK("http://evil.example","x")',
        '+1+1',
        '-2+3',
        '@SUM(A1)',
        '\t=1',
        '\r=1',
      ].entries()) {
        items.push(
          post(`190000000000000001${i}`, {
            text: t,
            entities: null,
            displayTextRange: null,
            author: { ...userFixture, name: t },
          }),
        );
      }
      break;
    case 'proto-keys':
      for (const [i, w] of PROTO_WORDS.entries()) {
        items.push(
          post(`190000000000000002${i}`, {
            text: w,
            lang: w,
            type: 'tweet',
            entities: { hashtags: [{ text: w, indices: [0, w.length] }], [w]: [{ text: w }] },
            [w]: { polluted: true },
            author: { ...userFixture, userName: `u${i}`, location: w, [w]: w },
          }),
        );
      }
      break;
    case 'spoofing':
      items.push(
        post('1900000000000000031', {
          text: 'Spoofed author',
          entities: null,
          displayTextRange: null,
          author: { ...userFixture, userName: 'ada\u202Egnp.exe', name: 'Ada\u202E \u200Bverified\u2066' },
        }),
        post('1900000000000000032', {
          text: 'Zero width',
          entities: null,
          displayTextRange: null,
          author: { ...userFixture, id: '77', userName: 'a\u200Bda', name: 'Ada' },
        }),
      );
      break;
    case 'local-media':
      items.push(
        post('1900000000000000041', {
          text: 'Local media',
          // this very server's local port: a request for /local-media/… would show in `requests`
          author: { ...userFixture, profilePicture: `${origin}/local-media/avatar.png` },
          extendedEntities: {
            media: [
              { type: 'photo', media_url_https: `${origin}/local-media/x.png`, url: 'https://t.co/m', id_str: '41' },
            ],
          },
        }),
      );
      break;
    case 'links': {
      const text = 'see https://t.co/a https://t.co/b https://t.co/c';
      items.push(
        post('1900000000000000051', {
          text,
          displayTextRange: [0, text.length],
          entities: {
            hashtags: [],
            symbols: [],
            user_mentions: [],
            urls: DECEPTIVE_URL_ENTITIES,
          },
        }),
      );
      break;
    }
    case 'retry-after':
      break;
  }
  // every answer holds the post the views are opened on (`#/post/1900000000000000001`): the post view looks it
  // up, and a missing post is one message with no tabs, where the attack would never be shown
  if (!items.some((p) => p.id === FOCAL_ID))
    items.unshift(post(FOCAL_ID, { text: 'The post the attacks hang from', entities: null, displayTextRange: null }));
  items.push(innocent);
  return {
    status: 'success',
    msg: 'ok',
    tweets: items,
    users: items.map((p) => p.author),
    has_next_page: false,
    next_cursor: '',
  };
}

/** the post every hostile view is opened on */
const FOCAL_ID = '1900000000000000001';

export async function startHostileServer(initial: HostileCategory = 'markup'): Promise<HostileServer> {
  let category: HostileCategory = initial;
  let retryAfter = '86400';
  const requests: HostileRequest[] = [];
  const bodies = new Map<HostileCategory, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/__hostile/use') {
      const next = url.searchParams.get('category') as HostileCategory | null;
      if (next && HOSTILE_CATEGORIES.includes(next)) category = next;
      res.writeHead(204).end();
      return;
    }
    const header = req.headers['x-hostile'];
    const cat =
      typeof header === 'string' && (HOSTILE_CATEGORIES as readonly string[]).includes(header)
        ? (header as HostileCategory)
        : category;
    const key = req.headers['x-api-key'];
    requests.push({ path: url.pathname, query: url.search, key: typeof key === 'string' ? key : null, category: cat });
    if (cat === 'retry-after') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
      res.end(JSON.stringify({ detail: 'Slow down: come back tomorrow' }));
      return;
    }
    let body = bodies.get(cat);
    if (body === undefined)
      bodies.set(cat, (body = bodyText(cat, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    use: (c) => {
      category = c;
    },
    retryAfter: (v) => {
      retryAfter = v;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
