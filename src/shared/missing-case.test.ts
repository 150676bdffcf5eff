import { describe, expect, it } from 'vitest';
import { missingCaseError } from './missing-case';

describe('missingCaseError', () => {
  it('throws, naming the value that reached the default', () => {
    expect(() => missingCaseError({ name: 'usage' } as never)).toThrow(/Unhandled case: \{"name":"usage"\}/);
  });

  it('refuses at compile time a switch that leaves out a case', () => {
    const label = (kind: 'a' | 'b'): string => {
      switch (kind) {
        case 'a':
          return 'A';
        default:
          // @ts-expect-error: 'b' is not handled, so `kind` is not `never` here
          return missingCaseError(kind);
      }
    };
    expect(label('a')).toBe('A');
  });
});
