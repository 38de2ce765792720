import { z } from 'zod';
import { DEFAULT_RECON_BUDGET_TOKENS, MAX_RECON_BUDGET_TOKENS, MIN_RECON_BUDGET_TOKENS } from '../recon/answer.js';

/**
 * The answer budget of the tools whose answers grow with the repository (recon_impact, the graph tools,
 * covering_tests, semantic_diff, blast_radius): the same default as recon's, in tokens estimated as
 * characters / 4. Each lists as many items as fit, counts the rest and says how to get them (`offset`,
 * a larger `budget`, or a narrower target).
 */
export const DEFAULT_ANSWER_BUDGET_TOKENS = DEFAULT_RECON_BUDGET_TOKENS;
const CHARS_PER_TOKEN = 4;
/** Room kept for what surrounds the paged list: the header, the counts, the closing line. */
const FRAME_CHARS = 600;

export const budgetParameter = z
  .number()
  .int()
  .min(MIN_RECON_BUDGET_TOKENS)
  .max(MAX_RECON_BUDGET_TOKENS)
  .default(DEFAULT_ANSWER_BUDGET_TOKENS)
  .describe('Answer size in tokens. ≈ characters / 4; items past it are counted and reachable with `offset`');
export const offsetParameter = z
  .number()
  .int()
  .min(0)
  .default(0)
  .describe("Items to skip. Pass a cut answer's `next_offset`");
export const limitParameter = z
  .number()
  .int()
  .min(1)
  .max(100_000)
  .nullable()
  .default(null)
  .describe('Max items. null = as many as fit the budget');

/** The zod shape of a page's report, for output schemas. */
export const pageSchema = z
  .object({
    total: z.number().int(),
    offset: z.number().int(),
    shown: z.number().int(),
    omitted: z.number().int(),
    next_offset: z.number().int().nullable(),
    budget_tokens: z.number().int(),
    more: z.string().optional(),
  })
  .strict();

/** What a paged answer says about what it left out. */
export interface Page {
  /** Items in the whole list. */
  total: number;
  offset: number;
  shown: number;
  /** Items after the shown ones that were left out (the ones before `offset` are not counted here). */
  omitted: number;
  /** Where the next page starts; null when this page reaches the end. */
  next_offset: number | null;
  budget_tokens: number;
  /** How to get what was left out; absent when nothing was. */
  more?: string;
}

export interface PageOptions<T> {
  offset: number;
  limit: number | null;
  budgetTokens: number;
  /** Characters an item costs in the answer (its structured copy is usually the larger). */
  cost: (item: T) => number;
  /** Characters the rest of the answer already takes. */
  reserved?: number;
  /** What the items are, plural (`references`, `cycles`), for the closing line. */
  noun: string;
  /** A narrower way to ask, said after the paging advice (e.g. `a qualified name`). */
  narrower?: string;
}

/** Characters an item costs in the structured answer. */
export const jsonCost = (item: unknown): number => JSON.stringify(item).length + 1;

/**
 * The items from `offset` that fit the budget (and `limit`): at least one when any is left, so paging
 * always moves on. Returns them with the page's report.
 */
export function pageWithinBudget<T>(items: readonly T[], options: PageOptions<T>): { items: T[]; page: Page } {
  const budgetChars = options.budgetTokens * CHARS_PER_TOKEN - FRAME_CHARS - (options.reserved ?? 0);
  const start = Math.min(options.offset, items.length);
  const end = options.limit === null ? items.length : Math.min(items.length, start + options.limit);
  const shown: T[] = [];
  let used = 0;
  for (let i = start; i < end; i += 1) {
    const cost = options.cost(items[i]!);
    if (shown.length > 0 && used + cost > budgetChars) break;
    shown.push(items[i]!);
    used += cost;
  }
  const next = start + shown.length;
  const omitted = items.length - next;
  const page: Page = {
    total: items.length,
    offset: start,
    shown: shown.length,
    omitted,
    next_offset: omitted > 0 ? next : null,
    budget_tokens: options.budgetTokens,
  };
  if (omitted > 0) page.more = moreAdvice(page, options);
  return { items: shown, page };
}

function moreAdvice(page: Page, options: Pick<PageOptions<never>, 'limit' | 'noun' | 'narrower'>): string {
  const range = `${page.offset + 1}–${page.offset + page.shown} of ${page.total} ${options.noun}`;
  const why =
    options.limit !== null && page.shown === options.limit ? `limit ${options.limit}` : `${page.budget_tokens} tokens`;
  const narrower = options.narrower ? `, or narrow it: ${options.narrower}` : '';
  return (
    `showing ${range} (cut to fit ${why}); ` +
    `${page.omitted} more: call again with offset: ` +
    `${page.next_offset}${narrower}.`
  );
}

/** The characters budget of the whole answer, for tools that shape their own parts. */
export function budgetChars(budgetTokens: number): number {
  return budgetTokens * CHARS_PER_TOKEN;
}

/**
 * The first items of a list that fit `maxChars` in the structured answer (at least one): how a single
 * item too large for the budget (a community of thousands of definitions) is cut, with its size kept.
 */
export function headWithin<T>(list: readonly T[], maxChars: number): T[] {
  const out: T[] = [];
  let used = 0;
  for (const item of list) {
    const cost = jsonCost(item);
    if (out.length > 0 && used + cost > maxChars) break;
    out.push(item);
    used += cost;
  }
  return out;
}

/** Characters one item of a paged list may take before its own inner list is cut. */
export function itemCap(budgetTokens: number): number {
  return Math.floor(budgetChars(budgetTokens) / 2);
}
