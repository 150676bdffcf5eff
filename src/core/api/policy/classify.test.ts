import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIONS } from '../../../shared/errors';
import { classifyAnswer, namesFreeTier, paceFromWords, validationFields, type Answer, type Verdict } from './classify';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const answer = (status: number, body?: unknown, extra: Partial<Answer> = {}): Answer => ({
  status,
  body,
  retryAfter: null,
  ...extra,
});
const errorOf = (v: Verdict) => (v.kind === 'ok' ? undefined : v.error);

describe('classifyAnswer', () => {
  it('accepts a success body, with or without status', () => {
    expect(classifyAnswer('postQuotes', answer(200, { status: 'success', tweets: [] }), NOW).kind).toBe('ok');
    expect(classifyAnswer('userSearch', answer(200, { users: [] }), NOW).kind).toBe('ok');
  });

  it.each([
    [501, 'not-available', 'fail'],
    [401, 'unauthorized', 'fail'],
    [403, 'unauthorized', 'fail'],
    [402, 'payment-required', 'fail'],
    [404, 'not-found', 'fail'],
    [405, 'not-found', 'fail'],
    [429, 'rate-limited', 'retry'],
    [408, 'timeout', 'retry'],
    [500, 'upstream', 'retry'],
    [502, 'upstream', 'retry'],
    [503, 'upstream', 'retry'],
    [302, 'api-error', 'fail'],
    [418, 'api-error', 'fail'],
  ] as const)('HTTP %i → %s (%s), with a message and an action', (status, code, kind) => {
    const v = classifyAnswer('postQuotes', answer(status, { message: 'x' }), NOW);
    expect(v.kind).toBe(kind);
    const e = errorOf(v);
    expect(e?.code).toBe(code);
    expect(e?.message.length).toBeGreaterThan(10);
    expect(e?.details?.action).toBeTruthy();
    expect(e?.details?.httpStatus).toBe(status);
  });

  it('says which operation is not available', () => {
    expect(errorOf(classifyAnswer('article', answer(501, {}), NOW))?.message).toContain('Article');
    expect(errorOf(classifyAnswer('article', answer(501, {}), NOW))?.details?.action).toBe(
      DEFAULT_ACTIONS['not-available'],
    );
  });

  it('reads an error hidden in an HTTP 200', () => {
    const e = errorOf(classifyAnswer('usersByIds', answer(200, { status: 'error', msg: 'user not found' }), NOW));
    expect(e?.code).toBe('api-error');
    expect(e?.message).toContain('user not found');
  });

  it('reports an unreadable 200 as malformed', () => {
    expect(
      errorOf(classifyAnswer('trends', answer(200, undefined, { bodyProblem: 'expected JSON, got text/html' }), NOW))
        ?.code,
    ).toBe('malformed');
    expect(errorOf(classifyAnswer('trends', answer(200, [1, 2]), NOW))?.details?.path).toBe('(root)');
  });

  it('gives a rate limit its end from Retry-After', () => {
    const v = classifyAnswer('postQuotes', answer(429, {}, { retryAfter: '7' }), NOW);
    expect(v.kind === 'retry' && v.retryAfterMs).toBe(7_000);
    expect(errorOf(v)?.details?.retryAt).toBe(NOW + 7_000);
    expect(errorOf(v)?.message).toMatch(/until/);
  });

  it('names the fields of a validation error, list or string form', () => {
    const list = classifyAnswer(
      'postQuotes',
      answer(422, { detail: [{ loc: ['query', 'tweetId'], msg: 'field required', type: 'missing' }] }),
      NOW,
    );
    expect(errorOf(list)?.code).toBe('validation');
    expect(errorOf(list)?.details?.fields).toEqual([{ field: 'tweetId', message: 'field required' }]);
    const str = classifyAnswer('postQuotes', answer(400, { detail: 'tweetId is required' }), NOW);
    expect(errorOf(str)?.details?.fields).toEqual([{ field: 'tweetId', message: 'tweetId is required' }]);
    expect(errorOf(str)?.message).toContain('tweetId is required');
  });
});

describe('validationFields', () => {
  it('falls back to "params" when no known parameter is named', () => {
    expect(validationFields('trends', { detail: 'something is off' })).toEqual([
      { field: 'params', message: 'something is off' },
    ]);
    expect(validationFields('trends', { detail: [{ loc: ['query'], msg: 'bad', type: 'x' }] })).toEqual([
      { field: 'params', message: 'bad' },
    ]);
  });

  it('does not mistake a longer word for a parameter', () => {
    expect(validationFields('userTimeline', { detail: 'userIdentifier wrong' })[0]?.field).toBe('params');
  });
});

describe('the live error bodies', () => {
  it.each([
    ['For free-tier users, the QPS limit is one request every 5 seconds.', 5_000],
    ['one request per second', 1_000],
    ['2 requests per second', 500],
    ['10 requests per minute', 6_000],
    ['a request every minute', 60_000],
    ['slow down', null],
    [undefined, null],
  ])('the pace in “%s” is %s ms between requests', (said, ms) => {
    expect(paceFromWords(said)).toBe(ms);
  });

  it('knows the free tier when the words name it', () => {
    expect(namesFreeTier('For free-tier users, …')).toBe(true);
    expect(namesFreeTier('Rate limit exceeded')).toBe(false);
  });

  it('a 403 "API key required" is possibly a rate limit when a key was sent, the key otherwise', () => {
    const body = {
      error: 'Forbidden',
      message: 'API key required. Please include x-api-key in your request header.',
      code: -1,
    };
    const sent = classifyAnswer('postQuotes', answer(403, body), NOW, { keySent: true });
    expect(sent).toMatchObject({ kind: 'retry', keyOrThrottle: true, retryAfterMs: 6_000 });
    expect(errorOf(sent)?.message).toContain('although Skein sent your key');
    expect(classifyAnswer('postQuotes', answer(403, body), NOW, { keySent: false }).kind).toBe('fail');
    expect(
      classifyAnswer('postQuotes', answer(403, { error: 'Forbidden', message: 'API key is invalid' }), NOW, {
        keySent: true,
      }).kind,
    ).toBe('fail');
  });

  it('an `error` key in a 200 is the error it names; an error it does not name is the service’s error', () => {
    expect(
      errorOf(classifyAnswer('trends', answer(200, { error: 'Too Many Requests', message: 'slow' }), NOW))?.code,
    ).toBe('rate-limited');
    expect(errorOf(classifyAnswer('trends', answer(200, { error: 'Something odd', message: 'no' }), NOW))?.code).toBe(
      'api-error',
    );
    expect(classifyAnswer('trends', answer(200, { status: 'success', error: null, trends: [] }), NOW).kind).toBe('ok');
  });
});
