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
    return {
      path: issue.path.join('.') || (unknown ? unknown.join(', ') : '(arguments)'),
      code: issue.code,
      message: issue.message,
      ...(unknown ? { unknown_keys: unknown } : {}),
    };
  });
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AgentgovError('E_INVALID_ARGUMENT', `invalid arguments for ${tool}: ${summary}`, { tool, issues });
}

/**
 * The error with the repository's absolute root taken out of its message and details: a path
 * inside the repository becomes repo-relative, the root itself `<repository root>`. An agent
 * names paths relative to the repository; where the repository lives on this machine (a home
 * directory, a user name) is not its business.
 */
export function withoutRepoRoot(error: AgentgovError, root: string): AgentgovError {
  if (root.length <= 1) return error;
  const trimmed = root.replace(/\/+$/, '');
  const redact = (text: string): string => text.split(`${trimmed}/`).join('').split(trimmed).join('<repository root>');
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  const message = redact(error.message);
  const details = walk(error.details) as Record<string, unknown>;
  const specific = error.specificRemediation;
  const remediation = specific.remediation === undefined ? undefined : redact(specific.remediation);
  if (
    message === error.message &&
    remediation === specific.remediation &&
    JSON.stringify(details) === JSON.stringify(error.details)
  )
    return error;
  return new AgentgovError(error.code, message, details, {
    cause: error,
    ...(remediation === undefined ? {} : { remediation }),
  });
}

/** Anything thrown that is not an AgentgovError is a bug: E_INTERNAL, with the message kept. */
export function asAgentgovError(error: unknown): AgentgovError {
  if (error instanceof AgentgovError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentgovError('E_INTERNAL', `internal error: ${message}`, {}, { cause: error });
}
