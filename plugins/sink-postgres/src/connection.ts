import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PoolConfig } from 'pg';

/** TLS to the server: `disable`, `require` (encrypted, certificate not checked) or `verify-full`. */
export interface TlsOptions {
  mode?: 'disable' | 'require' | 'verify-full';
  /** PEM files, relative to the config file's directory. */
  ca?: string;
  cert?: string;
  key?: string;
  /** Host name the certificate must name, when it differs from the URL's host. */
  servername?: string;
}

export interface PoolOptions {
  max?: number;
  idle_timeout_ms?: number;
  connect_timeout_ms?: number;
}

export interface ConnectionOptions {
  url: string;
  tls?: TlsOptions;
  pool?: PoolOptions;
  statement_timeout_ms?: number;
  application_name?: string;
}

/** The URL with its password replaced by `***`: the only form of it that logs and errors show. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()])
      if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return '(a postgres URL that does not parse)';
  }
}

/** The password in the URL, if any, decoded (to scrub it from any message that might echo it). */
export function passwordOf(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

function tlsConfig(tls: TlsOptions | undefined, baseDir: string): PoolConfig['ssl'] {
  if (!tls || tls.mode === undefined) return undefined; // the URL's sslmode (if any) decides
  if (tls.mode === 'disable') return false;
  const read = (file: string | undefined) => (file ? readFileSync(resolve(baseDir, file), 'utf8') : undefined);
  const pem = { ca: read(tls.ca), cert: read(tls.cert), key: read(tls.key) };
  const files = Object.fromEntries(Object.entries(pem).filter(([, v]) => v !== undefined));
  if (tls.mode === 'require') return { rejectUnauthorized: false, ...files };
  return { rejectUnauthorized: true, ...files, ...(tls.servername ? { servername: tls.servername } : {}) };
}

/** node-postgres pool settings from the sink options. */
export function poolConfig(options: ConnectionOptions, baseDir: string): PoolConfig {
  const ssl = tlsConfig(options.tls, baseDir);
  return {
    connectionString: options.url,
    ...(ssl === undefined ? {} : { ssl }),
    max: options.pool?.max ?? 4,
    idleTimeoutMillis: options.pool?.idle_timeout_ms ?? 30_000,
    connectionTimeoutMillis: options.pool?.connect_timeout_ms ?? 10_000,
    statement_timeout: options.statement_timeout_ms ?? 30_000,
    application_name: options.application_name ?? 'agentgov',
    keepAlive: true,
  };
}

interface PgLikeError {
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The driver's error under drizzle's wrapper (whose message carries the query and its parameters). */
export function driverError(error: unknown): PgLikeError {
  let current = error as PgLikeError | undefined;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current.code === 'string') return current;
    if (Array.isArray(current.errors) && current.errors.length) return driverError(current.errors[0]);
    current = current.cause as PgLikeError | undefined;
  }
  return (error ?? {}) as PgLikeError;
}

const BY_CODE: Record<string, string> = {
  '28P01': 'authentication failed (wrong password for the user?)',
  '28000': 'the server refused the login (pg_hba.conf has no entry allowing it)',
  '3D000': 'the database does not exist',
  '42501': 'permission denied (the user may not create the schema `agentgov` or write its tables)',
  '57P01': 'the server is shutting down',
  '57P03': 'the server is starting up or in recovery',
  '57014': 'a statement timed out (statement_timeout_ms)',
  '53300': 'the server has too many connections',
  ECONNREFUSED: 'connection refused (is PostgreSQL running and listening there?)',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve (DNS lookup failed)',
  ETIMEDOUT: 'the host does not answer (connection timed out)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOENT: 'no server socket at that path',
};

/**
 * A one-line, secret-free description of a failure: what went wrong at which (redacted) URL,
 * with the SQLSTATE or system code. The password is scrubbed even from the driver's own text.
 */
export function describeFailure(error: unknown, url: string): string {
  const cause = driverError(error);
  const raw = cause.message || (error instanceof Error ? error.message : String(error));
  const known = cause.code
    ? BY_CODE[cause.code]
    : /timeout/i.test(raw) && /connect/i.test(raw)
      ? 'the host does not answer (connection timed out)'
      : undefined;
  // drizzle's wrapper message holds the whole query and its parameters: never show it.
  const detail = raw.startsWith('Failed query:') ? 'query failed' : raw.split('\n')[0]!;
  let message =
    `postgres ${redactUrl(url)}: ${known ? `${known}: ${detail}` : detail}` + `${cause.code ? ` [${cause.code}]` : ''}`;
  const password = passwordOf(url);
  if (password && password.length >= 3) message = message.replaceAll(password, '***');
  return message;
}

/** Errors that a record's own content causes (SQLSTATE classes 22 data exception and 23 integrity). */
export function isDataError(error: unknown): boolean {
  const code = driverError(error).code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}
