/** The blind-written training files, one per writer (eval/absa-test-b.tsv is held out of them). */
export const TRAINING_FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'aa', 'ab', 'ac'].map(writerFile);

/**
 * Writers who wrote against the stars on purpose (praise at one star, complaints at five): their
 * rows train detection and aspect polarity without the stars feature, and never the review's
 * polarity, whose stars they would teach to mislead (docs/insights.md, "The stars against the words").
 */
export const STARLESS_FILES = ['aj', 'ak', 'al'].map(writerFile);

/** A writer's file by its letter (`npm run cv:insights -- add=e` tries one not trained on yet). */
export function writerFile(letter: string): string {
  return `eval/absa-train-${letter}.tsv`;
}
