/**
 * Words that carry no retrieval signal in a task. Two kinds:
 * - English function words ("the", "which"): never content.
 * - Task words, the verbs and nouns every task or commit message uses ("fix", "add", "version",
 *   "hello", "test"): usually noise, but in a repository that defines them they can be the very
 *   thing asked about (`hello` in flask's examples). parseQuery drops them only while the task has
 *   other words to go on, or when the repository does not know them (see parseQuery).
 * Both are dropped from `terms` only; an identifier that contains one is kept whole.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below
  between both but by can cannot could did didn do does doesn doing don down during each else etc ever every few
  for from further had has hasn have having he her here hers herself him himself his how however i if in into is
  isn it its itself just let like ll me might more most much must my myself no nor not now of off on once only or
  other ought our ours ourselves out over own per quite rather re same she should so some still such than that
  the their theirs them themselves then there these they this those though through thus to too under until up upon
  us use used uses using ve very via was wasn we were weren what when where whether which while who whom whose why
  will with within without won would yet you your yours yourself yourselves
  `
    .split(/\s+/)
    .filter(Boolean),
);

export const TASK_WORDS: ReadonlySet<string> = new Set(
  `  fix fixes fixed fixing add adds added adding remove removes removed update updates updated change changes changed
  make makes made allow allows allowed support supports supported issue issues bug bugs problem instead
  new old now want wants need needs get gets got work works working able e g eg ie pr commit see also
  should would could please thanks thank hi hello example following follow expected actual behavior behaviour
  version code line lines one two first second way thing things something anything nothing case cases
  feat docs doc chore refactor perf test tests ci build style revert wip minor small`
    .split(/\s+/)
    .filter((word) => word && !ENGLISH_STOP_WORDS.has(word)),
);

export const STOP_WORDS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...TASK_WORDS]);
