import type { Gate, GateFeatures } from './gate.js';
import type { ReconMetrics, ReconResult, ReconSubtask } from './recon.js';
import type { ReconSpan } from './snippets.js';

/**
 * What `recon` answers, shaped to a token budget: the text an agent reads (code as fenced blocks
 * with line numbers) and a structured copy without the code, so the snippets are paid for once.
 * Tokens are estimated as characters / 4, the rule of thumb the issue's measurements use.
 */
export const DEFAULT_RECON_BUDGET_TOKENS = 3000;
export const MIN_RECON_BUDGET_TOKENS = 500;
export const MAX_RECON_BUDGET_TOKENS = 60_000;
const CHARS_PER_TOKEN = 4;
/** UNSAT answers list only this many nearest results: the task does not fit, so code would be noise. */
const UNSAT_RESULTS = 5;
const DOC_CHARS = 160;
/** Room kept for the closing lines: what was cut, and the metrics. */
const FOOTER_CHARS = 440;

/** How much of a result the budget left room for. */
export type ReconDetail = 'code' | 'signature' | 'listed';

export interface ReconAnswerSpan {
  rank: number;
  path: string;
  start_line: number;
  end_line: number;
  kind: string;
  name: string;
  qualified_name: string;
  def_uid: string;
  score: number;
  /** Why it was found: the retrievers' own explanations, best first. */
  why: string[];
  /** Signature and the docstring's first line, for results shown without code (the code shows them otherwise). */
  signature?: string | null;
  doc?: string | null;
  /** `code`: the text shows the code; `signature`: signature and doc only; `listed`: one line. */
  detail: ReconDetail;
  /** Set when the code shown stops before `end_line` (a long definition is elided). */
  code_until_line?: number;
}

export interface ReconAnswer {
  gate: Gate;
  hint: string;
  results: ReconAnswerSpan[];
  budget: {
    tokens: number;
    /** Estimated tokens of the text answer. */
    used_tokens: number;
    code: number;
    signature: number;
    listed: number;
    /** Results the ranking kept but the budget left out entirely. */
    omitted: number;
    /** How to get what was cut; absent when nothing was. */
    more?: string;
  };
  /** UNSAT: names written in the task that the repository does not define. */
  missing?: string[];
  /** UNSAT: for each missing name, the existing definition names nearest to it. */
  nearest?: Record<string, string[]>;
  /** AMBIG: the term and the subsystems it matches in. */
  ambiguous?: { term: string; subsystems: string[] };
  /** BROAD: the subsystems the results fall into, largest first — the narrower tasks to ask instead. */
  decomposition?: ReconSubtask[];
  /** Compact retrieval metrics, on every answer: pool sizes, per-stage timings, the gate's features. */
  metrics: ReconAnswerMetrics;
  /** The full retrieval diagnostics, only with `verbose: true`. */
  diagnostics?: ReconMetrics;
}

/** What every recon answer says about how it was found: a few hundred bytes. */
export interface ReconAnswerMetrics {
  /** Candidates ranked, kept by the cutoff, in the answer. */
  pool: { candidates: number; kept: number; results: number };
  /** Wall time of each stage, and in all. */
  timings_ms: Record<string, number>;
  /** Why the gate said what it said: counts of the features it decided from. */
  gate: {
    mentions: number;
    mentions_missing: number;
    strong: number;
    spread: number;
    flatness: number;
    ambiguous: boolean;
    /** Distinctive words of the task the repository has, and how many it lacks (UNSAT when mostly lacking). */
    words_known: number;
    words_missing: number;
    /** How rare the task's terms are here (see GateFeatures.word_rarity): about −5 when hardly any file has them. */
    word_rarity: number | null;
  };
  cutoff: string;
}

export function compactMetrics(metrics: ReconMetrics, results: number): ReconAnswerMetrics {
  const f = metrics.gate_features;
  const total = Object.values(metrics.timings_ms).reduce((sum, ms) => sum + ms, 0);
  return {
    pool: { candidates: metrics.pool_size, kept: metrics.cutoff.kept, results },
    timings_ms: { ...metrics.timings_ms, total: Math.round(total * 10) / 10 },
    gate: {
      mentions: f.mentions,
      mentions_missing: f.mentions_missing.length,
      strong: f.strong,
      spread: f.spread,
      flatness: f.flatness,
      ambiguous: f.ambiguous_term !== null,
      words_known: f.words_known,
      words_missing: f.words_missing.length,
      word_rarity: f.word_rarity,
    },
    cutoff: metrics.cutoff.reason,
  };
}

/** The metrics as one line of the text answer. */
function metricsLine(m: ReconAnswerMetrics): string {
  const stages = Object.entries(m.timings_ms)
    .filter(([name]) => name !== 'total')
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
  return (
    `metrics: ${m.pool.candidates} candidates, ` +
    `${m.pool.kept} kept, ${m.pool.results} shown; ` +
    `${m.timings_ms['total']} ms (${stages})`
  );
}

export interface ReconAnswerOptions {
  budgetTokens: number;
  verbose: boolean;
  /** Fence language per path (e.g. `ts`, `python`); none when absent. */
  fenceLanguage?: (path: string) => string;
  /** UNSAT: the existing names nearest to each missing one (see nearestNames). */
  nearest?: Record<string, string[]>;
}

/** Shapes a recon result to the budget; returns the structured answer and the text the agent reads. */
export function shapeReconAnswer(
  result: ReconResult,
  options: ReconAnswerOptions,
): { answer: ReconAnswer; text: string } {
  const budgetChars = options.budgetTokens * CHARS_PER_TOKEN - FOOTER_CHARS;
  const spans = result.gate === 'UNSAT' ? result.results.slice(0, UNSAT_RESULTS) : result.results;
  const header = headerOf(
    result.gate,
    result.hint,
    result.metrics.gate_features,
    options.nearest ?? {},
    result.decomposition,
  );
  let used = header.length;
  const blocks: string[] = [];
  const out: ReconAnswerSpan[] = [];
  const counts = { code: 0, signature: 0, listed: 0 };
  let omitted = result.results.length - spans.length;
  let toSignature = 0;
  // Cut by rank: once a result drops to a shorter form, every later one gets that form at most;
  // once one does not fit at all, the rest are left out (a later, shorter result never jumps ahead).
  const order: ReconDetail[] = ['code', 'signature', 'listed'];
  let floor = 0;
  // The spec's shape: code for the top half of the results, signature and docstring for the bottom half.
  const codeRanks = Math.ceil(spans.length / 2);
  for (const [i, span] of spans.entries()) {
    const base = answerSpan(span, i + 1);
    const first = Math.max(floor, span.snippet !== undefined && result.gate !== 'UNSAT' && i < codeRanks ? 0 : 1);
    let placed = false;
    for (let tier = first; tier < order.length && !placed; tier += 1) {
      const detail = order[tier]!;
      const block = renderSpan(span, base, detail, options.fenceLanguage);
      // The top result always shows, whatever the budget: an answer without its best hit helps no one.
      if (used + block.length + 1 > budgetChars && out.length > 0) continue;
      used += block.length + 1;
      blocks.push(block);
      counts[detail] += 1;
      if (span.snippet !== undefined && result.gate !== 'UNSAT' && detail === 'signature' && i < codeRanks)
        toSignature += 1;
      out.push(structuredSpan(span, base, detail));
      if (tier > 0) floor = tier;
      placed = true;
    }
    if (!placed) {
      omitted += spans.length - i;
      break;
    }
  }
  const more = moreHint(result.gate, toSignature, counts.listed, omitted, options.budgetTokens);
  const metrics = compactMetrics(result.metrics, out.length);
  const footer = `${more ? `\n${more}` : ''}\n${metricsLine(metrics)}`;
  const diagnosticsText = options.verbose ? `\n\ndiagnostics:\n${JSON.stringify(result.metrics, null, 1)}` : '';
  const text = `${header}${blocks.length ? `\n\n${blocks.join('\n')}` : ''}${footer}${diagnosticsText}`;
  const features = result.metrics.gate_features;
  const answer: ReconAnswer = {
    gate: result.gate,
    hint: result.hint,
    results: out,
    budget: {
      tokens: options.budgetTokens,
      used_tokens: Math.ceil(text.length / CHARS_PER_TOKEN),
      ...counts,
      omitted,
      ...(more ? { more } : {}),
    },
    ...(result.gate === 'UNSAT' && features.mentions_missing.length
      ? { missing: features.mentions_missing, nearest: options.nearest ?? {} }
      : {}),
    ...(result.gate === 'AMBIG' && features.ambiguous_term
      ? { ambiguous: { term: features.ambiguous_term, subsystems: features.subsystems } }
      : {}),
    ...(result.gate === 'BROAD' && result.decomposition ? { decomposition: result.decomposition } : {}),
    metrics,
    ...(options.verbose ? { diagnostics: result.metrics } : {}),
  };
  return { answer, text };
}

function answerSpan(span: ReconSpan, rank: number): Omit<ReconAnswerSpan, 'detail'> {
  return {
    rank,
    path: span.path,
    start_line: span.start_line,
    end_line: span.end_line,
    kind: span.kind,
    name: span.name,
    qualified_name: span.qualified_name,
    def_uid: span.def_uid,
    score: span.score,
    why: span.why,
    signature: span.signature,
    doc: firstLine(span.docstring),
  };
}

function headerOf(
  gate: Gate,
  hint: string,
  features: GateFeatures,
  nearest: Record<string, string[]>,
  decomposition?: ReconSubtask[],
): string {
  const lines = [`gate: ${gate}`];
  if (gate === 'UNSAT') {
    for (const name of features.mentions_missing) {
      const near = nearest[name] ?? [];
      const parts = features.mentions_missing_parts;
      const absent = Object.hasOwn(parts, name) ? (parts[name] ?? []) : undefined;
      const part = !absent
        ? ''
        : absent.length === 0
          ? ' (its parts occur, but not written together)'
          : absent.length < name.split('.').filter(Boolean).length
            ? ` (no ${absent.join(', ')})`
            : '';
      const nearText = near.length ? ` — nearest existing: ${near.join(', ')}` : ' — nothing similar is defined';
      lines.push(`missing: ${name}${part}${nearText}`);
    }
  }
  if (gate === 'AMBIG' && features.ambiguous_term)
    lines.push(`ambiguous: '${features.ambiguous_term}' in ${features.subsystems.join(', ')}`);
  if (gate === 'BROAD' && decomposition) {
    lines.push('split into:');
    for (const part of decomposition)
      lines.push(`- ${part.subsystem} (${part.results} results): ${part.files.join(', ')}`);
  }
  lines.push(`hint: ${hint}`);
  return lines.join('\n');
}

/** One result: `N. path:start-end kind qualified_name (why)`, then the code, or the signature and doc. */
function renderSpan(
  span: ReconSpan,
  base: Omit<ReconAnswerSpan, 'detail'>,
  detail: ReconDetail,
  fence?: (path: string) => string,
): string {
  const why = base.why.length ? ` — ${base.why.join('; ')}` : '';
  const title =
    `${base.rank}. ${span.path}:${span.start_line}-` +
    `${span.end_line} ${span.kind} ${span.qualified_name}` +
    `${why}`;
  if (detail === 'listed') return title;
  if (detail === 'signature') {
    const parts = [title];
    if (span.signature) parts.push(`   ${oneLine(span.signature)}`);
    if (base.doc) parts.push(`   doc: ${base.doc}`);
    return parts.join('\n');
  }
  return `${title}\n${fenced(span.snippet ?? '', span.start_line, fence?.(span.path) ?? '')}`;
}

/** Code as a fenced block with right-aligned line numbers; a fence longer than any backtick run inside. */
export function fenced(code: string, firstLine: number, language: string): string {
  const lines = code.split('\n');
  const width = String(firstLine + lines.length - 1).length;
  const numbered = lines.map((line, i) =>
    line.startsWith('… (') && i === lines.length - 1 ? line : `${String(firstLine + i).padStart(width)}  ${line}`,
  );
  const longestRun = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${numbered.join('\n')}\n${fence}`;
}

/** The structured copy of a result: what the text says, without the code and what the code already shows. */
function structuredSpan(span: ReconSpan, base: Omit<ReconAnswerSpan, 'detail'>, detail: ReconDetail): ReconAnswerSpan {
  if (detail !== 'code') return { ...base, detail };
  const { signature: _signature, doc: _doc, ...rest } = base;
  const lines = (span.snippet ?? '').split('\n');
  const elided = lines[lines.length - 1]?.startsWith('… (') ?? false;
  return { ...rest, detail, ...(elided ? { code_until_line: span.start_line + lines.length - 2 } : {}) };
}

function moreHint(
  gate: Gate,
  toSignature: number,
  listed: number,
  omitted: number,
  budget: number,
): string | undefined {
  if (gate === 'UNSAT')
    return omitted > 0
      ? `cut: ${omitted} weaker results not shown; the task does not fit this repository, ` +
          `so rephrase it rather than asking for more.`
      : undefined;
  const parts: string[] = [];
  if (toSignature > 0) parts.push(`${toSignature} shown without code`);
  if (listed > 0) parts.push(`${listed} listed by name only`);
  if (omitted > 0) parts.push(`${omitted} not shown`);
  if (parts.length === 0) return undefined;
  return (
    `cut to fit ${budget} tokens: ${parts.join(', ')}. For more, call recon again ` +
    `with a larger budget (e.g. budget: ${Math.min(MAX_RECON_BUDGET_TOKENS, budget * 2)}), ` +
    `or pin a file (pins: ["path"]) to get its code.`
  );
}

function firstLine(doc: string | null): string | null {
  if (!doc) return null;
  const line = doc
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  return line.length > DOC_CHARS ? `${line.slice(0, DOC_CHARS - 1)}…` : line;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 239)}…` : flat;
}
