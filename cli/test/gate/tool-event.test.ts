import { expect } from 'chai';
import { isoTimestamp, toolCallEvent } from '../../src/gate/tool-event.js';

describe('tool-event: a live call as a ToolCallEvent', function () {
  it('stamps times exactly as Date#toISOString does, across seconds, days and years', function () {
    const times = [
      0,
      1,
      999,
      1000,
      1001,
      Date.UTC(2026, 10, 22, 23, 59, 59, 999),
      Date.UTC(2026, 10, 23),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1, 0, 0, 0, 5),
      -1,
      -1001,
    ];
    for (let ms = 1_700_000_000_000; ms < 1_700_000_003_000; ms += 7) times.push(ms);
    for (const ms of times) expect(isoTimestamp(ms), String(ms)).to.equal(new Date(ms).toISOString());
  });

  it('uses the given time, else now', function () {
    const input = { framework: 'gate', tool_name: 'Bash', arguments: { command: 'ls' }, session_id: 's' };
    expect(toolCallEvent(input, { framework: 'score-api', defaultCwd: '/p', now: new Date(5) }).timestamp).to.equal(
      '1970-01-01T00:00:00.005Z',
    );
    const before = Date.now();
    const stamped = Date.parse(toolCallEvent(input, { framework: 'score-api', defaultCwd: '/p' }).timestamp);
    expect(stamped).to.be.within(before, Date.now());
  });
});
