import type { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

/** One parameter as `describe` shows it, derived from the tool's zod schema (never written twice). */
export interface ParameterDoc {
  name: string;
  type: string;
  required: boolean;
  default?: unknown;
  description: string;
}

interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  minimum?: number;
  maximum?: number;
}

/** The JSON Schema clients see in tools/list. */
export function jsonSchemaOf(schema: z.ZodTypeAny): JsonSchemaNode {
  return zodToJsonSchema(schema, { target: 'jsonSchema7', $refStrategy: 'none' }) as JsonSchemaNode;
}

function typeOf(node: JsonSchemaNode): string {
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (node.anyOf) return node.anyOf.map(typeOf).join(' | ');
  const base = Array.isArray(node.type) ? node.type.filter((t) => t !== 'null').join(' | ') : (node.type ?? 'any');
  if (base === 'array') return `${node.items ? typeOf(node.items) : 'any'}[]`;
  const range =
    node.minimum !== undefined || node.maximum !== undefined ? ` (${node.minimum ?? ''}..${node.maximum ?? ''})` : '';
  return `${base}${range}`;
}

export function parametersOf(schema: z.ZodTypeAny): ParameterDoc[] {
  const root = jsonSchemaOf(schema);
  const required = new Set(root.required ?? []);
  return Object.entries(root.properties ?? {}).map(([name, node]) => ({
    name,
    type: typeOf(node),
    required: required.has(name) && node.default === undefined,
    ...(node.default !== undefined ? { default: node.default } : {}),
    description: node.description ?? '',
  }));
}
