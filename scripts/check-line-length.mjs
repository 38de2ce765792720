// Fails when a non-test source line is longer than 120 characters (issue 29): Prettier wraps
// code; strings and comments are wrapped where they are written. A line whose overflow is a URL
// is allowed, as are generated files and test fixtures.
//
//   node scripts/check-line-length.mjs      (run by `npm run lint`)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const EXEMPT = [/(^|\/)test\//, /(^|\/)dist\//, /\.d\.ts$/];
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => SOURCE.test(file) && !EXEMPT.some((pattern) => pattern.test(file)));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    const length = [...line].length;
    if (length > MAX && !/https?:\/\/\S{20,}/.test(line)) long.push(`${file}:${i + 1}: ${length} characters`);
  });
}
if (long.length > 0) {
  process.stderr.write(
    `${long.join('\n')}\n${long.length} line(s) over ${MAX} characters (wrap them where they are written)\n`,
  );
  process.exit(1);
}
console.log(`line length: ${files.length} source files, none over ${MAX} characters`);
