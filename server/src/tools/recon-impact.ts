import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { renderValue } from '../mcp/render.js';
import { unparsedFilesMentioning, unparsedWarning, type UnparsedMention } from '../index/parse-health.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fileImpact, symbolImpact, type ImpactResult } from '../recon/impact.js';
import { withTypeAwareReferences } from '../recon/type-aware-impact.js';
import { refactorService } from '../refactor/refactor-context.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    target: z.string().min(1).describe('Symbol name (`parse`, `Parser.parse`) or repository-relative file path'),
    justification: z.string().min(1).describe('Why the analysis is run (recorded with the call)'),
    include_comments: z.boolean().default(true).describe('Include mentions in comments and strings (low certainty)'),
  })
  .strict();

/** `src/pkg/util.py` → `util`: the word importers and attribute uses of a module spell. */
function moduleStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return base === '__init__' || base === 'index' ? path.split('/').slice(-2, -1)[0] ?? base : base;
}

function withParseHealth(result: ImpactResult, unparsed: UnparsedMention[], target: string): ImpactResult {
  if (unparsed.length === 0) return result;
  return { ...result, unparsed_files: unparsed, note: unparsedWarning(unparsed, target)! };
}

function renderImpact(result: ImpactResult): string {
  const text = renderValue(result);
  return result.note ? `NOTE: ${result.note}\n${text}` : text;
}

/** A target is a file when it looks like a path or names an indexed file; otherwise a symbol. */
function isFileTarget(target: string, index: RepositoryIndex): boolean {
  return target.includes('/') || target.includes('\\') || index.files().some((f) => f.path === target);
}

export const reconImpactTool = defineTool({
  name: 'recon_impact',
  group: 'Discovery',
  readOnly: true,
  description: 'Lists every reference to a symbol (or every importer of a file) with its certainty, so you know what a change touches before making it. Creates no refactor.',
  inputSchema: input,
  outputSchema: z.object({
    target: z.string(),
    target_kind: z.enum(['symbol', 'file']),
    definitions: z.array(z.object({ def_uid: z.string(), path: z.string(), line: z.number().int(), kind: z.string(), qualified_name: z.string() }).passthrough()),
    references: z.array(
      z.object({ path: z.string(), line: z.number().int(), column: z.number().int(), match_text: z.string(), certainty: z.enum(['high', 'medium', 'low']), context: z.string(), by: z.literal('language-service').optional() }).passthrough(),
    ),
    importers: z.array(z.object({ path: z.string(), line: z.number().int(), specifier: z.string() }).passthrough()).optional(),
    counts: z.record(z.number().int()),
    type_aware: z
      .array(
        z.object({
          engine: z.string(),
          status: z.enum(['complete', 'deadline', 'failed']),
          definitions: z.number().int(),
          references: z.number().int(),
          confirmed: z.number().int(),
          added: z.number().int(),
          ms: z.number().int(),
          note: z.string().optional(),
        }).strict(),
      )
      .optional(),
  }).passthrough(),
  returns:
    '`references` (path, line, column, match_text, certainty: high = resolved through scope or imports, or found by a language service (`by: "language-service"`, TypeScript/JavaScript), medium = same name but unresolved, low = comment or string; context), `definitions` of the symbol, `importers` for a file target, `counts` per certainty, and for TS/JS symbols `type_aware` [{engine, status (complete, or deadline/failed: the answer is the index\'s alone), definitions, references, confirmed, added, ms, note?}]; `unparsed_files` and `note` when a file that did not parse mentions the target (its references may be missing).',
  whenToUse: 'Before renaming, moving, deleting or changing the signature of a symbol or file.',
  related: ['recon', 'refactor_rename', 'refactor_move'],
  errors: ['E_INDEX_NOT_READY', 'E_NOT_FOUND', 'E_PATH_OUTSIDE_REPO'],
  example: { target: 'parseHeaders', justification: 'changing its return type', include_comments: true },
  needsIndex: true,
  async handler(args, ctx): Promise<ImpactResult> {
    const { index } = ctx;
    const target = args.target.trim();
    if (isFileTarget(target, index)) {
      const path = ctx.resolveRepoPath(target).relative;
      return withParseHealth(fileImpact(index, path), unparsedFilesMentioning(index, moduleStem(path)), path);
    }
    let indexed: ImpactResult;
    try {
      indexed = symbolImpact(index, target, args.include_comments);
    } catch (error) {
      // a definition in a file that did not parse may be what is missing
      const unparsed = error instanceof AgentgovError && error.code === 'E_NOT_FOUND' ? unparsedFilesMentioning(index, target) : [];
      if (unparsed.length === 0) throw error;
      throw new AgentgovError('E_NOT_FOUND', `${error instanceof Error ? error.message : String(error)}. ${unparsedWarning(unparsed, target)}`, { target, unparsed_files: unparsed });
    }
    const typed = await withTypeAwareReferences(indexed, index, refactorService(ctx), ctx.config.server.impact?.language_service_ms ?? 5000);
    return withParseHealth(typed, unparsedFilesMentioning(index, target), target);
  },
  render: (result) => renderImpact(result),
});
