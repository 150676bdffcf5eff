/**
 * The connections to a team project's database (node-postgres, pure JS): TLS as the address says (on, with the
 * server's certificate checked against Node's and the system's authorities, unless told otherwise), the
 * project's schema as the search path, 64-bit integers read as numbers (times in ms and row ids stay far below
 * 2^53). What goes wrong is said in plain words, never with the password in it.
 */
import { getCACertificates } from 'node:tls';
import pg from 'pg';
import { SkeinError } from '../../../shared/errors';
import { redactText } from '../../logger';
import type { PgConnection } from './connection';

const INT8 = 20;
const CONNECT_TIMEOUT_MS = 15_000;

/** Node's own authorities and the system's (a team's server certified by a company's authority). */
function authorities(): string[] | undefined {
  try {
    return [...new Set([...getCACertificates('default'), ...getCACertificates('system')])];
  } catch {
    return undefined; // an older Node: its defaults
  }
}

function tlsOptions(c: PgConnection): pg.PoolConfig['ssl'] {
  switch (c.tls) {
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, ca: authorities(), checkServerIdentity: () => undefined };
    case 'verify-full':
      return { rejectUnauthorized: true, ca: authorities() };
  }
}

/** 64-bit integers as numbers; every other type as node-postgres reads it. */
const typeParser = ((oid: number, format?: 'text' | 'binary'): unknown =>
  oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

export function createPool(c: PgConnection, max = 8): pg.Pool {
  const pool = new pg.Pool({
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password ?? undefined,
    ssl: tlsOptions(c),
    application_name: 'Skein',
    options: `-c search_path=${c.schema}`,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    idleTimeoutMillis: 30_000,
    max,
    types: { getTypeParser: typeParser },
  });
  // an idle connection the server closed: the next query takes another (unhandled, it would end the thread)
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A connection of the pool for a while (a transaction, a reader): a connection lost between its queries is
 * noted, not thrown at the thread (the next query fails with it), and given back to be closed, not reused.
 */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (e: Error) => (lost ??= e);
  client.on('error', onError);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    client.removeListener('error', onError);
    release(error ?? lost);
  };
  return client;
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // serialization failure, deadlock, too many connections, the server shutting down or starting
  '40001',
  '40P01',
  '53300',
  '57P01',
  '57P02',
  '57P03',
]);

const codeOf = (e: unknown): string => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
};
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** An error another attempt may not meet: the server away or restarting, the connection lost, a deadlock. */
export function isTransient(e: unknown): boolean {
  const code = codeOf(e);
  if (TRANSIENT_CODES.has(code) || code.startsWith('08')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    messageOf(e),
  );
}

/** The server refused this role the statement (insufficient privilege): another attempt meets the same refusal. */
export const isDenied = (e: unknown): boolean =>
  codeOf(e) === '42501' || (e instanceof Error && 'denied' in e && e.denied === true);

/** What went wrong reaching or using the database, in plain words, with what to do (never the password). */
export function explain(e: unknown, c: PgConnection): SkeinError {
  if (e instanceof SkeinError) return e;
  const where = `${c.host}:${c.port}`;
  const code = codeOf(e);
  const raw = redactText(messageOf(e), c.password ? [c.password] : []);
  const say = (code_: 'offline' | 'unauthorized' | 'write-failed' | 'not-found', message: string, action: string) =>
    new SkeinError(code_, redactText(message, c.password ? [c.password] : []), { action });
  if (code === 'ECONNREFUSED')
    return say(
      'offline',
      `Nothing answers at ${where}.`,
      'Check that PostgreSQL runs there and accepts connections from this computer.',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return say(
      'offline',
      `The server name ${c.host} could not be found.`,
      'Check the host in the connection string, and the network.',
    );
  if (/timeout/i.test(raw) || code === 'ETIMEDOUT')
    return say(
      'offline',
      `${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s.`,
      'Check the host and port, and that a firewall lets this computer through.',
    );
  if (/does not support SSL/i.test(raw))
    return say(
      'offline',
      `The server at ${where} does not offer TLS, and Skein encrypts its connections unless told otherwise.`,
      'Turn on ssl in the server’s configuration; for a server on this computer only, add ?sslmode=disable to the connection string.',
    );
  if (
    /certificate|self[- ]signed|CERT_|unable to verify/i.test(raw) ||
    code.startsWith('CERT') ||
    code.includes('CERT')
  )
    return say(
      'unauthorized',
      `The server’s certificate at ${where} could not be checked (${raw}).`,
      'Ask the database’s administrator which authority signed it and add it to this computer’s trusted certificates; ?sslmode=require encrypts without checking who answers.',
    );
  if (code === '28P01' || code === '28000')
    return say(
      'unauthorized',
      `PostgreSQL at ${where} refused ${c.user}: ${raw}.`,
      'Check the user name and the password.',
    );
  if (code === '3D000')
    return say(
      'not-found',
      `There is no database “${c.database}” at ${where}.`,
      'Check the database name, or ask its administrator to create it.',
    );
  if (code === '42501')
    return say(
      'write-failed',
      `${c.user} may not do this in the database “${c.database}”: ${raw}.`,
      `Ask the database’s administrator for the rights it needs: to make the project, CREATE SCHEMA ${c.schema} AUTHORIZATION ${c.user}; to write to one, write rights on its tables.`,
    );
  if (isTransient(e))
    return say(
      'offline',
      `The connection to ${where} was lost (${raw}).`,
      'Skein keeps what it collected and writes it once the server answers again.',
    );
  return say(
    'write-failed',
    `The database at ${where} answered: ${raw}.`,
    'Try again; if it persists, tell the database’s administrator.',
  );
}
