import type { Facets, KeyCounts, Overview } from '@agentgov/core/governance-reader';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { api } from '../api.js';
import { h, href, number, table } from '../dom.js';
import { filterForm } from './filter-form.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const ACTION_COLOURS = { allow: '#8fbf8f', warn: '#e6c35c', ask: '#e39b4f', deny: '#c9483c' } as const;
const DAY = 86_400_000;

/** The last seven days of recorded calls, when the URL names no period: "this week" of the data, not of the clock. */
export function defaultPeriod(params: URLSearchParams, facets: Facets): boolean {
  if (params.has('since') || params.has('until') || !facets.last_call) return false;
  const last = Date.parse(facets.last_call.slice(0, 10));
  params.set('since', new Date(last - 6 * DAY).toISOString().slice(0, 10));
  params.set('until', facets.last_call.slice(0, 10));
  return true;
}

function card(label: string, value: number, id: string, link?: string): HTMLElement {
  const figure = h('div', { class: 'value', 'data-testid': id }, number(value));
  return h(
    'div',
    { class: 'card' },
    h('div', { class: 'label' }, label),
    link ? h('a', { href: link }, figure) : figure,
  );
}

function keyTable(title: string, rows: KeyCounts[], link: (key: string) => string, id: string): HTMLElement {
  return h(
    'section',
    {},
    h('h2', {}, title),
    table(
      ['', 'calls', 'risky', 'ask', 'deny'],
      rows.map((r) => [
        h('a', { href: link(r.key) }, r.key),
        number(r.calls),
        number(r.risky),
        number(r.ask),
        number(r.deny),
      ]),
      { 'data-testid': id },
    ),
  );
}

export async function renderOverview(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const facets = await api<Facets>('/api/facets');
  if (defaultPeriod(params, facets)) history.replaceState(null, '', href('/', Object.fromEntries(params)));
  const overview = await api<Overview>('/api/overview', params);
  const period = { since: params.get('since') ?? undefined, until: params.get('until') ?? undefined };
  const scoped = { ...period, agent: params.get('agent') ?? undefined, project: params.get('project') ?? undefined };
  const { totals } = overview;
  const canvas = h('canvas', { 'aria-label': 'calls per day by action', role: 'img' });
  const agents = h('canvas', { 'aria-label': 'calls by agent', role: 'img' });
  root.append(
    h('h1', {}, 'Overview'),
    filterForm('/', params, facets, ['since', 'until', 'agent', 'project']),
    h(
      'div',
      { class: 'cards' },
      card('calls', totals.calls, 'total-calls', href('/sessions', scoped)),
      card(
        'risky (high, critical)',
        totals.risky,
        'total-risky',
        href('/sessions', { ...scoped, level: 'high,critical' }),
      ),
      ...(['allow', 'warn', 'ask', 'deny'] as const).map((a) =>
        card(a, totals[a], `action-${a}`, href('/sessions', { ...scoped, action: a })),
      ),
    ),
    h('section', { class: 'chart' }, h('h2', {}, 'Calls per day'), h('div', { class: 'canvas' }, canvas)),
    h('section', { class: 'chart' }, h('h2', {}, 'By agent'), h('div', { class: 'canvas small' }, agents)),
    h(
      'div',
      { class: 'columns' },
      keyTable(
        'By project',
        overview.by_project,
        (key) => href('/sessions', { ...period, project: key }),
        'by-project',
      ),
      keyTable('Reasons', overview.top_reasons, (key) => href('/sessions', { ...scoped, reason: key }), 'top-reasons'),
      h(
        'section',
        {},
        h('h2', {}, 'Rules that fired'),
        table(
          ['rule', 'calls'],
          overview.top_rules.map((r) => [r.rule_id, number(r.calls)]),
          { 'data-testid': 'top-rules' },
        ),
      ),
    ),
  );
  const options = {
    animation: false as const,
    responsive: true,
    maintainAspectRatio: false,
    scales: { x: { stacked: true }, y: { stacked: true } },
  };
  new Chart(canvas, {
    type: 'bar',
    data: {
      labels: overview.per_day.map((d) => d.day),
      datasets: (['allow', 'warn', 'ask', 'deny'] as const).map((a) => ({
        label: a,
        data: overview.per_day.map((d) => d[a]),
        backgroundColor: ACTION_COLOURS[a],
      })),
    },
    options,
  });
  new Chart(agents, {
    type: 'bar',
    data: {
      labels: overview.by_agent.map((r) => r.key),
      datasets: (['allow', 'warn', 'ask', 'deny'] as const).map((a) => ({
        label: a,
        data: overview.by_agent.map((r) => r[a]),
        backgroundColor: ACTION_COLOURS[a],
      })),
    },
    options,
  });
}
