/**
 * The Score API: a koa app answering `POST /score` and `GET /health`. Strictly read-only — the
 * injected `assess` must write nothing (the pipeline's `assess`, or the bare engine + assess
 * hooks). Every answer to bad input is a 4xx with `{ error: { code, message } }`; no input can
 * produce a 5xx (see the fuzz test).
 */
import type { Assessment, Logger, ToolCallEvent } from '@agentgov/core';
import { homedir } from 'node:os';
import Router from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { toolCallEvent } from '../gate/tool-event.js';
import { parseScoreRequest } from './request.js';
import { bearerAuth, loopbackOnly, requireJson } from './request-guard.js';
import { redactLocalPaths, ScoreHttpError, scoreResponse } from './response.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface ScoreAppOptions {
  assess(event: ToolCallEvent): Promise<Assessment>;
  version: string;
  rulesLoaded(): number;
  /** When set, every request needs `Authorization: Bearer <token>`; when not, a loopback `Host` and `Origin`. */
  token: string | null;
  logger: Logger;
  /** Working directory an assessment judges paths against when the request names none (the server's). */
  cwd?: string;
  /** The home directory answers never show (default: the user's). */
  home?: string;
}

export function createScoreApp(options: ScoreAppOptions): Koa {
  const app = new Koa();
  const startedAt = Date.now();
  const router = new Router();

  router.get('/health', (ctx) => {
    ctx.body = {
      status: 'ok',
      version: options.version,
      uptime_s: Math.round((Date.now() - startedAt) / 1000),
      rules_loaded: options.rulesLoaded(),
    };
  });

  const serverCwd = options.cwd ?? process.cwd();
  const home = options.home ?? homedir();

  router.post('/score', async (ctx) => {
    requireJson(ctx);
    const request = parseScoreRequest(await readBody(ctx));
    // `cwd` (optional) goes into the event exactly as the gate puts the hook's `cwd` there.
    const event = toolCallEvent(
      { framework: 'score-api', ...request },
      { framework: 'score-api', defaultCwd: serverCwd, id: `score-api:${request.session_id}` },
    );
    let assessment: Assessment;
    try {
      assessment = await options.assess(event);
    } catch (error) {
      // An assessment failure is a bug, but the API promises no 5xx: report it as unprocessable.
      options.logger.error(`assessment failed: ${(error as Error).message}`);
      throw new ScoreHttpError(
        422,
        'assessment_failed',
        `the request could not be assessed: ${(error as Error).message}`,
      );
    }
    ctx.body = scoreResponse(assessment, { home, cwd: event.cwd });
  });

  app.use(errorBoundary(options.logger, { home, cwd: serverCwd }));
  app.use(options.token ? bearerAuth(options.token) : loopbackOnly());
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      notImplemented: () => new ScoreHttpError(405, 'method_not_allowed', 'method not allowed on this path'),
      methodNotAllowed: () => new ScoreHttpError(405, 'method_not_allowed', 'method not allowed on this path'),
    }),
  );
  app.silent = true;
  return app;
}

async function readBody(ctx: Koa.Context): Promise<string> {
  try {
    return await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: ctx.request.length, encoding: 'utf8' });
  } catch (error) {
    const e = error as { type?: string; status?: number; message: string };
    if (e.type === 'entity.too.large')
      throw new ScoreHttpError(413, 'payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`);
    throw new ScoreHttpError(400, 'bad_body', `the request body could not be read: ${e.message}`);
  }
}

/** Maps every error to a 4xx JSON body (local paths left out); anything unexpected is logged and answered 400. */
function errorBoundary(logger: Logger, local: { home: string; cwd: string }): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        throw new ScoreHttpError(
          404,
          'not_found',
          `no such endpoint: ${ctx.method} ${ctx.path}; the Score API serves POST /score and GET /health`,
        );
      }
    } catch (error) {
      let failure: ScoreHttpError;
      if (error instanceof ScoreHttpError) failure = error;
      else {
        const status = (error as { status?: number }).status;
        logger.warn(`score request failed: ${(error as Error).message}`);
        failure = new ScoreHttpError(
          status && status >= 400 && status < 500 ? status : 400,
          'bad_request',
          (error as Error).message,
        );
      }
      ctx.status = failure.status;
      if (failure.status === 405 && !ctx.response.get('Allow'))
        ctx.set('Allow', ctx.path === '/score' ? 'POST' : 'GET, HEAD');
      ctx.body = redactLocalPaths({ error: { code: failure.code, message: failure.message } }, local);
    }
  };
}
