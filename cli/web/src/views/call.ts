import type { AssessmentRecord, CallEvidence } from '@agentgov/core/governance-reader';
import { api } from '../api.js';
import { badge, h, number, table, time } from '../dom.js';

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

function assessment(a: AssessmentRecord): HTMLElement {
  const { rules, commands, paths } = a.evidence;
  return h(
    'section',
    { class: 'assessment', 'data-testid': `assessment-${a.kind}` },
    h('h2', {}, a.kind === 'gate' ? 'Gate decision' : 'Assessment at ingest', ' ', h('small', {}, time(a.assessed_at))),
    h(
      'p',
      {},
      'score ',
      h('strong', {}, number(a.score)),
      ' ',
      badge('level', a.level),
      ' ',
      badge('action', a.action),
      ' ',
      h('code', {}, a.reason_code),
    ),
    a.verdict
      ? h(
          'p',
          { 'data-testid': 'verdict' },
          `verdict: ${a.verdict} by ${a.decided_by ?? 'unknown'}${a.verdict_reason ? ` — ${a.verdict_reason}` : ''}`,
        )
      : null,
    h('h3', {}, 'Matched rules'),
    rules.length
      ? table(
          ['rule', 'score', 'reason', 'action', 'on'],
          rules.map((r) => [
            h('code', {}, r.rule_id),
            number(r.score),
            r.reason_code,
            r.action ?? '',
            h('code', {}, r.subject ?? ''),
          ]),
          { 'data-testid': 'rules' },
        )
      : h('p', { 'data-testid': 'rules' }, 'no rule matched'),
    commands?.length ? h('div', {}, h('h3', {}, 'Parsed commands'), h('pre', {}, pretty(commands))) : null,
    paths?.length
      ? h('div', {}, h('h3', {}, 'Paths'), h('ul', {}, ...paths.map((p) => h('li', {}, h('code', {}, p)))))
      : null,
  );
}

export async function renderCall(root: HTMLElement, id: string): Promise<void> {
  const call = await api<CallEvidence>(`/api/calls/${encodeURIComponent(id)}`);
  root.append(
    h('h1', {}, `${call.tool_name} call`),
    h(
      'p',
      {},
      'in session ',
      h(
        'a',
        { href: `/sessions/${encodeURIComponent(call.framework)}/${encodeURIComponent(call.session_id)}` },
        call.session_id,
      ),
      ` of ${call.framework}, ${time(call.timestamp)}, in ${call.project}`,
    ),
    h('h2', {}, 'Arguments'),
    h('pre', { 'data-testid': 'arguments' }, pretty(call.arguments)),
    ...call.assessments.map(assessment),
    call.result ? h('div', {}, h('h2', {}, 'Result'), h('pre', {}, pretty(call.result))) : '',
  );
}
