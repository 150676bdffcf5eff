import { describe, expect, it } from 'vitest';
import { readTargets, targetLabel, targetsProblem } from './targets';

describe('a watch’s targets as a person writes them', () => {
  it('takes @handles, profile links and numeric ids, mixed, one per line or separated by commas or spaces', () => {
    const read = readTargets(
      '@alice, https://x.com/Bob\nhttps://twitter.com/carol/ 12345  www.x.com/dave?s=20\n  \n678',
      'accounts',
    );
    expect(read.ids).toEqual(['12345', '678']);
    expect(read.unresolved).toEqual(['alice', 'Bob', 'carol', 'dave']);
    expect(read.bad).toEqual([]);
    expect(targetsProblem(read)).toBeNull();
  });

  it('keeps each resolved id beside the handle it was given as, and reads the id', () => {
    const read = readTargets('@Alice 12', 'accounts', { alice: { id: '99' } });
    expect(read.ids).toEqual(['99', '12']);
    expect(read.handles).toEqual({ '99': 'Alice' });
    expect(read.unresolved).toEqual([]);
    expect(targetLabel('99', read.handles)).toBe('@Alice');
    expect(targetLabel('12', read.handles)).toBe('12');
  });

  it('keeps a target given twice once (a handle in any case, a link to it, its id), and counts it', () => {
    const read = readTargets('@alice ALICE https://x.com/alice 12 12 @bob', 'accounts', { bob: { id: '12' } });
    expect(read.unresolved).toEqual(['alice']);
    expect(read.ids).toEqual(['12']);
    expect(read.duplicates).toBe(4);
  });

  it('lists the handles no account has by name, in plain words naming the field', () => {
    const read = readTargets('@ghost @alice', 'accounts', {
      ghost: { missing: 'no account has exactly this handle' },
      alice: { id: '1' },
    });
    expect(read.missing).toEqual([{ handle: 'ghost', why: 'no account has exactly this handle' }]);
    expect(targetsProblem(read)).toBe('No account found for @ghost: correct it or take it out of Targets.');
  });

  it('refuses junk by name: links that are no profile, ids a spreadsheet damaged, words too long for a handle', () => {
    const read = readTargets(
      'https://x.com/home 1.23E+18 this_is_far_too_long_for_a_handle 0123 https://evil.example/alice',
      'accounts',
    );
    expect(read.ids).toEqual([]);
    expect(read.unresolved).toEqual([]);
    expect(read.bad.map((b) => b.token)).toEqual([
      'https://x.com/home',
      '1.23E+18',
      'this_is_far_too_long_for_a_handle',
      '0123',
      'https://evil.example/alice',
    ]);
    const said = targetsProblem(read) ?? '';
    expect(said).toMatch(/^Targets: “https:\/\/x\.com\/home” is not a user id, an @handle or a profile URL/);
    expect(said).toMatch(/scientific notation/);
    expect(said).toMatch(/and 0 more|starts with 0/);
    expect(said).not.toMatch(/bug/i);
  });

  it('shows hostile text back short and as it came (never read as markup), and never as a target', () => {
    const hostile = `<img src=x onerror=alert(1)>${'A'.repeat(500)}`;
    const read = readTargets(`${hostile} @ok`, 'accounts');
    expect(read.unresolved).toEqual(['ok']);
    expect(read.ids).toEqual([]);
    expect(read.bad.map((b) => b.token.slice(0, 12))).toEqual(['<img', 'src=x', 'onerror=aler']);
    expect(Math.max(...read.bad.map((b) => b.token.length))).toBe(41);
  });

  it('checks the other kinds’ targets by what they look like; a mention’s handle may come as a link', () => {
    expect(readTargets('@alice https://x.com/bob', 'mentions').ids).toEqual(['alice', 'bob']);
    expect(readTargets('12 abc', 'list').bad).toEqual([{ token: 'abc', why: 'not a list id (digits only)' }]);
    expect(readTargets('1 23424977', 'trends').ids).toEqual(['1', '23424977']);
  });
});
