import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { unparsedFilesMentioning, unparsedWarning, type UnparsedMention } from '../index/parse-health.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fileImpact, symbolImpact, type ImpactResult } from '../recon/impact.js';
import { renderImpact, shapeImpactAnswer, type ImpactAnswer } from '../recon/impact-answer.js';
import { withTypeAwareReferences } from '../recon/type-aware-impact.js';
import { refactorService } from '../refactor/refactor-context.js';
import { budgetParameter, limitParameter, offsetParameter, pageSchema } from './answer-budget.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    target: z.string().min(1).describe('Symbol name (`parse`, `Parser.parse`) or repository-relative file path'),
    justification: z.string().min(1).describe('Why the analysis is run. Recorded with the call'),
    include_comments: z
      .boolean()
      .default(true)
      .describe('Include mentions in comments and strings. They have low certainty'),
    budget: budgetParameter,
    offset: offsetParameter,
    limit: limitParameter,
  })
  .strict();

/** `src/pkg/util.py` → `util`: the word importers and attribute uses of a module spell. */
function moduleStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return base === '__init__' || base === 'index' ? (path.split('/').slice(-2, -1)[0] ?? base) : base;
}

type WithParseHealth<T> = T & { unparsed_files?: UnparsedMention[]; note?: string };

/** Says when files that did not parse mention the target: their references may be missing. */
function withParseHealth<T extends object>(result: T, unparsed: UnparsedMention[], target: string): WithParseHealth<T> {
  if (unparsed.length === 0) return result;
  return { ...result, unparsed_files: unparsed, note: unparsedWarning(unparsed, target)! };
}

/** A target is a file when it looks like a path or names an indexed file; otherwise a symbol. */
function isFileTarget(target: string, index: RepositoryIndex): boolean {
  return target.includes('/') || target.includes('\\') || index.files().some((f) => f.path === target);
}

export const reconImpactTool = defineTool({
  name: 'recon_impact',
  group: 'Discovery',
  readOnly: true,
  brief:
    'Recon impact: every reference to a symbol (callers, usages) or every importer of a file, grouped by ' +
    'file with certainty. Use it before changing a signature, renaming, moving or deleting code.',
  description:
    'Lists every reference to a symbol (or every importer of a file) with its ' +
    'certainty, so you know what a change touches ' +
    ('before making it. Creates no refactor. The answer fits a token budget (default ' +
      '3000, as recon): every count, the ') +
    'files with references grouped and counted, then one page of the references, file by file (files with resolved ' +
    ('references first); what was left out is counted and `offset` (or a larger ' +
      '`budget`, or a narrower target) gets it.'),
  inputSchema: input,
  outputSchema: z
    .object({
      target: z.string(),
      target_kind: z.enum(['symbol', 'file']),
      definitions: z.array(
        z
          .object({
            def_uid: z.string(),
            path: z.string(),
            line: z.number().int(),
            kind: z.string(),
            qualified_name: z.string(),
          })
          .passthrough(),
      ),
      definitions_omitted: z.number().int().optional(),
      files: z.array(
        z
          .object({
            path: z.string(),
            references: z.number().int(),
            high: z.number().int(),
            medium: z.number().int(),
            low: z.number().int(),
          })
          .strict(),
      ),
      files_omitted: z.number().int(),
      page: pageSchema,
      references: z.array(
        z
          .object({
            path: z.string(),
            line: z.number().int(),
            column: z.number().int(),
            match_text: z.string(),
            certainty: z.enum(['high', 'medium', 'low']),
            context: z.string(),
            by: z.enum(['language-service', 'receiver-type']).optional(),
          })
          .passthrough(),
      ),
      importers: z
        .array(z.object({ path: z.string(), line: z.number().int(), specifier: z.string() }).passthrough())
        .optional(),
      counts: z.record(z.number().int()),
      type_aware: z
        .array(
          z
            .object({
              engine: z.string(),
              status: z.enum(['complete', 'deadline', 'failed']),
              definitions: z.number().int(),
              references: z.number().int(),
              confirmed: z.number().int(),
              added: z.number().int(),
              ms: z.number().int(),
              note: z.string().optional(),
            })
            .strict(),
        )
        .optional(),
    })
    .passthrough(),
  returns:
    '`counts` per certainty (all references), `files` [{path, references, high, ' +
    'medium, low}] (files with high references first; `files_omitted` beyond ' +
    'the budget), ' +
    ('`references` — one page, in the order of `files` (path, line, column, match_text, ' +
      'certainty: high = resolved through scope or imports, or found by a language ' +
      'service (`by: "language-service"`, TS/JS) or a typed receiver (`by: "receiver-type"`, ' +
      'Python), medium = same name but unresolved, low = comment or string; context), ') +
    ('`page` {total, offset, shown, omitted, next_offset, budget_tokens, more: ' +
      'how to get the rest}, `definitions` of the symbol (20 at most, `definitions_omitted`), ' +
      '`importers` of the page for a file target, and for TS/JS and Python symbols ' +
      '`type_aware` [{engine, status (complete, or deadline/failed: the answer ' +
      "is the index's alone), definitions, references, confirmed, added, ms, note?}]; ") +
    '`unparsed_files` and `note` when a file that did not parse mentions the target (its references may be missing).',
  whenToUse: 'Before renaming, moving, deleting or changing the signature of a symbol or file.',
  related: ['recon', 'refactor_rename', 'refactor_move'],
  errors: ['E_INDEX_NOT_READY', 'E_NOT_FOUND', 'E_PATH_OUTSIDE_REPO'],
  example: { target: 'parseHeaders', justification: 'changing its return type', include_comments: true, offset: 0 },
  needsIndex: true,
  async handler(args, ctx): Promise<ImpactAnswer> {
    const { index } = ctx;
    const target = args.target.trim();
    const options = { budgetTokens: args.budget, offset: args.offset, limit: args.limit };
    let found: ImpactResult;
    let unparsed: UnparsedMention[];
    if (isFileTarget(target, index)) {
      const path = ctx.resolveRepoPath(target).relative;
      found = fileImpact(index, path);
      unparsed = unparsedFilesMentioning(index, moduleStem(path));
    } else {
      let indexed: ImpactResult;
      try {
        indexed = symbolImpact(index, target, args.include_comments);
      } catch (error) {
        // a definition in a file that did not parse may be what is missing
        const mentions =
          error instanceof AgentgovError && error.code === 'E_NOT_FOUND' ? unparsedFilesMentioning(index, target) : [];
        if (mentions.length === 0) throw error;
        const message =
          `${error instanceof Error ? error.message : String(error)}. ` + `${unparsedWarning(mentions, target)}`;
        throw new AgentgovError('E_NOT_FOUND', message, { target, unparsed_files: mentions });
      }
      const serviceMs = ctx.config.server.impact?.language_service_ms ?? 5000;
      found = await withTypeAwareReferences(indexed, index, refactorService(ctx), serviceMs);
      unparsed = unparsedFilesMentioning(index, target);
    }
    const { answer, text } = shapeImpactAnswer(found, options);
    const shaped = withParseHealth(answer, unparsed, target);
    texts.set(shaped, shaped.note ? `NOTE: ${shaped.note}\n${text}` : text);
    return shaped;
  },
  render(answer) {
    return texts.get(answer) ?? renderImpact(answer);
  },
});

/** The text of an answer is made with it. */
const texts = new WeakMap<ImpactAnswer, string>();
