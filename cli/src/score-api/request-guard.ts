/**
 * What a Score API request must show before it is read: the right media type, a loopback
 * `Host`/`Origin` when the API has no token (so a web page, or a DNS-rebound name, cannot post to
 * it), and the bearer token when one is configured — compared in constant time (RFC 6750).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { isLoopback } from './listen.js';
import { ScoreHttpError } from './response.js';

/** `host`, `host:port`, `[v6]` or `[v6]:port` → the host name, lower-cased. */
function hostName(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return value.replace(/:\d+$/, '').toLowerCase();
}

const loopbackName = (name: string): boolean => isLoopback(name) || name.endsWith('.localhost');

/** The origin's host, when it is an http(s) origin on a loopback name; null otherwise (`null`, other sites). */
function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      loopbackName(url.hostname.replace(/^\[|\]$/g, '').toLowerCase())
    );
  } catch {
    return false;
  }
}

/** Which server a guard protects, as its messages name it. */
export interface GuardedService {
  /** e.g. `the Score API`. */
  service: string;
  /** The configuration key of its token, e.g. `score.token`. */
  tokenKey: string;
}

const SCORE_API: GuardedService = { service: 'the Score API', tokenKey: 'score.token' };

/** Refuses (403) a request whose `Host` or `Origin` is not a loopback name. */
export function loopbackOnly({ service, tokenKey }: GuardedService = SCORE_API): Koa.Middleware {
  return async (ctx, next) => {
    const host = ctx.get('Host');
    if (!host || !loopbackName(hostName(host))) {
      throw new ScoreHttpError(
        403,
        'forbidden_host',
        `${service} without ${tokenKey} answers only requests addressed to a loopback ` +
          `name (localhost, 127.0.0.1, [::1])`,
      );
    }
    const origin = ctx.get('Origin');
    if (origin && !loopbackOrigin(origin)) {
      throw new ScoreHttpError(
        403,
        'forbidden_origin',
        `${service} without ${tokenKey} refuses requests from web pages of other ` +
          `origins; set ${tokenKey} to serve them`,
      );
    }
    await next();
  };
}

/** 415 unless the body is declared `application/json` (parameters such as charset allowed). */
export function requireJson(ctx: Koa.Context): void {
  const type = ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ScoreHttpError(
      415,
      'unsupported_media_type',
      `POST /score needs Content-Type: application/json (got ${type ? `'${type}'` : 'none'})`,
    );
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * A check of a presented token against `token` in constant time: both sides are hashed first, whatever their lengths.
 */
export function tokenMatcher(token: string): (given: string | null | undefined) => boolean {
  const expected = digest(token);
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expected);
}

/**
 * `Authorization: Bearer <token>`: the scheme in any case, one space, the exact token (RFC 6750
 * b64token characters only, so no trailing space or second credential), compared in constant time.
 */
export function bearerAuth(token: string, options: GuardedService & { cookie?: string } = SCORE_API): Koa.Middleware {
  const matches = tokenMatcher(token);
  return async (ctx, next) => {
    const match = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(ctx.get('Authorization'));
    // A browser cannot add a header to a page load: a page may carry the token in a cookie instead.
    const cookie = options.cookie ? ctx.cookies.get(options.cookie) : undefined;
    if (!matches(match?.[1]) && !matches(cookie)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new ScoreHttpError(
        401,
        'unauthorized',
        `missing or wrong bearer token: send Authorization: Bearer <${options.tokenKey}>`,
      );
    }
    await next();
  };
}
