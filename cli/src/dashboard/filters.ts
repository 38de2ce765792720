/**
 * The dashboard's query parameters: one reading, shared by the JSON API (which answers 400 with the
 * message of a `FilterError`) and the page (which keeps its state in the same parameters, so every
 * view is a stable URL). No Node built-ins and no imports with side effects: the page bundles it.
 */
import type { CallFilter, Page, RiskAction, RiskLevel } from '@agentgov/core/governance-reader';

export const LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];
export const ACTIONS: readonly RiskAction[] = ['allow', 'warn', 'ask', 'deny'];
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const MAX_PAGE = 100_000;
const MAX_TEXT = 200;
const MAX_VALUES = 20;

export class FilterError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(`${parameter}: ${message}`);
  }
}

/** The parameters each API path accepts; anything else is refused, so a misspelt filter is never silently ignored. */
export const FILTER_PARAMETERS = ['since', 'until', 'agent', 'project', 'level', 'action', 'reason', 'q'] as const;
export const PAGE_PARAMETERS = ['page', 'page_size'] as const;

// eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const REASON = /^[a-z][a-z0-9_]{0,63}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** One value of a parameter: a repeated parameter is refused rather than one of its values picked. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1)
    throw new FilterError(name, 'given more than once; pass one value (lists are comma-separated)');
  const value = values[0];
  if (value === undefined || value === '') return undefined;
  if (CONTROL.test(value)) throw new FilterError(name, 'contains control characters');
  return value;
}

function listOf<T extends string>(params: URLSearchParams, name: string, check: (value: string) => T): T[] | undefined {
  const value = single(params, name);
  if (value === undefined) return undefined;
  const values = value.split(',').map((v) => v.trim());
  if (values.length > MAX_VALUES) throw new FilterError(name, `at most ${MAX_VALUES} values`);
  return [...new Set(values.map(check))];
}

const oneOf =
  <T extends string>(name: string, allowed: readonly T[]) =>
  (value: string): T => {
    if (!(allowed as readonly string[]).includes(value))
      throw new FilterError(name, `'${value}' is not one of ${allowed.join(', ')}`);
    return value as T;
  };

/**
 * An instant as the events store it (ISO 8601, UTC). A bare date is the start of that day, or with
 * `endOfDay` the start of the next one, so `until=2026-11-26` includes the whole 26th.
 */
function instant(name: string, value: string, endOfDay: boolean): string {
  const date = DATE.exec(value);
  if (!date && !DATE_TIME.test(value))
    throw new FilterError(name, `'${value}' is not a date (YYYY-MM-DD) or an ISO 8601 time`);
  const time = date ? Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) : Date.parse(value);
  if (!Number.isFinite(time) || (date && new Date(time).getUTCDate() !== Number(date[3]))) {
    throw new FilterError(name, `'${value}' is not a real date`);
  }
  const year = new Date(time).getUTCFullYear();
  if (year < 1970 || year > 9999) throw new FilterError(name, `'${value}' is outside the years 1970-9999`);
  return new Date(date && endOfDay ? time + 86_400_000 : time).toISOString();
}

export function parseFilter(params: URLSearchParams): CallFilter {
  const filter: CallFilter = {};
  const since = single(params, 'since');
  const until = single(params, 'until');
  if (since !== undefined) filter.since = instant('since', since, false);
  if (until !== undefined) filter.until = instant('until', until, true);
  if (filter.since && filter.until && filter.since >= filter.until)
    throw new FilterError('until', 'must be later than since');
  const agents = listOf(params, 'agent', (v) => {
    if (!IDENTIFIER.test(v)) throw new FilterError('agent', `'${v}' is not an agent name`);
    return v;
  });
  if (agents) filter.agents = agents;
  const project = single(params, 'project');
  if (project !== undefined) {
    if (project.length > 4096) throw new FilterError('project', 'longer than 4096 characters');
    filter.project = project;
  }
  const levels = listOf(params, 'level', oneOf('level', LEVELS));
  if (levels) filter.levels = levels;
  const actions = listOf(params, 'action', oneOf('action', ACTIONS));
  if (actions) filter.actions = actions;
  const reason = single(params, 'reason');
  if (reason !== undefined) {
    if (!REASON.test(reason)) throw new FilterError('reason', `'${reason}' is not a reason code (snake_case)`);
    filter.reason = reason;
  }
  const text = single(params, 'q');
  if (text !== undefined) {
    if (text.length > MAX_TEXT) throw new FilterError('q', `longer than ${MAX_TEXT} characters`);
    filter.text = text;
  }
  return filter;
}

function integer(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const value = single(params, name);
  if (value === undefined) return fallback;
  if (!/^\d{1,9}$/.test(value)) throw new FilterError(name, `'${value}' is not a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new FilterError(name, `must be from ${min} to ${max}`);
  return n;
}

/** `page` (from 1) and `page_size` as an offset and a limit. */
export function parsePage(params: URLSearchParams): Page {
  const size = integer(params, 'page_size', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  const page = integer(params, 'page', 1, MAX_PAGE, 1);
  return { offset: (page - 1) * size, limit: size };
}

/** Refuses parameters the path does not take. */
export function refuseUnknown(params: URLSearchParams, allowed: readonly string[]): void {
  for (const name of new Set(params.keys())) {
    if (!allowed.includes(name)) {
      throw new FilterError(name, `unknown parameter; this path takes ${allowed.length ? allowed.join(', ') : 'none'}`);
    }
  }
}

/** A path segment naming a session or a call: bounded, printable. */
export function pathId(name: string, value: string): string {
  if (value.length === 0 || value.length > 1024) throw new FilterError(name, 'must be 1 to 1024 characters');
  if (CONTROL.test(value)) throw new FilterError(name, 'contains control characters');
  return value;
}
