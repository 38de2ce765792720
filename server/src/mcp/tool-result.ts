import { AgentgovError } from '@agentgov/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodError } from 'zod';
import { renderValue } from './render.js';

/** A tool error as an MCP error result: `structuredContent` is `{ error: { code, message, remediation, details } }`. */
export function errorResult(error: AgentgovError): CallToolResult {
  const body = error.toJSON();
  const details = Object.keys(error.details).length ? `\ndetails:\n${renderValue(error.details, '  ')}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `error [${error.code}]: ${error.message}\nhint: ${error.remediation}${details}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

export function successResult(structured: object, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
}

/** Every zod issue becomes one entry naming the parameter, so the agent can fix all of them at once. */
export function invalidArguments(tool: string, error: ZodError): AgentgovError {
  const issues = error.issues.map((issue) => {
    const unknown = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
    return { path: issue.path.join('.') || (unknown ? unknown.join(', ') : '(arguments)'), code: issue.code, message: issue.message, ...(unknown ? { unknown_keys: unknown } : {}) };
  });
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AgentgovError('E_INVALID_ARGUMENT', `invalid arguments for ${tool}: ${summary}`, { tool, issues });
}

/** Anything thrown that is not an AgentgovError is a bug: E_INTERNAL, with the message kept. */
export function asAgentgovError(error: unknown): AgentgovError {
  if (error instanceof AgentgovError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentgovError('E_INTERNAL', `internal error: ${message}`, {}, { cause: error });
}
