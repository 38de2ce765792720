import { expect } from 'chai';
import { fenced, shapeReconAnswer } from '../../src/recon/answer.js';
import type { GateFeatures } from '../../src/recon/gate.js';
import type { ReconResult } from '../../src/recon/recon.js';
import type { ReconSpan } from '../../src/recon/snippets.js';

const features = (over: Partial<GateFeatures> = {}): GateFeatures => ({
  pool_size: 10,
  mentions: 0,
  mentions_found: [],
  mentions_missing: [],
  mentions_missing_parts: {},
  explicit_inputs: 0,
  strong: 1,
  spread: 1,
  flatness: 0.5,
  ambiguous_term: null,
  subsystems: [],
  words_known: 0,
  words_missing: [],
  word_rarity: -2.5,
  ...over,
});

function span(i: number, code: boolean, lines = 12): ReconSpan {
  const body = Array.from({ length: lines }, (_, k) => `  const v${k} = "x\\n" + ${k}; // \`tick\``).join('\n');
  return {
    def_uid: `uid${i}`,
    path: `src/m${i}.ts`,
    name: `fn${i}`,
    qualified_name: `Mod.fn${i}`,
    kind: 'function',
    start_line: 10,
    end_line: 10 + lines - 1,
    score: 1 / (i + 1),
    signature: `function fn${i}(a: number): string`,
    docstring: `Does thing ${i}.\nMore words.`,
    found_by: ['term'],
    why: [`term: name = fn${i}`],
    ...(code ? { snippet: body } : {}),
  };
}

function result(gate: ReconResult['gate'], spans: ReconSpan[], over: Partial<GateFeatures> = {}): ReconResult {
  return {
    gate,
    results: spans,
    hint: 'next step',
    metrics: {
      timings_ms: { retrieve: 1 },
      retriever_ms: {},
      pool_size: spans.length,
      contributions: {},
      cutoff: { reason: 'elbow', kept: spans.length, gap: 0.3 },
      gate_features: features(over),
      snippets: { full: 0, downgraded: 0, chars: 0 },
      dropped: 0,
    },
  };
}

describe('recon/answer', () => {
  const ten = Array.from({ length: 10 }, (_, i) => span(i, i < 5));

  it('renders code as a fenced block with line numbers, never as an escaped string', () => {
    const { text } = shapeReconAnswer(result('OK', ten), {
      budgetTokens: 6000,
      verbose: false,
      fenceLanguage: () => 'ts',
    });
    expect(text).to.include(
      '1. src/m0.ts:10-21 function Mod.fn0 — term: name = fn0\n```ts\n10    const v0 = "x\\n" + 0;',
    );
    expect(text).to.include('21    const v11');
    expect(text).to.not.include('\\"');
    expect(text).to.not.include('diagnostics');
    expect(text.split('\n').at(-1)).to.match(
      /^metrics: 10 candidates, 10 kept, 10 shown; \d+(\.\d+)? ms \(retrieve 1\)$/,
    );
  });

  it('keeps the code out of the structured copy and says what each result shows', () => {
    const { answer, text } = shapeReconAnswer(result('OK', ten), { budgetTokens: 6000, verbose: false });
    expect(answer.results.map((r) => r.detail)).to.deep.equal([
      'code',
      'code',
      'code',
      'code',
      'code',
      'signature',
      'signature',
      'signature',
      'signature',
      'signature',
    ]);
    expect(JSON.stringify(answer)).to.not.include('const v0');
    expect(answer.results[0]).to.not.have.property('signature');
    expect(answer.results[6]).to.include({ signature: 'function fn6(a: number): string', doc: 'Does thing 6.' });
    expect(answer).to.not.have.property('diagnostics');
    expect(answer.metrics).to.deep.equal({
      pool: { candidates: 10, kept: 10, results: 10 },
      timings_ms: { retrieve: 1, total: 1 },
      gate: {
        mentions: 0,
        mentions_missing: 0,
        strong: 1,
        spread: 1,
        flatness: 0.5,
        ambiguous: false,
        words_known: 0,
        words_missing: 0,
        word_rarity: -2.5,
      },
      cutoff: 'elbow',
    });
    expect(answer.budget).to.include({ tokens: 6000, code: 5, signature: 5, listed: 0, omitted: 0 });
    expect(answer.budget).to.not.have.property('more');
    expect(answer.budget.used_tokens).to.equal(Math.ceil(text.length / 4));
  });

  it('cuts by rank at the budget: code, then signatures, then names, then nothing, and says how to get more', () => {
    const many = Array.from({ length: 30 }, (_, i) => span(i, i < 15, 40));
    const { answer, text } = shapeReconAnswer(result('OK', many), { budgetTokens: 1000, verbose: false });
    expect(text.length).to.be.at.most(4000);
    const details = answer.results.map((r) => r.detail);
    expect(details[0]).to.equal('code');
    const order = { code: 0, signature: 1, listed: 2 } as const;
    for (let i = 1; i < details.length; i += 1) expect(order[details[i]!]).to.be.at.least(order[details[i - 1]!]);
    expect(answer.results.map((r) => r.rank)).to.deep.equal(answer.results.map((_, i) => i + 1));
    expect(answer.budget.omitted + answer.results.length).to.equal(30);
    expect(answer.budget.more).to.match(/budget: 2000/);
    expect(text).to.include(answer.budget.more!);
  });

  it('never lets a shorter, lower-ranked result jump ahead of a longer one that was cut', () => {
    const mixed = [
      span(0, true, 40),
      span(1, true, 120),
      span(2, true, 2),
      span(3, true, 2),
      span(4, false),
      span(5, false),
    ];
    const { answer } = shapeReconAnswer(result('OK', mixed), { budgetTokens: 1000, verbose: false });
    expect(answer.results.map((r) => r.detail).slice(0, 4)).to.deep.equal([
      'code',
      'signature',
      'signature',
      'signature',
    ]);
    const tiny = shapeReconAnswer(result('OK', [span(0, true, 60), span(1, true, 60), span(2, false)]), {
      budgetTokens: 500,
      verbose: false,
    }).answer;
    expect(tiny.results.map((r) => r.rank)).to.deep.equal(tiny.results.map((_, i) => i + 1));
    expect(tiny.results.length + tiny.budget.omitted).to.equal(3);
  });

  it('always shows the top result, even over a tiny budget', () => {
    const { answer } = shapeReconAnswer(result('OK', [span(0, true, 400)]), { budgetTokens: 500, verbose: false });
    expect(answer.results).to.have.length(1);
  });

  it('UNSAT is short: the missing names with their nearest existing names, five results without code', () => {
    const { answer, text } = shapeReconAnswer(result('UNSAT', ten, { mentions_missing: ['frobWidget', 'Zzz'] }), {
      budgetTokens: 6000,
      verbose: false,
      nearest: { frobWidget: ['fooWidget'], Zzz: [] },
    });
    expect(answer.results).to.have.length(5);
    expect(answer.results.every((r) => r.detail !== 'code')).to.equal(true);
    expect(answer.missing).to.deep.equal(['frobWidget', 'Zzz']);
    expect(answer.nearest).to.deep.equal({ frobWidget: ['fooWidget'], Zzz: [] });
    expect(text).to.include('missing: frobWidget — nearest existing: fooWidget');
    expect(text).to.include('missing: Zzz — nothing similar is defined');
    expect(text).to.not.include('```');
  });

  it('UNSAT says which part of a qualified name is missing', () => {
    const missing = {
      mentions_missing: ['app.run', 'self.run', '__proto__'],
      mentions_missing_parts: { 'app.run': ['app'], 'self.run': [] },
    };
    const { text } = shapeReconAnswer(result('UNSAT', ten, missing), { budgetTokens: 6000, verbose: false });
    expect(text).to.include('missing: app.run (no app) — nothing similar is defined');
    expect(text).to.include('missing: self.run (its parts occur, but not written together)');
    expect(text).to.include('missing: __proto__ — nothing similar is defined');
  });

  it('AMBIG names the term and its subsystems; verbose adds the full diagnostics to both copies', () => {
    const { answer, text } = shapeReconAnswer(
      result('AMBIG', ten, { ambiguous_term: 'validate', subsystems: ['src/a', 'src/b'] }),
      { budgetTokens: 6000, verbose: true },
    );
    expect(answer.ambiguous).to.deep.equal({ term: 'validate', subsystems: ['src/a', 'src/b'] });
    expect(text).to.include("ambiguous: 'validate' in src/a, src/b");
    expect(answer.diagnostics?.cutoff.reason).to.equal('elbow');
    expect(answer.metrics.gate.ambiguous).to.equal(true);
    expect(text).to.include('diagnostics:');
  });

  it('fences code containing backtick runs with a longer fence', () => {
    expect(fenced('a ```b``` c', 1, '')).to.equal('````\n1  a ```b``` c\n````');
  });
});
