import { z } from 'zod';
import { parseQuery } from '../recon/query.js';
import { runRecon, type ReconResult } from '../recon/recon.js';
import { retrievalIndexOf } from '../recon/retrieval-index.js';
import { runnerOf } from '../recon/runner-of.js';
import { defineTool } from './tool.js';

const stringOrList = (what: string) => z.union([z.string(), z.array(z.string())]).default([]).describe(what);

const input = z
  .object({
    task: z.string().describe('What you are about to do, in plain words; name symbols and files when you know them'),
    seeds: stringOrList('Symbol names to prioritise (a name or a list of names)'),
    pins: stringOrList('Repository-relative file paths whose definitions are always included'),
    read_only: z.boolean().nullable().default(null).describe('Session intent: true = research only (mutating tools blocked), false = read-write, null/omitted keeps the current intent'),
  })
  .strict();

export const reconTool = defineTool({
  name: 'recon',
  group: 'Discovery',
  readOnly: true,
  description: 'Finds the code that matters for a task: ranked definitions with code for the top half and signature/docstring for the rest, plus a quality gate (OK, UNSAT, BROAD, AMBIG) saying whether the task fits the codebase.',
  inputSchema: input,
  returns: '`gate` (OK | UNSAT | BROAD | AMBIG), `results` (ranked spans: path, lines, name, kind, signature, docstring, snippet for the top half), `metrics` (stage timings, pool size, per-retriever contribution, cutoff reason, gate features) and `hint` (the next step).',
  whenToUse: 'Before reading or editing code for a task; required before refactor_rename and refactor_move. Set read_only to declare whether the session will change files.',
  related: ['recon_scout', 'recon_impact', 'refactor_rename'],
  errors: ['E_INDEX_NOT_READY', 'E_PATH_OUTSIDE_REPO'],
  example: { task: 'make the retry delay of fetchWithRetry configurable', seeds: ['fetchWithRetry'], read_only: false },
  needsIndex: true,
  async handler(args, ctx): Promise<ReconResult> {
    const query = parseQuery(args.task, args.seeds, args.pins);
    query.pins = query.pins.map((pin) => ctx.resolveRepoPath(pin).relative);
    const result = await runRecon(query, runnerOf(ctx.host), retrievalIndexOf(ctx.index));
    if (args.read_only !== null) ctx.session.readOnly = args.read_only;
    ctx.session.didRecon = true;
    return result;
  },
});
