import { AgentgovError, ERROR_CATALOG, errorCodes, isErrorCode } from '@agentgov/core';
import { z } from 'zod';
import { parametersOf, type ParameterDoc } from './parameters.js';
import { defineTool, TOOL_GROUPS, type AnyToolDefinition } from './tool.js';

const input = z
  .object({
    action: z.enum(['tool', 'error']).describe('`tool` documents one tool, `error` decodes one error code'),
    name: z.string().min(1).optional().describe('Tool name; required when action is `tool`'),
    code: z.string().min(1).optional().describe('Error code (E_...); required when action is `error`'),
  })
  .strict();

export interface ToolDoc {
  kind: 'tool';
  name: string;
  group: string;
  read_only: boolean;
  dev_only: boolean;
  brief: string;
  description: string;
  parameters: ParameterDoc[];
  returns: string;
  when_to_use: string;
  related: string[];
  errors: string[];
  example: { tool: string; arguments: Record<string, unknown> };
}

export interface ErrorDoc {
  kind: 'error';
  code: string;
  meaning: string;
  causes: string[];
  remediation: string;
}

/** Codes every tool may answer, whatever it lists itself. */
const GENERIC_ERRORS = ['E_INVALID_ARGUMENT', 'E_INTERNAL'] as const;

export function toolDoc(tool: AnyToolDefinition): ToolDoc {
  const generic: string[] = [
    ...GENERIC_ERRORS,
    ...(tool.needsIndex ? ['E_INDEX_NOT_READY'] : []),
    ...(tool.readOnly ? [] : ['E_READ_ONLY_SESSION']),
  ];
  return {
    kind: 'tool',
    name: tool.name,
    group: tool.group,
    read_only: tool.readOnly,
    dev_only: tool.devOnly ?? false,
    brief: tool.brief,
    description: tool.description,
    parameters: parametersOf(tool.inputSchema),
    returns: tool.returns,
    when_to_use: tool.whenToUse,
    related: tool.related,
    errors: [...new Set([...tool.errors, ...generic])],
    example: { tool: tool.name, arguments: tool.example },
  };
}

function availableTools(tools: readonly AnyToolDefinition[]): Record<string, string[]> {
  const byGroup: Record<string, string[]> = {};
  for (const group of TOOL_GROUPS) {
    const names = tools.filter((t) => t.group === group).map((t) => t.name);
    if (names.length) byGroup[group] = names;
  }
  return byGroup;
}

function renderDoc(doc: ToolDoc | ErrorDoc): string {
  if (doc.kind === 'error')
    return (
      `${doc.code}: ${doc.meaning}\ncauses:\n` +
      `${doc.causes.map((c) => `  - ${c}`).join('\n')}\nremediation: ` +
      `${doc.remediation}`
    );
  const params = doc.parameters.map(
    (p) =>
      `  ${p.name}: ${p.type}${p.required ? ' (required)' : ''}` +
      `${'default' in p ? ` = ${JSON.stringify(p.default)}` : ''} — ` +
      `${p.description}`,
  );
  return [
    `${doc.name} [${doc.group}, ${doc.read_only ? 'read-only' : 'mutating'}${doc.dev_only ? ', dev-mode only' : ''}]`,
    doc.description,
    `parameters:\n${params.join('\n') || '  (none)'}`,
    `returns: ${doc.returns}`,
    `when to use: ${doc.when_to_use}`,
    `related: ${doc.related.join(', ') || 'none'}`,
    `errors: ${doc.errors.join(', ')}`,
    `example: ${JSON.stringify(doc.example.arguments)}`,
  ].join('\n');
}

export const describeTool = defineTool({
  name: 'describe',
  group: 'Introspection',
  readOnly: true,
  brief:
    'Documents one tool of this server (parameters, result, example, errors) or decodes ' +
    'an error code (meaning, causes, remediation). Use it before calling a tool the first time, or to act ' +
    'on an error.',
  description:
    'Documents a tool of this server (parameters with types and defaults, result, ' +
    'when to use it, related tools, errors, an example) or decodes an error code ' +
    '(meaning, causes, remediation).',
  inputSchema: input,
  outputSchema: z.object({
    kind: z.enum(['tool', 'error']),
    // tool
    name: z.string().optional(),
    group: z.string().optional(),
    read_only: z.boolean().optional(),
    dev_only: z.boolean().optional(),
    description: z.string().optional(),
    parameters: z
      .array(
        z
          .object({
            name: z.string(),
            type: z.string(),
            required: z.boolean(),
            default: z.unknown().optional(),
            description: z.string(),
          })
          .passthrough(),
      )
      .optional(),
    returns: z.string().optional(),
    when_to_use: z.string().optional(),
    related: z.array(z.string()).optional(),
    errors: z.array(z.string()).optional(),
    example: z
      .object({ tool: z.string(), arguments: z.record(z.unknown()) })
      .strict()
      .optional(),
    // error
    code: z.string().optional(),
    meaning: z.string().optional(),
    causes: z.array(z.string()).optional(),
    remediation: z.string().optional(),
    cliRemediation: z.string().optional(),
  }),
  returns:
    'For `tool`: name, group, read_only, parameters [{name, type, required, default, ' +
    'description}], returns, when_to_use, related, errors, example. For `error`: ' +
    'code, meaning, causes, remediation.',
  whenToUse: 'Before calling a tool you have not used yet, or when a tool answered an error code you need to act on.',
  related: ['recon_scout'],
  errors: ['E_NOT_FOUND'],
  example: { action: 'tool', name: 'recon_scout' },
  needsIndex: false,
  async handler(args, ctx): Promise<ToolDoc | ErrorDoc> {
    if (args.action === 'error') {
      if (!args.code)
        throw new AgentgovError('E_INVALID_ARGUMENT', 'describe with action "error" needs `code`', {
          issues: [{ path: 'code', message: 'Required when action is error' }],
          available: errorCodes(),
        });
      const code = args.code.trim().toUpperCase();
      if (!isErrorCode(code)) {
        const remediation =
          `Pass one of the codes in details.available (` +
          `${errorCodes().length} codes, all starting with E_), as a tool error's error.code ` +
          `gives it.`;
        throw new AgentgovError(
          'E_NOT_FOUND',
          `unknown error code '${args.code}'`,
          { code: args.code, available: errorCodes() },
          { remediation },
        );
      }
      return { kind: 'error', code, ...ERROR_CATALOG[code], causes: [...ERROR_CATALOG[code].causes] };
    }
    if (!args.name)
      throw new AgentgovError('E_INVALID_ARGUMENT', 'describe with action "tool" needs `name`', {
        issues: [{ path: 'name', message: 'Required when action is tool' }],
        available: availableTools(ctx.tools),
      });
    const tool = ctx.tools.find((t) => t.name === args.name);
    if (!tool) {
      const remediation =
        `This server has no tool '${args.name}'; pass one of: ` + `${ctx.tools.map((t) => t.name).join(', ')}.`;
      throw new AgentgovError(
        'E_NOT_FOUND',
        `unknown tool '${args.name}'`,
        { name: args.name, available: availableTools(ctx.tools) },
        { remediation },
      );
    }
    return toolDoc(tool);
  },
  render: renderDoc,
});
