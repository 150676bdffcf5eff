import { describe, expect, it } from 'vitest';
import { splitPassword } from './connection';

describe('a connection string typed with its password', () => {
  it('loses the password, which is given back apart (decoded)', () => {
    expect(splitPassword(' postgresql://ada:s%40cret%2F1@db.example.org:5432/research?sslmode=require ')).toEqual({
      connection: 'postgresql://ada@db.example.org:5432/research?sslmode=require',
      password: 's@cret/1',
    });
  });

  it('is left as typed when it holds none, or is not an address', () => {
    expect(splitPassword('postgresql://ada@db.example.org/research')).toEqual({
      connection: 'postgresql://ada@db.example.org/research',
      password: null,
    });
    expect(splitPassword('db.example.org research')).toEqual({ connection: 'db.example.org research', password: null });
  });
});
