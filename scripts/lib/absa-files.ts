// The labelled files the aspect model trains on, by kind of writer.
import type { Row } from './absa-corpus.js';

/** The blind-written training files, one per writer (eval/absa-test-b.tsv is held out of them). */
export const TRAINING_FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'aa', 'ab', 'ac'].map(writerFile);

/**
 * Writers who wrote against the stars on purpose (praise at one star, complaints at five): their
 * rows train detection and aspect polarity without the stars feature, and never the review's
 * polarity, whose stars they would teach to mislead (docs/insights.md, "The stars against the words").
 */
export const STARLESS_FILES = ['aj', 'ak', 'al'].map(writerFile);

/**
 * Writers who wrote to the guide of the dev set's labelling conventions (eval/absa-guided.md, "The
 * guided training files"), one file each: every model learns each of their rows GUIDED_WEIGHT times (a feature's minCount counts it once), and
 * the aspects' thresholds are chosen on them (GUIDED_FOLDS folds of their writers), since the sets the
 * analyser is judged on are labelled that way. None is a fold of the leave-one-writer-out scores.
 */
export const GUIDED_FILES = Array.from({ length: 44 }, (_, i) => `eval/absa-guided-train-${String(i + 1).padStart(2, '0')}.tsv`);
export const GUIDED_WEIGHT = 3;
export const GUIDED_FOLDS = 2;

/** The guided writers' rows in GUIDED_FOLDS folds (writer i in fold i mod GUIDED_FOLDS), each row weighted GUIDED_WEIGHT. */
export function guidedFolds(writers: readonly (readonly Row[])[]): Row[][] {
  return Array.from({ length: GUIDED_FOLDS }, (_, f) => writers.filter((_, i) => i % GUIDED_FOLDS === f).flatMap((rows) => rows.map((r) => ({ ...r, weight: GUIDED_WEIGHT }))));
}

/** A writer's file by its letter (`npm run cv:insights -- add=e` tries one not trained on yet). */
export function writerFile(letter: string): string {
  return `eval/absa-train-${letter}.tsv`;
}
