import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { forgetApiAnswers, isApiAnswerKey } from './settings';

describe('forgetApiAnswers', () => {
  it('drops cached API answers and keeps settings, credentials and app queries', async () => {
    const client = new QueryClient();
    const keep = [
      ['settings', 'values'],
      ['credentials', 'status'],
      ['app', 'info'],
      ['usage', 'snapshot'],
      ['demo', 'examples'],
    ];
    const drop = [
      ['community', 'info', '1'],
      ['post', 'thread', '2', 'Relevance'],
      ['space', 'detail', 'x'],
      ['trends', 1, 30],
    ];
    for (const k of [...keep, ...drop]) client.setQueryData(k, { any: 'thing' });
    await forgetApiAnswers(client);
    for (const k of keep) expect(client.getQueryData(k)).toBeDefined();
    for (const k of drop) expect(client.getQueryData(k)).toBeUndefined();
    expect(client.getQueryState(['app', 'info'])?.isInvalidated).toBe(true);
  });

  it('tells API answers from app state by the first key segment', () => {
    expect(isApiAnswerKey(['list', 'posts', '1'])).toBe(true);
    expect(isApiAnswerKey(['settings', 'values'])).toBe(false);
  });
});
