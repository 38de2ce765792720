import type { Facets, SessionSummary } from '@agentgov/core/governance-reader';
import { api } from '../api.js';
import { h, href, number, table, time } from '../dom.js';
import { filterForm } from './filter-form.js';
import { defaultPeriod } from './overview.js';

interface SessionsAnswer {
  total: number;
  offset: number;
  limit: number;
  rows: SessionSummary[];
}

/** Previous / next links that keep every filter: a page of a filtered list is a URL too. */
export function pager(
  path: string,
  params: URLSearchParams,
  answer: { total: number; offset: number; limit: number },
): HTMLElement {
  const page = Math.floor(answer.offset / answer.limit) + 1;
  const pages = Math.max(1, Math.ceil(answer.total / answer.limit));
  const link = (n: number, label: string) =>
    h('a', { href: href(path, { ...Object.fromEntries(params), page: n }), rel: label }, label);
  return h(
    'nav',
    { class: 'pager', 'data-testid': 'pager' },
    page > 1 ? link(page - 1, 'prev') : null,
    h('span', {}, `page ${page} of ${pages}`),
    page < pages ? link(page + 1, 'next') : null,
  );
}

export async function renderSessions(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const facets = await api<Facets>('/api/facets');
  // Like the overview: the last week of data unless the URL names a period (all time over a million calls takes
  // seconds).
  if (defaultPeriod(params, facets)) history.replaceState(null, '', href('/sessions', Object.fromEntries(params)));
  const answer = await api<SessionsAnswer>('/api/sessions', params);
  root.append(
    h('h1', {}, 'Sessions'),
    filterForm('/sessions', params, facets, ['since', 'until', 'agent', 'project', 'level', 'action', 'reason', 'q']),
    h(
      'p',
      { class: 'summary' },
      h('span', { 'data-testid': 'session-total' }, number(answer.total)),
      ' sessions match',
    ),
    table(
      ['last call', 'agent', 'session', 'project', 'calls', 'risky', 'asked or denied', 'max score'],
      answer.rows.map((s) => [
        time(s.last_call),
        s.framework,
        h(
          'a',
          { href: `/sessions/${encodeURIComponent(s.framework)}/${encodeURIComponent(s.session_id)}` },
          s.session_id,
        ),
        s.project,
        number(s.calls),
        number(s.risky),
        number(s.blocked),
        number(s.max_score),
      ]),
      { 'data-testid': 'sessions' },
    ),
    pager('/sessions', params, answer),
  );
}
