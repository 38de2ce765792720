import type { Facets } from '@agentgov/core/governance-reader';
import { ACTIONS, LEVELS } from '../../../src/dashboard/filters.js';
import { h } from '../dom.js';

type Field = 'since' | 'until' | 'agent' | 'project' | 'level' | 'action' | 'reason' | 'q';

function select(name: string, label: string, options: readonly string[], current: string | null): HTMLElement {
  return h(
    'label',
    {},
    label,
    h(
      'select',
      { name },
      h('option', { value: '' }, 'any'),
      ...options.map((o) => h('option', { value: o, selected: o === current }, o)),
    ),
  );
}

/**
 * A plain GET form to a page route: submitting it loads that route with the fields as query
 * parameters, the same names the API takes, so the filtered view is a URL like any other.
 */
export function filterForm(action: string, params: URLSearchParams, facets: Facets, fields: Field[]): HTMLFormElement {
  const value = (name: string) => params.get(name);
  const controls: Record<Field, () => HTMLElement> = {
    since: () =>
      h('label', {}, 'from', h('input', { type: 'date', name: 'since', value: value('since')?.slice(0, 10) ?? '' })),
    until: () =>
      h('label', {}, 'to', h('input', { type: 'date', name: 'until', value: value('until')?.slice(0, 10) ?? '' })),
    agent: () => select('agent', 'agent', facets.agents, value('agent')),
    project: () => select('project', 'project', facets.projects, value('project')),
    level: () => select('level', 'level', LEVELS, value('level')),
    action: () => select('action', 'action', ACTIONS, value('action')),
    reason: () => select('reason', 'reason', facets.reasons, value('reason')),
    q: () =>
      h(
        'label',
        {},
        'text',
        h('input', { type: 'search', name: 'q', value: value('q') ?? '', placeholder: 'command, path, URL' }),
      ),
  };
  const form = h(
    'form',
    { class: 'filters', method: 'get', action },
    ...fields.map((f) => controls[f]()),
    h('button', { type: 'submit' }, 'apply'),
  );
  // Empty fields stay out of the URL, so it names only the filters in use.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const [name, v] of new FormData(form)) if (typeof v === 'string' && v !== '') query.set(name, v);
    const text = query.toString();
    window.location.assign(text ? `${action}?${text}` : action);
  });
  return form;
}
