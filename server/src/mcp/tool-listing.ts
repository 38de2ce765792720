import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { AnyToolDefinition } from '../tools/tool.js';

/**
 * A tool error's structured content (`{ error: { code, message, remediation, details } }`). The SDK's
 * client validates every structured result against the tool's `outputSchema`, errors included, so
 * each published output schema admits this envelope next to the tool's own result.
 */
const ERROR_ENVELOPE = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'remediation', 'details'],
      properties: { code: { type: 'string', pattern: '^E_[A-Z_]+$' }, message: { type: 'string' }, remediation: { type: 'string' }, details: { type: 'object' } },
    },
  },
} as const;

/** The JSON Schema published as a tool's `outputSchema`: its result, or the error envelope. */
export function publishedOutputSchema(tool: AnyToolDefinition): Tool['outputSchema'] | undefined {
  if (!tool.outputSchema) return undefined;
  // No $refs: the result schema is nested under anyOf, where root-relative references would not resolve.
  const { $schema: _draft, ...result } = zodToJsonSchema(tool.outputSchema, { strictUnions: true, pipeStrategy: 'output', $refStrategy: 'none' }) as Record<string, unknown>;
  return { type: 'object', anyOf: [result, ERROR_ENVELOPE] } as Tool['outputSchema'];
}

/**
 * tools/list, answered from the tool definitions: the SDK's own listing publishes an output schema
 * only as one zod object, which cannot also admit the error envelope.
 */
export function listTools(server: McpServer, tools: readonly AnyToolDefinition[]): void {
  const listed: Tool[] = tools.map((tool) => {
    const output = publishedOutputSchema(tool);
    return {
      name: tool.name,
      title: tool.name,
      description: mcpDescription(tool),
      inputSchema: toJsonSchemaCompat(tool.inputSchema, { strictUnions: true, pipeStrategy: 'input' }) as Tool['inputSchema'],
      ...(output ? { outputSchema: output } : {}),
      annotations: annotationsOf(tool),
    };
  });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
}

/** The MCP annotations of a tool: read-only tools say so; every other tool may change the repository. */
export function annotationsOf(tool: AnyToolDefinition): { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean } {
  return { title: tool.name, readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, idempotentHint: tool.readOnly, openWorldHint: false };
}

export function mcpDescription(tool: AnyToolDefinition): string {
  return `${tool.description}\n\nReturns: ${tool.returns}\nWhen to use: ${tool.whenToUse}\nRelated: ${tool.related.join(', ') || 'none'}`;
}
