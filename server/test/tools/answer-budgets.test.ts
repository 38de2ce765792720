import { expect } from 'chai';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { pageWithinBudget } from '../../src/tools/answer-budget.js';
import { ServeClient, type Structured } from '../checkpoint/serve-client.js';
import { gitInit } from '../recon/fixture-repo.js';

type Page = {
  total: number;
  offset: number;
  shown: number;
  omitted: number;
  next_offset: number | null;
  budget_tokens: number;
  more?: string;
};
type Reference = { path: string; line: number; column: number; certainty: string };
type Impact = Structured & {
  references: Reference[];
  counts: Record<string, number>;
  files: { path: string; references: number; high: number; medium: number; low: number }[];
  files_omitted: number;
  page: Page;
  importers?: { path: string }[];
};

const FILES = 240;

/** `clampValue` in src/core/clamp.ts, called three times from each of FILES modules in eight directories. */
function wideRepo(): string {
  const root = makeTempDir('agentgov-budget-');
  const files: Record<string, string> = {
    'package.json': '{"name":"wide","type":"module"}',
    'src/core/clamp.ts':
      '/** Clamps a value into [low, high]. */\nexport function clampValue(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n',
  };
  for (let i = 0; i < FILES; i++) {
    files[`src/area${i % 8}/user${i}.ts`] = [
      "import { clampValue } from '../core/clamp.js';",
      '',
      `export function scaled${i}(input: number): number {`,
      `  const low = clampValue(input, 0, ${i});`,
      `  const high = clampValue(input * 2, ${i}, ${i * 3 + 1});`,
      '  return clampValue(low + high, 0, 1000);',
      '}',
      '',
    ].join('\n');
  }
  writeTree(root, files);
  gitInit(root);
  return root;
}

describe('answers of tools that grow with the repository fit a budget (agentgov serve over stdio)', function () {
  this.timeout(300_000);
  let serve: ServeClient;
  before(async () => {
    serve = await ServeClient.start(wideRepo());
  });
  after(async () => serve?.close());

  it('recon_impact groups references by file with counts, fits the default budget and says how to page on', async () => {
    const { data, text } = await serve.call('recon_impact', {
      target: 'clampValue',
      justification: 'changing its signature',
      include_comments: false,
    });
    const impact = data as Impact;
    expect(impact.error, text).to.equal(undefined);
    const total = impact.counts['high']! + impact.counts['medium']! + impact.counts['low']!;
    expect(total).to.be.at.least(FILES * 3);
    expect(impact.page.total).to.equal(total);
    expect(impact.page.shown).to.equal(impact.references.length).and.be.below(total);
    expect(impact.page.next_offset).to.equal(impact.page.shown);
    expect(impact.page.omitted).to.equal(total - impact.page.shown);
    expect(impact.page.more).to.match(new RegExp(`offset: ${impact.page.shown}`));
    expect(text).to.include(impact.page.more!);
    // the default budget is recon's: 3000 tokens ≈ 12,000 characters, for the text and for the structured copy
    expect(text.length).to.be.at.most(12_000);
    expect(JSON.stringify(data).length).to.be.at.most(12_000);
    // files: grouped, counted, the counts add up for the files listed
    const listed = impact.files.reduce((n, f) => n + f.references, 0);
    expect(impact.files.length + impact.files_omitted).to.equal(FILES);
    if (impact.files_omitted === 0) expect(listed).to.equal(total);
    for (const f of impact.files.slice(0, 5)) expect(f.references).to.equal(f.high + f.medium + f.low);
    expect(text).to.match(/src\/area\d\/user\d+\.ts \d+ \(\d+\/\d+\/\d+\)/);
  });

  it('recon_impact pages through every reference exactly once with offset', async () => {
    const seen = new Set<string>();
    let offset: number | null = 0;
    let total = 0;
    for (let pages = 0; offset !== null && pages < 50; pages++) {
      const impact = (
        await serve.call('recon_impact', {
          target: 'clampValue',
          justification: 'paging',
          include_comments: false,
          offset,
        })
      ).data as Impact;
      total = impact.page.total;
      expect(impact.page.offset).to.equal(offset);
      for (const ref of impact.references) {
        const key = `${ref.path}:${ref.line}:${ref.column}`;
        expect(seen.has(key), key).to.equal(false);
        seen.add(key);
      }
      offset = impact.page.next_offset;
    }
    expect(offset).to.equal(null);
    expect(seen.size).to.equal(total);
  });

  it('recon_impact takes an explicit budget and limit', async () => {
    const small = (
      await serve.call('recon_impact', { target: 'clampValue', justification: 'x', include_comments: false })
    ).data as Impact;
    const large = (
      await serve.call('recon_impact', {
        target: 'clampValue',
        justification: 'x',
        include_comments: false,
        budget: 40_000,
      })
    ).data as Impact;
    expect(large.page.shown).to.be.above(small.page.shown);
    expect(large.page.budget_tokens).to.equal(40_000);
    const limited = (
      await serve.call('recon_impact', { target: 'clampValue', justification: 'x', include_comments: false, limit: 7 })
    ).data as Impact;
    expect(limited.references).to.have.length(7);
    expect(limited.page.more).to.match(/limit 7/);
  });

  it('recon_impact on a file pages its importers the same way', async () => {
    const { data, text } = await serve.call('recon_impact', {
      target: 'src/core/clamp.ts',
      justification: 'moving it',
      budget: 2000,
    });
    const impact = data as Impact;
    expect(impact.error, text).to.equal(undefined);
    expect(impact.page.total).to.equal(FILES);
    expect(impact.page.shown).to.be.below(FILES);
    expect(impact.importers!.map((i) => i.path)).to.deep.equal(impact.references.map((r) => r.path));
    expect(text.length).to.be.at.most(8_000);
    // each reference is also an importer entry: both count against the budget
    expect(JSON.stringify(data).length).to.be.at.most(2000 * 4);
  });

  it('graph_communities cuts a community too large for the budget to its first members and says so', async () => {
    // at level def every scaled<i> references clampValue: one community of FILES + 1 definitions
    const { data, text } = await serve.call('graph_communities', { level: 'def', budget: 1500 });
    type Community = { size: number; members: unknown[]; members_shown?: number };
    const result = data as Structured & { page: Page; communities: Community[] };
    expect(result.error, text).to.equal(undefined);
    const largest = result.communities[0]!;
    expect(largest.size).to.be.at.least(FILES);
    expect(largest.members_shown).to.equal(largest.members.length).and.be.below(largest.size);
    expect(text).to.include(`(${largest.members_shown} of ${largest.size} shown)`);
    expect(JSON.stringify(data).length).to.be.at.most(1500 * 4 + 1_000);
    const whole = (await serve.call('graph_communities', { level: 'def', budget: 60_000 })).data as Structured & {
      communities: Community[];
    };
    expect(whole.communities[0]!.members).to.have.length(whole.communities[0]!.size);
  });

  it('graph_cycles answers with a page even when there is nothing to cut', async () => {
    const result = (await serve.call('graph_cycles', { level: 'file' })).data as Structured & {
      page: Page;
      total: number;
    };
    expect(result.page).to.deep.include({ total: 0, offset: 0, shown: 0, omitted: 0, next_offset: null });
  });
});

describe('pageWithinBudget', () => {
  const items = Array.from({ length: 100 }, (_, i) => `item-${i}`);
  const options = { offset: 0, limit: null, budgetTokens: 500, cost: () => 100, noun: 'items' };

  it('takes items while they fit, says how many are left and where the next page starts', () => {
    const { items: shown, page } = pageWithinBudget(items, options);
    // 500 tokens = 2000 characters, less the 600 kept for the rest of the answer
    expect(shown).to.have.length(14);
    expect(page).to.deep.include({ total: 100, offset: 0, shown: 14, omitted: 86, next_offset: 14 });
    expect(page.more).to.equal(
      'showing 1–14 of 100 items (cut to fit 500 tokens); 86 more: call again with offset: 14.',
    );
  });

  it('always shows one item past the offset, so paging moves on, and stops at the end', () => {
    const huge = pageWithinBudget(items, { ...options, cost: () => 1_000_000 });
    expect(huge.items).to.deep.equal(['item-0']);
    const last = pageWithinBudget(items, { ...options, offset: 95 });
    expect(last.items).to.deep.equal(['item-95', 'item-96', 'item-97', 'item-98', 'item-99']);
    expect(last.page).to.deep.include({ omitted: 0, next_offset: null });
    expect(last.page.more).to.equal(undefined);
    expect(pageWithinBudget(items, { ...options, offset: 500 }).page).to.deep.include({
      offset: 100,
      shown: 0,
      next_offset: null,
    });
  });

  it('honours a limit and names it as the reason', () => {
    const { page } = pageWithinBudget(items, { ...options, limit: 3, narrower: 'a qualified name' });
    expect(page.shown).to.equal(3);
    expect(page.more).to.equal(
      'showing 1–3 of 100 items (cut to fit limit 3); 97 more: call again with offset: 3, or narrow it: a qualified name.',
    );
  });
});
