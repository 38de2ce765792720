import { AgentgovError } from '@agentgov/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterToolCall } from '../memory.js';
import type { AnyToolDefinition, ToolContext } from '../tools/tool.js';
import { waitForIndex, type IndexGate } from './index-wait.js';
import { renderValue } from './render.js';
import { annotationsOf, listTools, mcpDescription } from './tool-listing.js';
import { asAgentgovError, errorResult, invalidArguments, successResult, withoutRepoRoot } from './tool-result.js';

/** What the dispatcher needs per call: a context bound to the session and the request. */
export type ContextFactory = (call: {
  tool: string;
  signal: AbortSignal;
  progressToken: string | number | undefined;
  sendProgress: ToolContext['progress'];
}) => ToolContext;

/** Answer at once while the index builds (no failure known). */
const NO_WAIT: IndexGate = { failure: () => undefined, waitMs: 0, progressIntervalMs: 250 };

/** Runs one tool call to completion; every failure becomes a catalog error result, never a thrown error. */
export async function runTool(
  tool: AnyToolDefinition,
  rawArgs: unknown,
  ctx: ToolContext,
  gate: IndexGate = NO_WAIT,
): Promise<CallToolResult> {
  try {
    const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) throw invalidArguments(tool.name, parsed.error);
    for (const name of tool.pathArguments ?? []) {
      const value = (parsed.data as Record<string, unknown>)[name];
      for (const path of Array.isArray(value) ? value : [value])
        if (typeof path === 'string') ctx.resolveRepoPath(path);
    }
    if (!tool.readOnly && ctx.session.readOnly && (tool.mutates?.(parsed.data) ?? true)) {
      throw new AgentgovError(
        'E_READ_ONLY_SESSION',
        `${tool.name} changes the repository, but this session is research-only`,
        { tool: tool.name },
      );
    }
    if (tool.needsIndex) {
      const started = Date.now();
      const ready = gate.failure() === undefined && (await waitForIndex(ctx, gate));
      const failure = gate.failure();
      if (failure)
        throw new AgentgovError('E_INTERNAL', `the repository index could not be built: ${failure.message}`, {
          index: 'failed',
        });
      if (!ready) {
        const { done, total, phase } = ctx.index.progress();
        const waited_ms = Date.now() - started;
        const waited = gate.waitMs > 0 ? `; waited ${(waited_ms / 1000).toFixed(1)} s` : '';
        throw new AgentgovError(
          'E_INDEX_NOT_READY',
          `the repository index is still being built (${done}/${total} files${waited})`,
          { progress: { done, total, phase }, waited_ms },
        );
      }
    }
    const result = (await tool.handler(parsed.data, ctx)) as object;
    const text = tool.render ? tool.render(result) : renderValue(result);
    return successResult(result, text);
  } catch (error) {
    const failure = asAgentgovError(error);
    if (failure.code === 'E_INTERNAL')
      ctx.logger.error(`${tool.name} failed`, { error: error instanceof Error ? error.stack : String(error) });
    else ctx.logger.debug(`${tool.name} answered ${failure.code}`, { message: failure.message });
    return errorResult(withoutRepoRoot(failure, ctx.repoRoot));
  }
}

/**
 * Registers the tools on an McpServer. tools/list publishes each strict zod schema as JSON Schema
 * (through the SDK); tools/call is dispatched here instead of through the SDK's validation, so a
 * bad argument gets the catalog's `E_INVALID_ARGUMENT` with every issue in `details`, not the SDK's
 * generic text.
 */
export function registerTools(
  server: McpServer,
  tools: AnyToolDefinition[],
  makeContext: ContextFactory,
  gate: IndexGate = NO_WAIT,
): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.name,
        description: mcpDescription(tool),
        inputSchema: tool.inputSchema,
        annotations: annotationsOf(tool),
      },
      async () => {
        throw new Error('unreachable: tools/call is dispatched by registerTools');
      },
    );
  }
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = byName.get(name);
    const progressToken = request.params._meta?.progressToken;
    const sendProgress: ToolContext['progress'] = async (done, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress: done,
          ...(total !== undefined ? { total } : {}),
          ...(message ? { message } : {}),
        },
      });
    };
    const ctx = makeContext({ tool: name, signal: extra.signal, progressToken, sendProgress });
    if (!tool) {
      const remediation =
        `This server has no tool '${name}'. Call one it lists (tools/list): ` +
        `${[...byName.keys()].join(', ')}; describe with action "tool" documents ` +
        `each.`;
      return errorResult(
        new AgentgovError(
          'E_NOT_FOUND',
          `unknown tool '${name}'`,
          { tool: name, available: [...byName.keys()] },
          { remediation },
        ),
      );
    }
    try {
      return await runTool(tool, request.params.arguments, ctx, gate);
    } finally {
      afterToolCall();
    }
  });
  listTools(server, tools);
}
