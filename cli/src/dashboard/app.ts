/**
 * The dashboard: a koa app serving the page (assets built by scripts/build-dashboard.mjs) and the
 * read-only JSON API under /api that the page and scripts use. It answers GET and HEAD only; bad
 * input is a 400 naming the parameter, a store that fails is a 503, and nothing is ever a 500.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { GovernanceReader, Logger } from '@agentgov/core';
import Router from '@koa/router';
import Koa from 'koa';
import { bearerAuth, loopbackOnly, tokenMatcher } from '../score-api/request-guard.js';
import { ScoreHttpError as HttpError } from '../score-api/response.js';
import {
  FILTER_PARAMETERS,
  FilterError,
  PAGE_PARAMETERS,
  parseFilter,
  parsePage,
  pathId,
  refuseUnknown,
} from './filters.js';

export interface DashboardAppOptions {
  reader: GovernanceReader;
  /** The directory holding the built page (index.html, app.js, app.css). */
  assetsDir: string;
  /** When set, every request needs the token (bearer header, or the cookie `/login` sets). */
  token: string | null;
  logger: Logger;
  version: string;
}

const TOKEN_COOKIE = 'agentgov_dashboard';
const GUARD = { service: 'the dashboard', tokenKey: 'dashboard.token', cookie: TOKEN_COOKIE };

/** The page's routes: each is a stable URL the page renders itself, so a link to a call can be shared. */
const PAGE_ROUTES = ['/', '/sessions', '/sessions/:framework/:session', '/calls/:id'];

const ASSETS: Record<string, string> = {
  '/assets/app.js': 'application/javascript; charset=utf-8',
  '/assets/app.css': 'text/css; charset=utf-8',
};

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const files = { '/index.html': 'text/html; charset=utf-8', ...ASSETS };
  for (const [path, type] of Object.entries(files)) {
    let body: Buffer;
    try {
      body = readFileSync(`${dir}${path.replace(/^\/assets/, '')}`);
    } catch (error) {
      throw new Error(`the dashboard page is not built (${(error as Error).message}): run \`npm run build\``, {
        cause: error,
      });
    }
    assets.set(path, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return assets;
}

export function createDashboardApp(options: DashboardAppOptions): Koa {
  const { reader } = options;
  const assets = loadAssets(options.assetsDir);
  const app = new Koa();
  const router = new Router();

  const query = (ctx: Koa.Context, allowed: readonly string[]): URLSearchParams => {
    const params = new URLSearchParams(ctx.querystring);
    refuseUnknown(params, allowed);
    return params;
  };

  router.get('/api/facets', async (ctx) => {
    query(ctx, []);
    ctx.body = { source: reader.source, version: options.version, ...(await reader.facets()) };
  });
  router.get('/api/overview', async (ctx) => {
    const filter = parseFilter(query(ctx, FILTER_PARAMETERS));
    ctx.body = { filter, ...(await reader.overview(filter)) };
  });
  router.get('/api/sessions', async (ctx) => {
    const params = query(ctx, [...FILTER_PARAMETERS, ...PAGE_PARAMETERS]);
    const filter = parseFilter(params);
    const page = parsePage(params);
    ctx.body = { filter, ...page, ...(await reader.sessions(filter, page)) };
  });
  router.get('/api/sessions/:framework/:session', async (ctx) => {
    const page = parsePage(query(ctx, PAGE_PARAMETERS));
    const answer = await reader.session(
      pathId('framework', ctx.params.framework!),
      pathId('session', ctx.params.session!),
      page,
    );
    if (!answer) throw new HttpError(404, 'not_found', `no session ${ctx.params.session} of ${ctx.params.framework}`);
    ctx.body = { ...page, ...answer };
  });
  router.get('/api/calls/:id', async (ctx) => {
    query(ctx, []);
    const call = await reader.call(pathId('id', ctx.params.id!));
    if (!call) throw new HttpError(404, 'not_found', `no call ${ctx.params.id}`);
    ctx.body = call;
  });

  const serve = (ctx: Koa.Context, asset: Asset) => {
    ctx.set('ETag', asset.etag);
    ctx.set('Cache-Control', 'no-cache');
    if (ctx.get('If-None-Match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
  for (const route of PAGE_ROUTES) router.get(route, (ctx) => serve(ctx, assets.get('/index.html')!));
  for (const path of Object.keys(ASSETS)) router.get(path, (ctx) => serve(ctx, assets.get(path)!));
  if (options.token) {
    const matches = tokenMatcher(options.token);
    // A page load cannot carry a header: /login?token=… sets the token as a same-site cookie once.
    router.get('/login', (ctx) => {
      const given = new URLSearchParams(ctx.querystring).get('token');
      if (!matches(given))
        throw new HttpError(401, 'unauthorized', 'missing or wrong token: open /login?token=<dashboard.token>');
      ctx.cookies.set(TOKEN_COOKIE, given, { httpOnly: true, sameSite: 'strict', overwrite: true });
      ctx.redirect('/');
    });
  }

  app.use(errorBoundary(options.logger));
  app.use(securityHeaders());
  app.use(async (ctx, next) => {
    try {
      decodeURIComponent(ctx.path);
    } catch {
      throw new HttpError(400, 'bad_request', 'the path is not valid percent-encoded UTF-8');
    }
    await next();
  });
  app.use(readOnly());
  app.use(async (ctx, next) => {
    // /login carries the token itself; everything else needs it (or a loopback Host without one).
    if (options.token && ctx.path === '/login') return next();
    return (options.token ? bearerAuth(options.token, GUARD) : loopbackOnly(GUARD))(ctx, next);
  });
  app.use(router.routes());
  app.silent = true;
  return app;
}

/** GET and HEAD only: the dashboard writes nothing, so nothing else has a meaning here. */
function readOnly(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new HttpError(
        405,
        'method_not_allowed',
        `the dashboard is read-only: ${ctx.method} is not allowed (GET, HEAD)`,
      );
    }
    await next();
  };
}

function securityHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    await next();
  };
}

/** Every failure as `{ error: { code, message } }`: 4xx for the request, 503 when the store fails. */
function errorBoundary(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null)
        throw new HttpError(404, 'not_found', `no such page or endpoint: ${ctx.path}`);
    } catch (error) {
      let status: number;
      let code: string;
      let message = (error as Error).message;
      if (error instanceof HttpError) ({ status, code } = error);
      else if (error instanceof FilterError) [status, code] = [400, 'bad_parameter'];
      else if (error instanceof URIError || (error as { status?: number }).status === 400)
        [status, code] = [400, 'bad_request'];
      else {
        logger.warn(`dashboard request ${ctx.method} ${ctx.url} failed: ${message}`);
        [status, code, message] = [503, 'store_unavailable', `the governance store could not answer: ${message}`];
      }
      ctx.status = status;
      ctx.body = { error: { code, message } };
    }
  };
}
