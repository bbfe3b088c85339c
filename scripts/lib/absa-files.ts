/** The blind-written training files, one per writer (eval/absa-test-b.tsv is held out of them). */
export const TRAINING_FILES = ['eval/absa-train-a.tsv', 'eval/absa-train-b.tsv', 'eval/absa-train-c.tsv', 'eval/absa-train-d.tsv'];
