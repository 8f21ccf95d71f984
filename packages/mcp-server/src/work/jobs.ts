// Engine jobs: the engine calls the server makes, as plain data that can cross a thread. Contract:
// `runJob` is the only place those calls happen, so a job gives the same answer inline and in a
// worker; every job and answer is structured-clone safe (strings, numbers, plain objects). An
// answer never repeats a long input: when the engine hands the input back unchanged, the answer
// says `same` instead of carrying a second copy across the thread.
import {
  type CompressOptions,
  type CompressResult,
  compress,
  countTokens,
  type NarrowResult,
  narrow,
  type ToonResult,
  toonDecode,
  toonEncode,
} from "@caveman/engine";

export type EngineJob =
  | { op: "compress"; input: string; options: CompressOptions }
  | { op: "narrow"; input: string; query: string; hint?: string; pageTokens?: number }
  | { op: "count"; input: string }
  | { op: "toon_encode"; input: string }
  | { op: "toon_decode"; input: string };

/** A compress result whose output is left out when it is the input itself. */
type CompressAnswer = Omit<CompressResult, "output"> & { output?: string; same?: true };
/** A narrowed view plus its token count; the output is left out when it is the whole original. */
type NarrowAnswer = Omit<NarrowResult, "output"> & { output?: string; same?: true; tokens: number };
/** A TOON result; on failure it carries the input's token count for the pass-through note. */
export type ToonAnswer = ToonResult & { inputTokens?: number };

export interface AnswerOf {
  compress: CompressAnswer;
  narrow: NarrowAnswer;
  count: number;
  toon_encode: ToonAnswer;
  toon_decode: ToonAnswer;
}

export type Answer<J extends EngineJob> = AnswerOf[J["op"]];

/** Runs one job on this thread. May throw if the engine does (it promises not to). */
export function runJob<J extends EngineJob>(job: J): Answer<J>;
export function runJob(job: EngineJob): AnswerOf[EngineJob["op"]] {
  switch (job.op) {
    case "compress": {
      const { output, ...rest } = compress(job.input, job.options);
      return output === job.input ? { ...rest, same: true } : { ...rest, output };
    }
    case "narrow": {
      const { output, ...rest } = narrow(job.input, job.query, {
        ...(job.hint ? { hint: job.hint } : {}),
        ...(job.pageTokens ? { pageTokens: job.pageTokens } : {}),
      });
      const tokens = countTokens(output);
      return output === job.input ? { ...rest, tokens, same: true } : { ...rest, tokens, output };
    }
    case "count":
      return countTokens(job.input);
    case "toon_encode": {
      const r = toonEncode(job.input);
      return r.ok ? r : { ...r, inputTokens: countTokens(job.input) };
    }
    case "toon_decode":
      return toonDecode(job.input);
  }
}

/** The output of an answer that may say `same` instead of repeating its input. */
export function outputOf(answer: { output?: string; same?: true }, input: string): string {
  return answer.same ? input : (answer.output ?? "");
}
