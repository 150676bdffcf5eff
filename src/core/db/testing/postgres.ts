/**
 * A throwaway PostgreSQL cluster for the archive's tests, the e2e suite and the bench: initdb into a temporary
 * folder, started on a free loopback port (never any other address) as a non-root user (the `postgres` system
 * user when run as root: PostgreSQL refuses to run as root), password authentication over TCP, stopped and
 * removed after. Debian's `postgresql` package (what .ci/run installs) or any initdb on the PATH.
 *
 * Without PostgreSQL a test that needs it is skipped with a one-line reason, except in CI (`CI` set), where it
 * must fail instead: `postgresUnavailable()`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { PgConnection } from '../postgres/connection';

export interface TestCluster {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** this cluster as a team project's connection (sslmode=disable: a loopback server; `tls` starts one with TLS) */
  connection: (schema: string, over?: Partial<PgConnection>) => PgConnection;
  /** `postgresql://user:password@127.0.0.1:port/postgres?sslmode=disable` */
  url: string;
  /** runs SQL through psql as the cluster's superuser; returns its output */
  psql: (sql: string) => string;
  /** runs a SQL file (a pg_dump) through psql as the cluster's superuser */
  restore: (file: string) => void;
  /** the server goes away (fast shutdown, data kept) and comes back on the same port */
  pause: () => void;
  resume: () => void;
  stop: () => void;
}

/** The folder holding initdb, pg_ctl and psql, or null. */
function binDir(): string | null {
  const fromEnv = process.env.SKEIN_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'initdb');
    if (existsSync(candidate)) return dirname(realpathSync(candidate));
  }
  // Debian's own place (not on the PATH), newest version first
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/** The user the cluster runs as when this process is root: PostgreSQL will not run as root. */
function runAs(): { uid: number; gid: number; name: string } | null {
  if (!isRoot()) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid, name: 'postgres' };
  } catch {
    return null;
  }
}

/** Why PostgreSQL tests cannot run here (one line), or null when they can. */
function postgresUnavailable(): string | null {
  const bin = binDir();
  if (!bin) return 'PostgreSQL is not installed (apt-get install postgresql, or put initdb on the PATH)';
  if (isRoot() && !runAs()) return 'running as root, and there is no `postgres` user to run PostgreSQL as';
  return null;
}

/** For a test that needs PostgreSQL: the reason to skip it, or null; in CI a missing PostgreSQL is an error. */
export function skipWithoutPostgres(): string | null {
  const reason = postgresUnavailable();
  if (reason && process.env.CI) throw new Error(`CI needs PostgreSQL for the archive's tests: ${reason}`);
  return reason;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const running = new Set<() => void>();
let exitHook = false;

export interface ClusterOptions {
  /** fsync and synchronous commits on, as a real server (the bench); off by default (tests: speed) */
  durable?: boolean;
  /** serve TLS with a self-signed certificate (tests of the TLS checks) */
  tls?: boolean;
  /** extra `-c name=value` settings */
  settings?: Record<string, string>;
}

export async function startTestCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const bin = binDir();
  const reason = postgresUnavailable();
  if (!bin || reason) throw new Error(`PostgreSQL cannot start here: ${reason ?? 'no initdb'}`);
  const owner = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'skein-pg-'));
  const data = join(dir, 'data');
  const password = randomBytes(18).toString('base64url');
  const user = 'skein';
  writeFileSync(join(dir, 'pw'), password, { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(join(dir, 'pw'), owner.uid, owner.gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = owner
      ? ['runuser', ['-u', owner.name, '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    const r = spawnSync(cmd, argv, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  run('initdb', [
    '-D',
    data,
    '-U',
    user,
    `--pwfile=${join(dir, 'pw')}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    max_connections: '100',
    ...(options.durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ...options.settings,
  };
  if (options.tls) {
    const cert = join(data, 'server.crt');
    const key = join(data, 'server.key');
    execFileSync(
      'openssl',
      ['req', '-new', '-x509', '-days', '2', '-nodes', '-subj', '/CN=skein-test', '-out', cert, '-keyout', key],
      { stdio: 'ignore' },
    );
    if (owner) {
      chownSync(cert, owner.uid, owner.gid);
      chownSync(key, owner.uid, owner.gid);
    }
    execFileSync('chmod', ['600', key]);
    Object.assign(settings, { ssl: 'on', ssl_cert_file: cert, ssl_key_file: key });
  }
  let port = 0;
  const start = () => {
    const flags = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', flags, 'start']);
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      start();
      break;
    } catch (e) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    running.delete(stop);
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(stop);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const s of [...running]) s();
    });
  }
  const host = '127.0.0.1';
  const database = 'postgres';
  const psqlTo = ['-h', dir, '-p', String(port), '-U', user, '-d', database, '-X', '-q', '-v', 'ON_ERROR_STOP=1'];
  return {
    host,
    port,
    user,
    password,
    database,
    url: `postgresql://${user}:${password}@${host}:${port}/${database}?sslmode=disable`,
    connection: (schema, over = {}) => ({
      host,
      port,
      database,
      user,
      password,
      tls: 'disable',
      schema,
      ...over,
    }),
    pause: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: start,
    psql: (sql) => run('psql', [...psqlTo, '-A', '-t', '-c', sql]),
    restore: (file) => {
      // read by the cluster's own user, from its folder
      const copy = join(dir, 'restore.sql');
      copyFileSync(file, copy);
      if (owner) chownSync(copy, owner.uid, owner.gid);
      run('psql', [...psqlTo, '-f', copy]);
      rmSync(copy, { force: true });
    },
    stop,
  };
}
