import { expect } from 'chai';
import stringWidth from 'string-width';
import { renderTable } from '../src/table.js';

describe('renderTable (cli-table3, width-aware)', () => {
  it('aligns columns by terminal width: CJK and emoji take two columns, combining marks none', () => {
    const text = renderTable(
      ['NAME', 'VERSION', 'HOOKS'],
      [
        ['漢字プラグイン', '1.0.0', 'sinks'],
        ['plain', '2.10.3', 'frameworks, sinks'],
        ['café́', '0.1', '-'],
        ['🚀 rocket', '3', 'assess'],
      ],
    );
    const lines = text.trimEnd().split('\n');
    expect(lines).to.have.length(6);
    // Every VERSION cell starts at the same terminal column.
    const column = (line: string, cell: string) => stringWidth(line.slice(0, line.indexOf(cell)));
    const at = column(lines[0]!, 'VERSION');
    expect(at).to.equal(stringWidth('漢字プラグイン') + 2);
    for (const [line, cell] of [
      [lines[2], '1.0.0'],
      [lines[3], '2.10.3'],
      [lines[4], '0.1'],
      [lines[5], '3'],
    ] as const)
      expect(column(line!, cell), line).to.equal(at);
    expect(lines[1]).to.equal(`${'-'.repeat(14)}  -------  -----------------`);
  });

  it('pads nothing after the last column and ends with a newline', () => {
    expect(
      renderTable(
        ['A', 'B'],
        [
          ['x', 'y'],
          ['long', 'z'],
        ],
      ),
    ).to.equal('A     B\n----  -\nx     y\nlong  z\n');
  });
});
