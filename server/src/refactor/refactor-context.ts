import { AgentgovError } from '@agentgov/core';
import type { ToolContext } from '../tools/tool.js';
import { refactorServiceOf, type RefactorService } from './refactor-service.js';

/** The server's refactor service for a tool call. */
export function refactorService(ctx: ToolContext): RefactorService {
  return refactorServiceOf(ctx.index, ctx.host, ctx.config.server.refactor?.preview_idle_minutes ?? 30);
}

/** Previews need a `recon` first in the same session (the spec's precondition). */
export function requireRecon(ctx: ToolContext, tool: string): void {
  if (!ctx.session.didRecon)
    throw new AgentgovError('E_RECON_REQUIRED', `${tool} needs a prior recon call in this session`, { tool });
}
