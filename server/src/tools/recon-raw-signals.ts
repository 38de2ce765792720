import { z } from 'zod';
import { parseQuery } from '../recon/query.js';
import { rawSignals } from '../recon/recon.js';
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
    query: z.string().describe('Query evaluated against the index, as a recon task'),
    seeds: stringOrList('Symbol names injected as explicit seed candidates'),
    pins: stringOrList('File paths injected as pinned candidates (all definitions of each file)'),
  })
  .strict();

export const reconRawSignalsTool = defineTool({
  name: 'recon_raw_signals',
  group: 'Discovery',
  readOnly: true,
  devOnly: true,
  brief:
    "Development view of recon: the unfiltered candidate pool with every retriever's score and rank (dev " +
    'mode only).',
  description:
    "Development view of recon: the whole candidate pool with every retriever's " +
    'score and rank per definition, seeds and pins injected. No gate, ranking, ' +
    'cutoff, sorting or truncation.',
  inputSchema: input,
  outputSchema: z
    .object({
      candidates: z.array(
        z
          .object({
            def_uid: z.string(),
            path: z.string().nullable(),
            name: z.string().nullable(),
            kind: z.string().nullable(),
            signals: z.record(
              z
                .object({
                  score: z.number(),
                  rank: z.number().int(),
                  why: z.string().optional(),
                  explicit: z.boolean().optional(),
                })
                .strict(),
            ),
          })
          .strict(),
      ),
      retrievers: z.array(z.string()),
      timings_ms: z.record(z.number()),
    })
    .passthrough(),
  returns:
    '`candidates` (def_uid, path, name, kind, and `signals`: retriever name → ' +
    'score, rank, why), `retrievers` (names that ran), `timings_ms` per retriever.',
  whenToUse: 'When tuning or debugging retrieval, or checking what a retriever plugin contributes.',
  related: ['recon'],
  errors: ['E_INDEX_NOT_READY', 'E_PATH_OUTSIDE_REPO'],
  example: { query: 'where are retries configured', seeds: ['fetchWithRetry'] },
  needsIndex: true,
  async handler(args, ctx) {
    const query = parseQuery(args.query, args.seeds, args.pins);
    query.pins = query.pins.map((pin) => ctx.resolveRepoPath(pin).relative);
    return rawSignals(query, runnerOf(ctx.host), retrievalIndexOf(ctx.index));
  },
});
