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
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackName(url.hostname.replace(/^\[|\]$/g, '').toLowerCase());
  } catch {
    return false;
  }
}

/** Refuses (403) a request whose `Host` or `Origin` is not a loopback name. */
export function loopbackOnly(): Koa.Middleware {
  return async (ctx, next) => {
    const host = ctx.get('Host');
    if (!host || !loopbackName(hostName(host))) {
      throw new ScoreHttpError(403, 'forbidden_host', 'the Score API without score.token answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1])');
    }
    const origin = ctx.get('Origin');
    if (origin && !loopbackOrigin(origin)) {
      throw new ScoreHttpError(403, 'forbidden_origin', 'the Score API without score.token refuses requests from web pages of other origins; set score.token to serve them');
    }
    await next();
  };
}

/** 415 unless the body is declared `application/json` (parameters such as charset allowed). */
export function requireJson(ctx: Koa.Context): void {
  const type = ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ScoreHttpError(415, 'unsupported_media_type', `POST /score needs Content-Type: application/json (got ${type ? `'${type}'` : 'none'})`);
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * `Authorization: Bearer <token>`: the scheme in any case, one space, the exact token (RFC 6750
 * b64token characters only, so no trailing space or second credential), compared in constant time.
 */
export function bearerAuth(token: string): Koa.Middleware {
  const expected = digest(token);
  return async (ctx, next) => {
    const match = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(ctx.get('Authorization'));
    // Hashing both sides first makes the comparison constant-time whatever the lengths.
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new ScoreHttpError(401, 'unauthorized', 'missing or wrong bearer token: send Authorization: Bearer <score.token>');
    }
    await next();
  };
}
