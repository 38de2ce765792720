import Table from 'cli-table3';
import stringWidth from 'string-width';

/** No borders: columns two spaces apart, as `ls -l` or `docker ps` print. */
const PLAIN = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

/**
 * Rows as an aligned plain-text table (header, a rule of dashes, the rows), laid out by cli-table3,
 * which measures cells in terminal columns (string-width): CJK and emoji take two, combining marks
 * none, so wide text stays aligned.
 */
export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(stringWidth(h), ...rows.map((r) => stringWidth(r[i] ?? ''))));
  const table = new Table({ ...PLAIN, wordWrap: false });
  table.push(
    header,
    widths.map((w) => '-'.repeat(w)),
    ...rows.map((r) => header.map((_, i) => r[i] ?? '')),
  );
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}
