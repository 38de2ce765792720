import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { makeDashboardHome, startDashboard, type DashboardHome } from '../dashboard/fixture.js';

describe('agentgov status --since/--until/--by (the dashboard overview in a terminal)', function () {
  this.timeout(120_000);
  let home: DashboardHome;

  before(() => {
    home = makeDashboardHome(1200);
  });

  it('prints the same numbers the dashboard API gives, as JSON and as a table', async () => {
    const dashboard = await startDashboard(['--db', home.db], home.env);
    try {
      for (const by of ['agent', 'project', 'reason'] as const) {
        const cli = await runCli(
          ['status', '--db', home.db, '--since', '2026-11-10', '--until', '2026-11-25', '--by', by, '--json'],
          { env: home.env },
        );
        expect(cli.code, cli.stderr).to.equal(0);
        const json = JSON.parse(cli.stdout);
        const api = (await (
          await fetch(`${dashboard.url}/api/overview?since=2026-11-10&until=2026-11-25`)
        ).json()) as Record<string, unknown>;
        expect(json.totals).to.deep.equal(api['totals']);
        expect(json.rows).to.deep.equal(api[{ agent: 'by_agent', project: 'by_project', reason: 'top_reasons' }[by]]);
        expect(json.rows.length).to.be.greaterThan(0);
      }
    } finally {
      await dashboard.daemon.stop();
    }
    const table = await runCli(['status', '--db', home.db, '--since', '2026-11-10', '--by', 'agent'], {
      env: home.env,
    });
    expect(table.code, table.stderr).to.equal(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).to.equal('calls from 2026-11-10T00:00:00.000Z – the last call, by agent:');
    expect(lines[1]).to.match(/^AGENT\s+CALLS\s+RISKY\s+ALLOW\s+WARN\s+ASK\s+DENY$/);
    const total = lines.at(-1)!.split(/\s+/);
    const rows = lines.slice(3, -1).map((l) => l.split(/\s+/));
    expect(total[0]).to.equal('total');
    expect(rows.reduce((n, r) => n + Number(r[1]), 0)).to.equal(Number(total[1]));
  });

  it('refuses a bad period or grouping as a usage error that names it', async () => {
    const bad = await runCli(['status', '--db', home.db, '--since', 'last week', '--by', 'agent'], { env: home.env });
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain("error [E_INVALID_ARGUMENT]: --since: 'last week' is not a date");
    const by = await runCli(['status', '--db', home.db, '--by', 'tool'], { env: home.env });
    expect(by.code).to.equal(2);
    expect(by.stderr).to.contain('--by must be agent, project or reason (got tool)');
  });
});
