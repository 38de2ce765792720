import type { CallSummary, SessionSummary } from '@agentgov/core/governance-reader';
import { api } from '../api.js';
import { badge, h, number, table, time } from '../dom.js';
import { pager } from './sessions.js';

interface SessionAnswer {
  session: SessionSummary;
  total: number;
  offset: number;
  limit: number;
  calls: CallSummary[];
}

export async function renderSession(
  root: HTMLElement,
  framework: string,
  sessionId: string,
  params: URLSearchParams,
): Promise<void> {
  const path = `/sessions/${encodeURIComponent(framework)}/${encodeURIComponent(sessionId)}`;
  const answer = await api<SessionAnswer>(`/api${path}`, params);
  const { session } = answer;
  root.append(
    h('h1', {}, `Session ${session.session_id}`),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'agent'),
      h('dd', {}, session.framework),
      h('dt', {}, 'project'),
      h('dd', {}, session.project),
      h('dt', {}, 'time'),
      h('dd', {}, `${time(session.first_call)} – ${time(session.last_call)}`),
      h('dt', {}, 'calls'),
      h(
        'dd',
        {},
        `${number(session.calls)} (${number(session.risky)} risky, ${number(session.blocked)} asked or denied)`,
      ),
    ),
    table(
      ['time', 'tool', 'subject', 'score', 'level', 'action', 'reason', 'gate'],
      answer.calls.map((c) => [
        h('a', { href: `/calls/${encodeURIComponent(c.id)}` }, time(c.timestamp)),
        c.tool_name,
        h('code', {}, c.subject ?? ''),
        number(c.score),
        badge('level', c.level),
        badge('action', c.action),
        c.reason_code,
        c.verdict ?? '',
      ]),
      { 'data-testid': 'timeline' },
    ),
    pager(path, params, answer),
  );
}
