import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption, jsonOption } from './base.js';

export class StatusCommand extends AgentgovCommand {
  static override paths = [['status']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Show system state from the governance database',
    details:
      'Reads system.db (read-only: it never creates or changes it) and shows sessions, ' +
      'events, assessments by level and by action, the most recent high-risk calls, ' +
      'the last ingest of every capture file (offset, events, skipped lines by ' +
      'reason) and the registered gate endpoint. The database is `--db PATH`, else ' +
      'config `governance.db`, else `$AGENTGOV_HOME/system.db`; a missing database ' +
      'says so and exits 4.',
    examples: [
      ['Summary tables', '$0 status'],
      ['JSON for scripts', '$0 status --json-output'],
      ['Another database', '$0 status --db ./system.db'],
      [
        'Calls of the last week by agent (what the dashboard overview shows)',
        '$0 status --since 2026-11-19 --until 2026-11-25 --by agent',
      ],
      ['Reasons that fired in November, as JSON', '$0 status --since 2026-11-01 --by reason --json'],
    ],
  });

  override json = jsonOption('one JSON object');
  db = Option.String('--db', {
    description: 'Governance database file (default: config governance.db, else $AGENTGOV_HOME/system.db)',
  });
  since = Option.String('--since', {
    description: 'Count calls at or after this date (YYYY-MM-DD) or ISO time (default: the first call)',
  });
  until = Option.String('--until', {
    description: 'Count calls up to this date (the whole day) or before this ISO time (default: the last call)',
  });
  by = Option.String('--by', {
    description:
      'Count calls by agent, project or reason over the period (default: agent, when --since or --until is given)',
  });
  config = configOption();

  async run(): Promise<number> {
    if (this.by !== undefined || this.since !== undefined || this.until !== undefined) return this.aggregate();
    const { GovernanceDb, governanceDbPath, loadConfig } = await import('@agentgov/core');
    const loaded = this.db ? undefined : loadConfig({ configPath: this.config });
    const db = GovernanceDb.open(governanceDbPath(loaded, this.db), { readonly: true });
    let status;
    try {
      status = db.status();
    } finally {
      db.close();
    }
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return EXIT.OK;
    }
    const { renderStatus } = await import('../pipeline/status-text.js');
    this.context.stdout.write(renderStatus(status));
    return EXIT.OK;
  }

  /** The dashboard overview's aggregates, read by the same queries, for the terminal. */
  private async aggregate(): Promise<number> {
    const { AgentgovError, governanceDbPath, loadConfig, openSqliteReader } = await import('@agentgov/core');
    const { FilterError, parseFilter } = await import('../dashboard/filters.js');
    const by = this.by ?? 'agent';
    const keys = { agent: 'by_agent', project: 'by_project', reason: 'top_reasons' } as const;
    if (!(by in keys))
      throw new AgentgovError('E_INVALID_ARGUMENT', `--by must be agent, project or reason (got ${by})`);
    const params = new URLSearchParams();
    if (this.since !== undefined) params.set('since', this.since);
    if (this.until !== undefined) params.set('until', this.until);
    let filter;
    try {
      filter = parseFilter(params);
    } catch (error) {
      if (error instanceof FilterError) throw new AgentgovError('E_INVALID_ARGUMENT', `--${error.message}`);
      throw error;
    }
    const loaded = this.db ? undefined : loadConfig({ configPath: this.config });
    const reader = openSqliteReader(governanceDbPath(loaded, this.db));
    try {
      const overview = await reader.overview(filter);
      const rows = overview[keys[by as keyof typeof keys]];
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify({ filter, by, totals: overview.totals, rows }, null, 2)}\n`);
        return EXIT.OK;
      }
      const { renderTable } = await import('../table.js');
      const period = `${filter.since ?? 'the first call'} – ${filter.until ?? 'the last call'}`;
      const line = (key: string, c: typeof overview.totals) => [
        key,
        ...[c.calls, c.risky, c.allow, c.warn, c.ask, c.deny].map(String),
      ];
      this.context.stdout.write(`calls from ${period}, by ${by}:\n`);
      const header = [by.toUpperCase(), 'CALLS', 'RISKY', 'ALLOW', 'WARN', 'ASK', 'DENY'];
      this.context.stdout.write(
        renderTable(header, [...rows.map((r) => line(r.key, r)), line('total', overview.totals)]),
      );
      return EXIT.OK;
    } finally {
      await reader.close();
    }
  }
}
