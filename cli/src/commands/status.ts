import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, configOption } from './base.js';

export class StatusCommand extends AgentgovCommand {
  static override paths = [['status']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: 'Show system state from the governance database',
    details:
      'Reads system.db (read-only: it never creates or changes it) and shows sessions, events, assessments by level and by action, the most recent high-risk calls, the last ingest of every capture file (offset, events, skipped lines by reason) and the registered gate endpoint. The database is `--db PATH`, else config `governance.db`, else `$AGENTGOV_HOME/system.db`; a missing database says so and exits 4.',
    examples: [
      ['Summary tables', '$0 status'],
      ['JSON for scripts', '$0 status --json-output'],
      ['Another database', '$0 status --db ./system.db'],
    ],
  });

  jsonOutput = Option.Boolean('--json,--json-output', false, { description: 'Print one JSON object instead of tables (also `--json-output`) (default: false)' });
  db = Option.String('--db', { description: 'Governance database file (default: config governance.db, else $AGENTGOV_HOME/system.db)' });
  config = configOption();

  async run(): Promise<number> {
    const { GovernanceDb, governanceDbPath, loadConfig } = await import('@agentgov/core');
    const loaded = this.db ? undefined : loadConfig({ configPath: this.config });
    const db = GovernanceDb.open(governanceDbPath(loaded, this.db), { readonly: true });
    let status;
    try {
      status = db.status();
    } finally {
      db.close();
    }
    if (this.jsonOutput) {
      this.context.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return EXIT.OK;
    }
    const { renderStatus } = await import('../pipeline/status-text.js');
    this.context.stdout.write(renderStatus(status));
    return EXIT.OK;
  }
}
