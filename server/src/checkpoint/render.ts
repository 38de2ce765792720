import type { CheckpointResult } from './checkpoint.js';

function lintLines(lint: NonNullable<CheckpointResult['lint']>): string[] {
  const lines: string[] = [];
  for (const l of lint.linters) {
    if (l.status === 'ran')
      lines.push(
        `lint ${l.name}: ${l.errors} error(s), ${l.warnings} warning(s) in ${l.files_checked} file(s) — ${l.tool}`,
      );
    else lines.push(`lint ${l.name}: ${l.status === 'failed' ? 'FAILED' : 'not applicable'} — ${l.reason}`);
  }
  if (lint.fixed_files.length) lines.push(`fixed: ${lint.fixed_files.join(', ')}`);
  lines.push(...lint.problems.map((p) => `  ${p}`));
  if (lint.more)
    lines.push(
      `  … ${lint.more} more; per rule: ${Object.entries(lint.by_rule ?? {})
        .map(([rule, n]) => `${rule} ${n}`)
        .join(', ')}`,
    );
  return lines;
}

function testLines(tests: NonNullable<CheckpointResult['tests']>): string[] {
  const lines: string[] = [
    `tests (${tests.runners.join(', ')}; max_test_hops ` +
      `${tests.max_hops}; cached: ${tests.cached.used}, ` +
      `${tests.cached.reason}):`,
  ];
  for (const hop of tests.hops) {
    if (hop.status === 'empty') lines.push(`  distance ${hop.distance}: no test files`);
    else if (hop.status === 'not_run')
      lines.push(`  distance ${hop.distance}: not run (${hop.files.length} file(s)) — ${hop.reason}`);
    else
      lines.push(
        `  distance ${hop.distance}: ${hop.status.toUpperCase()} ` +
          `${hop.passed} passed, ${hop.failed} failed, ` +
          `${hop.skipped} skipped in ${hop.duration_ms} ms — ` +
          `${hop.commands.join(' ; ')}`,
      );
  }
  for (const f of tests.failures) {
    lines.push(`  ✗ ${f.id}`, ...f.message.split('\n').map((m) => `      ${m}`), ...f.stack.map((s) => `      ${s}`));
  }
  for (const e of tests.file_errors)
    lines.push(`  ✗ ${e.file} did not run:`, ...e.output.split('\n').map((m) => `      ${m}`));
  if (tests.note) lines.push(`  note: ${tests.note}`);
  return lines;
}

/** The checkpoint answer as an agent reads it: the verdict first, then only what it can act on. */
export function renderCheckpoint(result: CheckpointResult): string {
  const lines = [result.summary];
  if (result.lint) lines.push(...lintLines(result.lint));
  if (result.tests) lines.push(...testLines(result.tests));
  if (result.commit) {
    const c = result.commit;
    if (c.committed) {
      const rewrote = c.hook_modified.join(', ');
      const hook = rewrote ? ` (pre-commit hook rewrote ${rewrote}; re-staged and included)` : '';
      lines.push(`commit ${c.sha} on ${c.parent?.slice(0, 12) ?? 'an empty branch'}: ${c.files.join(', ')}${hook}`);
    } else lines.push(`not committed: ${c.reason}`);
    if (c.note) lines.push(`  note: ${c.note}`);
    if (c.fixes_not_committed?.length) {
      const left = c.fixes_not_committed.join(', ');
      lines.push(`  not committed (lint fixes outside changed_files, left in the work tree): ${left}`);
    }
  }
  if (result.push)
    lines.push(
      `pushed ${result.push.branch} to ${result.push.remote}${result.push.range ? ` (${result.push.range})` : ''}`,
    );
  for (const s of result.skipped) lines.push(`skipped ${s.step}: ${s.reason}`);
  if (result.test_impact) {
    const t = result.test_impact;
    lines.push(
      `test impact: ${t.candidates.length} candidate test file(s)` +
        `${t.candidates.length ? `: ${t.candidates.map((c) => `${c.file} (distance ${c.distance})`).join(', ')}` : ''}`,
    );
    lines.push(
      t.coverage
        ? `coverage: ${(t.coverage.line_rate * 100).toFixed(1)}% of ` +
            `${t.coverage.lines_total} lines (${t.coverage.source})`
        : `coverage: none — ${t.coverage_reason}`,
    );
  }
  return lines.join('\n');
}
