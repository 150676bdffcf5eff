/**
 * A team project's address: the connection string as PostgreSQL's own tools take it
 * (`postgresql://user:password@host:5432/database?sslmode=verify-full`), read into its parts. The password is
 * taken out at once (main keeps it behind the OS key store; it is never written with the address, shown or
 * logged); what remains is the project's location. TLS is on unless the string says `sslmode=disable`, and the
 * server's certificate is checked unless it says `require` (encrypted, unchecked) or `verify-ca` (the name not
 * checked). Skein never falls back to an unencrypted connection on its own (libpq's `prefer`).
 */
import { SkeinError } from '../../../shared/errors';

export type TlsMode = 'verify-full' | 'verify-ca' | 'require' | 'disable';

/** Where a team project lives, without its password: what the list of projects keeps. */
export interface PgAddress {
  host: string;
  port: number;
  database: string;
  user: string;
  tls: TlsMode;
  /** the schema the project's tables live in */
  schema: string;
}

/** An address with its password: what the archive's worker connects with (never logged, never sent to the page). */
export interface PgConnection extends PgAddress {
  password: string | null;
}

const TLS_MODES: readonly TlsMode[] = ['verify-full', 'verify-ca', 'require', 'disable'];
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;
const EXAMPLE = 'postgresql://ada@db.example.org:5432/research';

function refuse(message: string): SkeinError {
  return new SkeinError('bad-input', message, {
    action: `Write it as ${EXAMPLE} (add ?sslmode=disable only for a server on this computer).`,
  });
}

/** Reads a connection string; the password in it (if any) comes back apart from the address. */
export function parseConnection(text: string, schema: string): { address: PgAddress; password: string | null } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse('That is not a PostgreSQL connection string Skein can read.');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:')
    throw refuse(`A connection string starts with postgresql:// (this one starts with ${url.protocol}//).`);
  const host = decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw refuse('The connection string names no server (host).');
  const port = url.port === '' ? 5432 : Number(url.port);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const user = decodeURIComponent(url.username);
  if (user === '') throw refuse('The connection string names no database user (postgresql://USER@host/database).');
  if (database === '' || database.includes('/'))
    throw refuse('The connection string names no database (postgresql://user@host/DATABASE).');
  const sslmode = url.searchParams.get('sslmode') ?? 'verify-full';
  if (!TLS_MODES.includes(sslmode as TlsMode))
    throw refuse(
      `sslmode=${sslmode} is not one Skein uses: it never falls back to an unencrypted connection by itself. Use verify-full (the default), verify-ca, require, or disable.`,
    );
  for (const key of url.searchParams.keys())
    if (key !== 'sslmode' && key !== 'application_name')
      throw refuse(`Skein does not use the option “${key}” of a connection string (only sslmode).`);
  if (!SCHEMA.test(schema))
    throw refuse(`“${schema}” is not a schema name Skein uses (lower-case letters, digits and _).`);
  const password = url.password === '' ? null : decodeURIComponent(url.password);
  return { address: { host, port, database, user, tls: sslmode as TlsMode, schema }, password };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/** A server on this computer: the only place an unencrypted connection keeps the password off the network. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The address as the list of projects keeps it and people read it (never a password). */
export function addressText(a: PgAddress): string {
  const host = a.host.includes(':') ? `[${a.host}]` : a.host;
  const tls = a.tls === 'verify-full' ? '' : `&sslmode=${a.tls}`;
  return `postgresql://${encodeURIComponent(a.user)}@${host}:${a.port}/${encodeURIComponent(a.database)}?schema=${a.schema}${tls}`;
}

/** The address back from the list of projects (what `addressText` wrote); null for anything else (a file). */
export function addressFrom(location: string): PgAddress | null {
  if (!/^postgres(ql)?:\/\//.test(location)) return null;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  const schema = url.searchParams.get('schema') ?? 'skein';
  url.searchParams.delete('schema');
  try {
    return parseConnection(url.toString(), schema).address;
  } catch {
    return null;
  }
}

/** How TLS is set up for this address: the project's `tls` in ProjectInfo. */
export function tlsState(a: PgAddress): 'verified' | 'unverified' | 'off' {
  return a.tls === 'disable' ? 'off' : a.tls === 'require' ? 'unverified' : 'verified';
}
