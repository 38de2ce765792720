import { z } from 'zod';
import { parseQuery } from '../recon/query.js';
import {
  DEFAULT_RECON_BUDGET_TOKENS,
  MAX_RECON_BUDGET_TOKENS,
  MIN_RECON_BUDGET_TOKENS,
  shapeReconAnswer,
  type ReconAnswer,
} from '../recon/answer.js';
import { nearestNames } from '../recon/nearest-names.js';
import { runRecon } from '../recon/recon.js';
import { retrievalIndexOf } from '../recon/retrieval-index.js';
import { runnerOf } from '../recon/runner-of.js';
import { defineTool } from './tool.js';

const stringOrList = (what: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .default([])
    .describe(what);

const input = z
  .object({
    task: z.string().describe('What you are about to do, in plain words. Name symbols and files when you know them'),
    seeds: stringOrList('Symbol names to prioritise'),
    pins: stringOrList('Files whose definitions are always included'),
    read_only: z
      .boolean()
      .nullable()
      .default(null)
      .describe(
        'true = research only, false = read-write, null keeps the session intent. ' +
          'Mutating tools are blocked in a research-only session',
      ),
    budget: z
      .number()
      .int()
      .min(MIN_RECON_BUDGET_TOKENS)
      .max(MAX_RECON_BUDGET_TOKENS)
      .default(DEFAULT_RECON_BUDGET_TOKENS)
      .describe(
        `Answer size in tokens. ≈ characters / 4. Full code for the best results, ` +
          `signatures below, names only past that; the answer says what was cut`,
      ),
    verbose: z
      .boolean()
      .default(false)
      .describe(
        'Full retrieval diagnostics. Per-retriever contributions, pool and gate details beyond the compact metrics',
      ),
  })
  .strict();

export const reconTool = defineTool({
  name: 'recon',
  group: 'Discovery',
  readOnly: true,
  brief:
    'Finds the code for a task: ranked definitions with their code, ' +
    'and a gate saying whether the task fits the codebase. Use it before ' +
    'reading or editing code, to locate where something is implemented; required before refactor_rename ' +
    'and refactor_move.',
  description:
    'Finds the code that matters for a task: ranked definitions with code for ' +
    'the top half and signature/docstring for the rest, plus a quality gate (OK, ' +
    'UNSAT, BROAD, AMBIG) saying whether the task fits the codebase.',
  inputSchema: input,
  outputSchema: z.object({
    gate: z.enum(['OK', 'UNSAT', 'BROAD', 'AMBIG']),
    hint: z.string(),
    results: z.array(
      z
        .object({
          rank: z.number().int(),
          path: z.string(),
          start_line: z.number().int(),
          end_line: z.number().int(),
          kind: z.string(),
          name: z.string(),
          qualified_name: z.string(),
          def_uid: z.string(),
          score: z.number(),
          why: z.array(z.string()),
          signature: z.string().nullable().optional(),
          doc: z.string().nullable().optional(),
          detail: z.enum(['code', 'signature', 'listed']),
          code_until_line: z.number().int().optional(),
        })
        .strict(),
    ),
    budget: z
      .object({
        tokens: z.number().int(),
        used_tokens: z.number().int(),
        code: z.number().int(),
        signature: z.number().int(),
        listed: z.number().int(),
        omitted: z.number().int(),
        more: z.string().optional(),
      })
      .strict(),
    missing: z.array(z.string()).optional(),
    nearest: z.record(z.array(z.string())).optional(),
    ambiguous: z
      .object({ term: z.string(), subsystems: z.array(z.string()) })
      .strict()
      .optional(),
    metrics: z
      .object({
        pool: z.object({ candidates: z.number().int(), kept: z.number().int(), results: z.number().int() }).strict(),
        timings_ms: z.record(z.number()),
        gate: z
          .object({
            mentions: z.number().int(),
            mentions_missing: z.number().int(),
            strong: z.number().int(),
            spread: z.number().int(),
            flatness: z.number(),
            ambiguous: z.boolean(),
          })
          .passthrough(),
        cutoff: z.string(),
      })
      .passthrough(),
    diagnostics: z.object({}).passthrough().optional(),
  }),
  returns:
    '`gate` (OK | UNSAT | BROAD | AMBIG), `hint` (the next step), `results` (ranked ' +
    'spans: path, lines, kind, qualified name, why it was found, signature, doc; ' +
    'the text shows the code of the best ones as numbered fenced blocks), `budget` ' +
    '(what fit, what was cut and how to get more); `missing` names for UNSAT, ' +
    'the `ambiguous` term for AMBIG; `metrics` on every answer ' +
    ("(pool {candidates, kept, results}, timings_ms per stage and total, the gate's " +
      "features, the cutoff's reason); `diagnostics` (per-retriever timings and " +
      'contributions, full gate features) only with verbose.'),
  whenToUse:
    'Before reading or editing code for a task; required before refactor_rename ' +
    'and refactor_move. Set read_only to declare whether the session will change ' +
    'files.',
  related: ['recon_scout', 'recon_impact', 'refactor_rename'],
  errors: ['E_INDEX_NOT_READY', 'E_PATH_OUTSIDE_REPO'],
  example: { task: 'make the retry delay of fetchWithRetry configurable', seeds: ['fetchWithRetry'], read_only: false },
  needsIndex: true,
  async handler(args, ctx): Promise<ReconAnswer> {
    const view = retrievalIndexOf(ctx.index);
    const query = parseQuery(args.task, args.seeds, args.pins, view);
    query.pins = query.pins.map((pin) => ctx.resolveRepoPath(pin).relative);
    const result = await runRecon(query, runnerOf(ctx.host), view, {
      maxChars: args.budget * 4,
      maxLinesPerSnippet: 80,
    });
    if (args.read_only !== null) ctx.session.readOnly = args.read_only;
    ctx.session.didRecon = true;
    const nearest = result.gate === 'UNSAT' ? nearestNames(result.metrics.gate_features.mentions_missing, view) : {};
    const { answer, text } = shapeReconAnswer(result, {
      budgetTokens: args.budget,
      verbose: args.verbose,
      fenceLanguage,
      nearest,
    });
    texts.set(answer, text);
    return answer;
  },
  render(answer) {
    return texts.get(answer) ?? shapeFallback(answer);
  },
});

/** The text of an answer is made with it (it needs the code, which the structured answer leaves out). */
const texts = new WeakMap<ReconAnswer, string>();

function shapeFallback(answer: ReconAnswer): string {
  return [
    `gate: ${answer.gate}`,
    `hint: ${answer.hint}`,
    ...answer.results.map((r) => `${r.rank}. ${r.path}:${r.start_line}-${r.end_line} ${r.kind} ${r.qualified_name}`),
  ].join('\n');
}

const FENCES: Record<string, string> = {
  ts: 'ts',
  tsx: 'tsx',
  mts: 'ts',
  cts: 'ts',
  js: 'js',
  jsx: 'jsx',
  mjs: 'js',
  cjs: 'js',
  py: 'python',
  pyi: 'python',
};

function fenceLanguage(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : (FENCES[path.slice(dot + 1).toLowerCase()] ?? '');
}
