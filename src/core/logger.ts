/**
 * The one logger of main's services. Every line passes a redactor: values
 * under secret-looking names are masked, and every secret the key store
 * knows (the API key) is cut out of the text wherever it appears, so neither
 * a log file nor the console can ever hold the key.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug: (message: string, detail?: unknown) => void;
  info: (message: string, detail?: unknown) => void;
  warn: (message: string, detail?: unknown) => void;
  error: (message: string, detail?: unknown) => void;
}

export interface LoggerOptions {
  /** where finished lines go (console, a file, a test array) */
  write: (line: string, level: LogLevel) => void;
  /** the secrets to cut out, asked at each line (the key can change) */
  secrets: () => Iterable<string>;
  level?: LogLevel;
  now?: () => number;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const SECRET_NAME = /(api[-_]?key|x-api-key|^key$|secret|token|password|authorization|cookie)/i;
const REDACTED = '[redacted]';

/** Cut every known secret out of a text. */
export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    out = out.split(s).join(REDACTED);
    // also its URL-encoded and JSON-escaped spellings
    const enc = encodeURIComponent(s);
    if (enc !== s) out = out.split(enc).join(REDACTED);
    const json = JSON.stringify(s).slice(1, -1);
    if (json !== s) out = out.split(json).join(REDACTED);
  }
  return out;
}

function plain(detail: unknown, depth = 0): unknown {
  if (detail instanceof Error) {
    return { name: detail.name, message: detail.message, code: (detail as { code?: unknown }).code };
  }
  if (depth > 6 || detail === null || typeof detail !== 'object') return detail;
  if (Array.isArray(detail)) return detail.map((x) => plain(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(detail)) out[k] = SECRET_NAME.test(k) ? REDACTED : plain(v, depth + 1);
  return out;
}

export function createLogger(opts: LoggerOptions): Logger {
  const min = ORDER[opts.level ?? 'info'];
  const now = opts.now ?? Date.now;
  const log = (level: LogLevel, message: string, detail?: unknown) => {
    if (ORDER[level] < min) return;
    const entry: Record<string, unknown> = { t: new Date(now()).toISOString(), level, msg: message };
    if (detail !== undefined) entry.detail = plain(detail);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ t: entry.t, level, msg: message, detail: '(unserializable)' });
    }
    opts.write(redactText(line, opts.secrets()), level);
  };
  return {
    debug: (m, d) => log('debug', m, d),
    info: (m, d) => log('info', m, d),
    warn: (m, d) => log('warn', m, d),
    error: (m, d) => log('error', m, d),
  };
}

/** A logger that drops everything (for code paths that do not need one). */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
