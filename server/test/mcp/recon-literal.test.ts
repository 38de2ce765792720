import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { ServeClient, type Structured } from '../checkpoint/serve-client.js';
import { gitInit } from '../recon/fixture-repo.js';

type Recon = Structured & { gate: string; results: { path: string; name?: string }[] };

/**
 * A Rust command-line tool whose flags are defined in one long file, one documented struct per flag: a task names a
 * flag the way its users spell it (`-l/--files-with-matches`), not by a word of the code, while the prose words of
 * the task ("count", "files", "matches") fill the searching modules.
 */
function flagTool(): Record<string, string> {
  const flags = [
    'after-context',
    'before-context',
    'color',
    'column',
    'context-separator',
    'encoding',
    'field-match-separator',
    'fixed-strings',
    'glob',
    'heading',
    'hidden',
    'ignore-case',
    'invert-match',
    'line-number',
    'max-columns',
    'max-depth',
    'mmap',
    'null',
    'only-matching',
    'path-separator',
    'pretty',
    'regexp',
    'replace',
    'smart-case',
    'sort',
    'threads',
    'trim',
    'type',
    'word-regexp',
    'binary',
    'count',
    'files-with-matches',
  ];
  const struct = (flag: string) =>
    flag
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('');
  const short: Record<string, string> = { count: 'c', 'files-with-matches': 'l' };
  const defs = flags
    .map((flag) => {
      const spelled = short[flag] ? `-${short[flag]}/--${flag}` : `--${flag}`;
      return (
        `/// ${spelled}\n#[derive(Debug)]\nstruct ${struct(flag)};\n\n` +
        `impl Flag for ${struct(flag)} {\n` +
        `    fn name_long(&self) -> &'static str {\n        "${flag}"\n    }\n` +
        `    fn doc_short(&self) -> &'static str {\n        "Sets the ${flag.replace(/-/g, ' ')} option."\n    }\n}\n`
      );
    })
    .join('\n');
  return {
    'Cargo.toml': '[package]\nname = "seek"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/main.rs': 'mod count;\nmod flags;\nmod search;\n\nfn main() {\n    search::run();\n}\n',
    'src/flags/mod.rs': "mod defs;\n\npub trait Flag {\n    fn name_long(&self) -> &'static str;\n}\n",
    'src/flags/defs.rs': `use super::Flag;\n\n${defs}`,
    'src/count.rs':
      '/// Counts the matches of every file, so the count of matching files is consistent with the files listed.\n' +
      'pub fn count_matches(files: &[String]) -> usize {\n    files.iter().map(|file| count_file(file)).sum()\n}\n\n' +
      '/// Counts the matches in one file; binary files count as none.\n' +
      'pub fn count_file(file: &str) -> usize {\n    file.matches("needle").count()\n}\n',
    'src/search.rs':
      '/// Searches the files and reports the files with matches, or the count of matches per file.\n' +
      'pub fn run() {\n    let files = list_files();\n    let _ = crate::count::count_matches(&files);\n}\n\n' +
      '/// The files to search: every file with matches is reported once.\n' +
      'fn list_files() -> Vec<String> {\n    vec![String::from("a.txt")]\n}\n',
  };
}

describe('agentgov serve over stdio: recon finds a file by a flag spelled in the task', function () {
  this.timeout(120_000);
  let serve: ServeClient;
  before(async () => {
    const repo = makeTempDir('agentgov-literal-');
    writeTree(repo, flagTool());
    gitInit(repo);
    serve = await ServeClient.start(repo);
  });
  after(async () => serve?.close());

  it('the file that has `-l/--files-with-matches` as written ranks first', async () => {
    const { data, text } = await serve.call('recon', {
      task:
        'document that `-c/--count` can be inconsistent with `-l/--files-with-matches`\n\n' +
        'Counting the matches of files is not the same as listing the files with matches.',
    });
    const answer = data as Recon;
    expect(answer.error, text).to.equal(undefined);
    expect(answer.results[0]?.path, text).to.equal('src/flags/defs.rs');
  });

  it('a flag the repository does not spell votes for nothing', async () => {
    const { data, text } = await serve.call('recon', {
      task: 'document that `--frobnicate` counts the matches of files',
    });
    const answer = data as Recon;
    expect(answer.results[0]?.path, text).to.not.equal('src/flags/defs.rs');
  });
});
