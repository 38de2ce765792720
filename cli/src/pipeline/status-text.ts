import type { GovernanceStatus } from '@agentgov/core';
import { renderTable } from '../table.js';

const pairs = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join('  ');

const short = (text: string | null, max: number): string => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `status` as text: counts, then the recent high-risk calls and the captures as tables. */
export function renderStatus(s: GovernanceStatus): string {
  const out = [
    `database:    ${s.db}`,
    `sessions:    ${s.sessions}`,
    `events:      ${s.events}`,
    `assessments: ${s.assessments.total} (gate decisions: ${s.assessments.gate_decisions})`,
    `  by level:  ${pairs(s.assessments.by_level)}`,
    `  by action: ${pairs(s.assessments.by_action)}`,
    `gate:        ${
      s.gate_endpoint
        ? `${s.gate_endpoint.socket} (pid ${s.gate_endpoint.pid}, since ${s.gate_endpoint.started_at})`
        : 'no gate endpoint registered'
    }`,
    '',
    `recent high-risk calls (${s.recent_high_risk.length}):`,
  ].join('\n');
  const calls = s.recent_high_risk.length
    ? renderTable(
        ['TIME', 'LEVEL', 'SCORE', 'ACTION', 'TOOL', 'SESSION', 'REASON', 'SUBJECT'],
        s.recent_high_risk.map((c) => [
          c.timestamp,
          c.level,
          String(c.score),
          c.verdict ? `${c.action} (gate: ${c.verdict})` : c.action,
          c.tool_name,
          c.session_id.slice(0, 12),
          c.reason_code,
          short(c.subject, 60),
        ]),
      )
    : '  none\n';
  const captures = s.captures.length
    ? renderTable(
        ['LAST INGEST', 'ADAPTER', 'EVENTS', 'OFFSET', 'SKIPPED', 'RESETS', 'FILE'],
        s.captures.map((c) => [
          c.last_ingest,
          c.adapter,
          String(c.events),
          String(c.offset),
          pairs(c.skipped).replaceAll('  ', ', ') || '0',
          pairs(c.resets).replaceAll('  ', ', ') || '0',
          c.file,
        ]),
      )
    : '  none\n';
  const sinks = s.sinks.length
    ? renderTable(
        ['SINK', 'PENDING', 'LAG', 'DELIVERED', 'REJECTED', 'LAST DELIVERY', 'FAILURES'],
        s.sinks.map((k) => [
          k.sink,
          String(k.pending),
          `${k.lag_seconds}s`,
          String(k.delivered),
          String(k.rejected),
          k.last_delivered_at ?? '-',
          k.failures ? `${k.failures} (next try ${k.next_attempt_at ?? '?'})` : '0',
        ]),
      ) +
      s.sinks
        .flatMap((k) => [
          ...(k.last_error
            ? [
                `  ${k.sink} last error (${k.last_error_at ?? '?'}` +
                  `${k.failures ? '' : ', recovered since'}): ` +
                  `${k.last_error}`,
              ]
            : []),
          ...(k.last_rejection ? [`  ${k.sink} last refused: ${k.last_rejection}`] : []),
        ])
        .map((line) => `${line}\n`)
        .join('')
    : '  none\n';
  return `${out}\n${calls}\ncaptures (${s.captures.length}):\n${captures}\noutbox sinks (${s.sinks.length}):\n${sinks}`;
}
