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
      properties: {
        code: { type: 'string', pattern: '^E_[A-Z_]+$' },
        message: { type: 'string' },
        remediation: { type: 'string' },
        details: { type: 'object' },
      },
    },
  },
} as const;

/**
 * The JSON Schema published as a tool's `outputSchema`: an object with the result's required fields, or
 * the error envelope's `error`. Only that: the SDK client validates every structured result against it,
 * and every agent session pays for the listing's bytes; the full shape of each result is in `describe`
 * (`returns`) and docs/tools.md.
 */
export function publishedOutputSchema(tool: AnyToolDefinition): Tool['outputSchema'] | undefined {
  if (!tool.outputSchema) return undefined;
  const result = zodToJsonSchema(tool.outputSchema, { $refStrategy: 'none' }) as { required?: string[] };
  return {
    type: 'object',
    anyOf: [{ required: result.required ?? [] }, { required: [...ERROR_ENVELOPE.required] }],
  } as Tool['outputSchema'];
}

/** A JSON Schema object node, as far as the listing reads it. */
interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  [key: string]: unknown;
}

/** A parameter's description in the listing: its first sentence (the rest is in `describe`). */
export function listedParameterDescription(description: string): string {
  const end = description.search(/\.\s/);
  return end < 0 ? description.replace(/\.$/, '') : description.slice(0, end);
}

/**
 * `anyOf: [{type: T, ...keywords}, {type: 'null'}]` as `{type: [T, 'null'], ...keywords}`: the same
 * values (a string, integer or array keyword does not apply to null), in fewer bytes. Other nodes unchanged.
 */
function collapsedNullable(node: SchemaNode): SchemaNode {
  const branches = node['anyOf'];
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const [value, nil] = branches as SchemaNode[];
  if (
    nil?.['type'] !== 'null' ||
    Object.keys(nil).length !== 1 ||
    typeof value?.['type'] !== 'string' ||
    value['anyOf'] ||
    value['type'] === 'object'
  )
    return node;
  const { anyOf: _anyOf, ...rest } = node;
  return { ...value, ...rest, type: [value['type'], 'null'] };
}

/**
 * `minLength: 1` (a non-empty string) is left to the server: it checks every call against the tool's own
 * schema and names the empty key in its error, so an agent loses nothing and every session saves the bytes.
 */
function withoutServerChecks(node: SchemaNode): SchemaNode {
  const { minLength, ...rest } = node;
  const kept: SchemaNode = { ...rest };
  if (minLength !== undefined && minLength !== 1) kept['minLength'] = minLength;
  for (const [key, value] of Object.entries(kept)) {
    if (key === 'properties' && value && typeof value === 'object') {
      kept.properties = Object.fromEntries(
        Object.entries(value as Record<string, SchemaNode>).map(([k, v]) => [k, withoutServerChecks(v)]),
      );
    } else if ((key === 'items' || key === 'anyOf') && value && typeof value === 'object') {
      kept[key] = Array.isArray(value)
        ? value.map((v) => withoutServerChecks(v as SchemaNode))
        : withoutServerChecks(value as SchemaNode);
    }
  }
  return kept;
}

/** A tool's input schema as listed: JSON Schema of its zod schema, each parameter with its first sentence only. */
export function listedInputSchema(tool: AnyToolDefinition): Tool['inputSchema'] {
  const { $schema: _draft, ...full } = toJsonSchemaCompat(tool.inputSchema, {
    strictUnions: true,
    pipeStrategy: 'input',
  }) as SchemaNode;
  const schema = withoutServerChecks(full);
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const listed = collapsedNullable(node);
    if (listed.description) listed.description = listedParameterDescription(listed.description);
    schema.properties![name] = listed;
  }
  return schema as Tool['inputSchema'];
}

/**
 * tools/list, answered from the tool definitions: the SDK's own listing publishes an output schema
 * only as one zod object, which cannot also admit the error envelope. Each tool is listed with its
 * brief (what it does, when to use it); `describe` has the rest.
 */
export function listTools(server: McpServer, tools: readonly AnyToolDefinition[]): void {
  const listed: Tool[] = tools.map((tool) => {
    const output = publishedOutputSchema(tool);
    return {
      name: tool.name,
      description: mcpDescription(tool),
      inputSchema: listedInputSchema(tool),
      ...(output ? { outputSchema: output } : {}),
      annotations: annotationsOf(tool),
    };
  });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
}

/**
 * The MCP annotations of a tool: read-only tools say so; every other tool may change the repository
 * (`destructiveHint`, which MCP reads only when `readOnlyHint` is false, so read-only tools omit it).
 */
export function annotationsOf(tool: AnyToolDefinition): {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  openWorldHint: boolean;
} {
  return { readOnlyHint: tool.readOnly, ...(tool.readOnly ? {} : { destructiveHint: true }), openWorldHint: false };
}

/** The description tools/list carries: the tool's brief. */
export function mcpDescription(tool: AnyToolDefinition): string {
  return tool.brief;
}
