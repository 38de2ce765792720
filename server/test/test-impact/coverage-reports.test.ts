import { expect } from 'chai';
import {
  detectFormat,
  parseCoverageReport,
  parseCoveragePy,
  parseIstanbul,
  parseLcov,
} from '../../src/test-impact/coverage-reports.js';

const ROOT = '/repo';
const SUITE = 'report:coverage/report';

function linesOf(report: ReturnType<typeof parseLcov>, scope: 'test' | 'file', id: string): Record<string, number[]> {
  const entry = report.coverage.find((e) => e.scope === scope && e.id === id);
  return Object.fromEntries((entry?.files ?? []).map((f) => [f.file, f.lines]));
}

describe('coverage reports', () => {
  describe('format detection', () => {
    const cases: [string, string, string][] = [
      ['lcov.info', 'TN:\nSF:/repo/a.js\nend_of_record\n', 'lcov'],
      ['out.txt', 'SF:a.js\nDA:1,1\nend_of_record\n', 'lcov'],
      ['coverage.json', JSON.stringify({ meta: { version: '7.6' }, files: {} }), 'coverage.py'],
      ['coverage-final.json', JSON.stringify({ '/repo/a.js': { statementMap: {}, s: {} } }), 'istanbul'],
    ];
    for (const [name, text, format] of cases)
      it(`${name} → ${format}`, () => expect(detectFormat(name, text)).to.equal(format));

    it('refuses what is neither lcov nor JSON, and broken JSON, with E_INVALID_ARGUMENT', () => {
      expect(() => detectFormat('x.txt', 'hello'))
        .to.throw()
        .with.property('code', 'E_INVALID_ARGUMENT');
      expect(() => parseCoverageReport(ROOT, 'c.json', '{ "files": '))
        .to.throw(/not valid JSON/)
        .with.property('code', 'E_INVALID_ARGUMENT');
      expect(() => parseIstanbul(ROOT, 'c.json', '[1, 2]')).to.throw(/not an istanbul coverage map/);
      expect(() => parseCoveragePy(ROOT, 'c.json', '{"meta": {}}')).to.throw(/no "files" object/);
    });
  });

  describe('istanbul coverage-final.json', () => {
    const report = parseIstanbul(
      ROOT,
      'coverage/report',
      JSON.stringify({
        '/repo/src/math.js': {
          path: '/repo/src/math.js',
          statementMap: { 0: { start: { line: 2 } }, 1: { start: { line: 3 } }, 2: { start: { line: 9 } } },
          s: { 0: 4, 1: 1, 2: 0 },
        },
        '/elsewhere/lib.js': { path: '/elsewhere/lib.js', statementMap: { 0: { start: { line: 1 } } }, s: { 0: 1 } },
        '/repo/src/bad.js': { path: '/repo/src/bad.js', statementMap: { 0: { start: {} } }, s: { 0: 1, 1: 'x' } },
        '/repo/src/nothing.js': 'not an object',
      }),
    );
    it('covers the start line of every statement that ran, per file (no per-test attribution)', () => {
      expect(report.granularity).to.equal('file');
      expect(linesOf(report, 'file', SUITE)['src/math.js']).to.deep.equal([2, 3]);
    });
    it('counts and names what it skipped: outside the repository, malformed statements, non-objects', () => {
      expect(report.skipped).to.deep.equal([
        { file: '/elsewhere/lib.js', reason: 'outside the repository' },
        { file: '/repo/src/bad.js', reason: '2 statement(s) without a start line or count' },
        { file: '/repo/src/nothing.js', reason: 'no statementMap/s (not an istanbul file coverage object)' },
      ]);
      expect(report.files).to.equal(2);
    });
  });

  describe('lcov.info', () => {
    const report = parseLcov(
      ROOT,
      'coverage/report',
      [
        'TN:',
        'SF:src/math.js',
        'FN:1,clamp',
        'DA:1,1',
        'DA:2,0',
        'DA:3,5,abc',
        'DA:x,1',
        'LF:3',
        'LH:2',
        'end_of_record',
        'SF:../outside.js',
        'DA:1,1',
        'end_of_record',
        'garbage line',
        'SF:/repo/src/tail.js',
        'DA:4,1',
      ].join('\n'),
    );
    it('covers the DA lines with a count, relative paths against the repository root', () => {
      expect(linesOf(report, 'file', SUITE)).to.deep.equal({ 'src/math.js': [1, 3], 'src/tail.js': [4] });
    });
    it('counts malformed records, outside files, stray lines and a truncated last record', () => {
      expect(report.skipped.map((s) => s.reason)).to.deep.equal([
        '1 malformed DA record(s)',
        'outside the repository',
        'line 14: not an lcov record: garbage line',
        'no end_of_record (truncated report); its lines are kept',
      ]);
    });
  });

  describe('coverage.py JSON', () => {
    it('turns pytest node id contexts into per-test coverage; the empty context counts for the suite', () => {
      const report = parseCoveragePy(
        ROOT,
        'coverage/report',
        JSON.stringify({
          meta: { version: '7.6.1', show_contexts: true },
          files: {
            'calc/math.py': {
              executed_lines: [1, 4, 5, 6],
              contexts: {
                1: [''],
                4: ['tests/test_math.py::test_clamp|run'],
                5: ['tests/test_math.py::test_clamp|run', 'tests/test_math.py::TestA::test_b[1]|setup'],
                6: [7],
                x: ['a'],
              },
            },
          },
        }),
      );
      expect(report.granularity).to.equal('test');
      expect(linesOf(report, 'test', 'tests/test_math.py::test_clamp')).to.deep.equal({ 'calc/math.py': [4, 5] });
      expect(linesOf(report, 'test', 'tests/test_math.py::TestA::test_b[1]')).to.deep.equal({ 'calc/math.py': [5] });
      expect(linesOf(report, 'file', SUITE)).to.deep.equal({ 'calc/math.py': [1] });
      expect(report.skipped).to.deep.equal([{ file: 'calc/math.py', reason: '2 malformed context entr(y/ies)' }]);
    });

    it('without contexts, executed_lines count per file for the suite', () => {
      const report = parseCoveragePy(
        ROOT,
        'coverage/report',
        JSON.stringify({
          meta: { version: '7.6.1' },
          files: {
            'calc/math.py': { executed_lines: [1, 2, 'x'] },
            '/tmp/other.py': { executed_lines: [1] },
            'calc/empty.py': {},
          },
        }),
      );
      expect(report.granularity).to.equal('file');
      expect(linesOf(report, 'file', SUITE)).to.deep.equal({ 'calc/math.py': [1, 2] });
      expect(report.skipped.map((s) => s.reason)).to.deep.equal([
        '1 executed line(s) that are not line numbers',
        'outside the repository',
        'neither contexts nor executed_lines',
      ]);
    });
  });
});
