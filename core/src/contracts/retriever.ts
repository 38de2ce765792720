/** The parsed task given to every retriever. */
export interface RetrievalQuery {
  task: string;
  terms: string[];
  identifiers: string[];
  paths: string[];
  quoted: string[];
  seeds: string[];
  pins: string[];
}

/** A raw scored candidate: one definition, one retriever's opinion. */
export interface RetrieverCandidate {
  def_uid: string;
  score: number;
  /** Short explanation, e.g. the matched term. */
  why?: string;
}

export interface RetrievalContext {
  /** The code index the retriever reads (server-defined). */
  index: unknown;
  /** Candidates produced by earlier retriever phases (expansion retrievers only). */
  prior?: ReadonlyMap<string, ReadonlyMap<string, RetrieverCandidate>>;
}

/**
 * A retriever returns raw scored candidates per definition and knows nothing of other retrievers.
 * `phase: 'expand'` retrievers run after the primary ones and receive their pool in `prior`.
 */
export interface Retriever {
  name: string;
  phase?: 'primary' | 'expand';
  retrieve(query: RetrievalQuery, context: RetrievalContext): Promise<RetrieverCandidate[]>;
}

/** The pool being filled during retrieval: retriever name → def_uid → candidate. */
export type CandidatePool = Map<string, Map<string, RetrieverCandidate>>;
