import { describe, expect, it } from 'vitest';
import { parseSearch, type SearchNode } from './parse';

/** a tree as a short string, to compare shapes */
function show(n: SearchNode | null): string {
  if (n === null) return '∅';
  switch (n.type) {
    case 'text':
      return `${n.quoted ? '"' : ''}${n.tokens.join(' ')}${n.quoted ? '"' : ''}${n.prefix ? '*' : ''}`;
    case 'field':
      return `${n.field}:${JSON.stringify({ ...n, type: undefined, field: undefined, span: undefined })}`;
    case 'not':
      return `-${show(n.node)}`;
    default:
      return `(${n.nodes.map(show).join(n.type === 'and' ? ' & ' : ' | ')})`;
  }
}

const tree = (input: string) => {
  const p = parseSearch(input);
  if (!p.ok) throw new Error(p.error.message);
  return show(p.query);
};
const error = (input: string) => {
  const p = parseSearch(input);
  if (p.ok) throw new Error(`parsed: ${show(p.query)}`);
  return p.error;
};

describe('the archive search language', () => {
  it('reads words (the last one a prefix), phrases, AND, OR, NOT, -word and parentheses', () => {
    expect(tree('heron')).toBe('heron*');
    expect(tree('heron river')).toBe('(heron & river*)');
    expect(tree('heron river ')).toBe('(heron & river*)');
    expect(tree('her* river')).toBe('(her* & river*)');
    expect(tree('"big storm" heron')).toBe('("big storm" & heron*)');
    expect(tree('a OR b c')).toBe('(a | (b & c*))');
    expect(tree('a AND b OR c')).toBe('((a & b) | c*)');
    expect(tree('(a OR b) c')).toBe('((a | b) & c*)');
    expect(tree('-rain')).toBe('-rain*');
    expect(tree('heron -rain NOT snow')).toBe('(heron & -rain & -snow*)');
    expect(tree('storm-garden')).toBe('storm garden*');
    // lower-case and/or are words; a minus alone is punctuation
    expect(tree('cats and dogs - birds')).toBe('(cats & and & dogs & birds*)');
  });

  it('reads the filters, their values checked', () => {
    expect(tree('from:@Ada to:bob lang:EN')).toBe(
      'from:{"handle":"ada"} & to:{"handle":"bob"} & lang:{"code":"en"}'.replace(/^/, '(').replace(/$/, ')'),
    );
    expect(tree('is:repost has:links')).toBe('(is:{"is":"retweet"} & has:{"has":"link"})');
    expect(tree('since:2026-01-31')).toBe(`since:{"day":"2026-01-31","at":${Date.UTC(2026, 0, 31)}}`);
    expect(tree('min_retweets:5')).toBe('min:{"counter":"reposts","min":5}');
    expect(error('since:2026-02-30')).toMatchObject({ position: 6, expected: 'a date as year-month-day' });
    expect(error('is:constructor').expected).toBe('reply, quote or retweet');
    expect(error('from:').message).toBe(
      'Expected a handle (letters, digits and _) after from: at character 6 (for example from:ada).',
    );
  });

  it('names an unknown filter, and the filters it knows', () => {
    const e = error('heron text:x');
    expect(e.position).toBe(6);
    expect(e.message).toContain('“text:” at character 7 is not a filter');
    expect(e.message).toContain('from:, to:, lang:, is:, has:, since:, until:, min_likes:');
  });

  it('says where a quote or a parenthesis is left open, and what was expected', () => {
    expect(error('heron "big storm')).toMatchObject({ position: 6, expected: 'a closing quote' });
    expect(error('heron "big storm').message).toBe('Expected a closing quote for the quote at character 7.');
    expect(error('(a OR b')).toMatchObject({ position: 7, expected: 'a closing parenthesis' });
    expect(error('a)').message).toBe('There is no opening parenthesis for the closing one at character 2.');
    expect(error('a OR').message).toBe('Expected a word, a phrase in quotes or a filter after “OR” at character 3.');
    expect(error('OR a').message).toBe('Expected a word, a phrase in quotes or a filter before “OR” at character 1.');
    expect(error('()').position).toBe(1);
    expect(error('a NOT').position).toBe(5);
  });

  it('leaves out terms with no word an index keeps, and reads an empty search as every item', () => {
    expect(tree('')).toBe('∅');
    expect(tree('  *** ')).toBe('∅');
    expect(tree('heron OR ***')).toBe('heron');
    expect(tree('-"" a')).toBe('a*');
    expect(tree('-(a OR b) -"c d"')).toBe('(-(a | b) & -"c d")');
  });

  it('keeps where each term was typed, for the chips', () => {
    const p = parseSearch('heron (a OR b) -"x y"');
    expect(p.ok && p.query?.type === 'and' && p.query.nodes.map((n) => n.span)).toEqual([
      { start: 0, end: 5 },
      { start: 6, end: 14 },
      { start: 15, end: 21 },
    ]);
  });
});
