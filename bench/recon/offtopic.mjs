// The off-topic set: each visible set's tasks run against another repository's tree, where recon
// should answer UNSAT. Pairs are `tasks:repository set`; the repositories are chosen so the two do
// different things (a validation library against a web framework), not two web frameworks.
export const DEFAULT_OFFTOPIC = 'zod:flask,flask:zod,express:zod,issues:zod';
